import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ImportError } from '../../core/issues.js';
import { FactScanner } from './fact-scanner.js';

interface Scanned {
  members: Array<[string, unknown]>;
  facts: Array<[string, unknown]>;
  factsObject: boolean[];
}

/** Scans `bytes` cut into chunks at `cuts` (offsets), as a stream would hand them over. */
function scan(bytes: Buffer, cuts: number[] = [], maxValueBytes = 1 << 20): Scanned {
  const out: Scanned = { members: [], facts: [], factsObject: [] };
  const scanner = new FactScanner(
    'report.json',
    {
      member: (key, value) => out.members.push([key, value]),
      factsStart: (isObject) => out.factsObject.push(isObject),
      fact: (id, value) => out.facts.push([id, value]),
    },
    maxValueBytes,
  );
  let from = 0;
  for (const cut of [...new Set(cuts)].sort((a, b) => a - b)) {
    if (cut <= from || cut >= bytes.length) continue;
    scanner.push(bytes.subarray(from, cut));
    from = cut;
  }
  scanner.push(bytes.subarray(from));
  scanner.end();
  return out;
}

/** What the scanner must find: the document as JSON.parse reads it. */
function expected(doc: Record<string, unknown>): Scanned {
  const out: Scanned = { members: [], facts: [], factsObject: [] };
  for (const [key, value] of Object.entries(doc)) {
    if (key !== 'facts') {
      out.members.push([key, value]);
      continue;
    }
    const isObject = typeof value === 'object' && value !== null && !Array.isArray(value);
    out.factsObject.push(isObject);
    if (isObject) out.facts.push(...Object.entries(value as Record<string, unknown>));
    else out.members.push([key, value]);
  }
  return out;
}

// Strings with what makes scanning hard: quotes, backslashes (runs of them), escapes, non-ASCII.
const tricky = fc.string({
  unit: fc.constantFrom('"', '\\', '\\\\', 'a', ' ', '{', '}', '[', ']', ',', ':', 'é', '😀', '\n', '\u0001'),
});
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    tricky,
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(tricky, tie('value'), { maxKeys: 4 }),
  ),
})).value;
const fact = fc.record({
  value: fc.oneof(tricky, fc.constant('20935000000.0')),
  decimals: fc.integer({ min: -9, max: 4 }),
  dimensions: fc.dictionary(tricky, tricky, { maxKeys: 5 }),
});
const report = fc.record({
  documentInfo: fc.dictionary(tricky, json, { maxKeys: 3 }),
  facts: fc.oneof({ weight: 5, arbitrary: fc.dictionary(tricky, fact, { maxKeys: 8 }) }, { weight: 1, arbitrary: json }),
  extra: json,
});
const render = (doc: unknown, indent: number) =>
  Buffer.from(indent < 0 ? JSON.stringify(doc) : JSON.stringify(doc, null, indent));

describe('splitting an xBRL-JSON report into its facts', () => {
  it('finds every member and fact JSON.parse finds, however the bytes are cut and indented', () => {
    fc.assert(
      fc.property(report, fc.integer({ min: -1, max: 3 }), fc.array(fc.nat(), { maxLength: 12 }), (doc, indent, cuts) => {
        const bytes = render(doc, indent);
        expect(
          scan(
            bytes,
            cuts.map((c) => c % (bytes.length + 1)),
          ),
        ).toEqual(expected(JSON.parse(bytes.toString('utf8')))); // as read back: JSON has no -0
      }),
      { numRuns: 300 },
    );
  });

  it('reads byte by byte as well as whole', () => {
    const doc = { documentInfo: { documentType: 'x' }, facts: { 'f-1': { value: 'a\\"b\\\\', dimensions: { concept: 'c' } } } };
    const bytes = render(doc, 1);
    expect(scan(bytes, [...bytes.keys()])).toEqual(expected(doc));
  });

  it('accepts a document exactly when JSON.parse does, once a byte is changed or the end cut off', () => {
    fc.assert(
      fc.property(
        report,
        fc.nat(),
        fc.constantFrom(...'{}[]",:\\ 0a-'.split('')),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 6 }),
        (doc, at, byte, truncate, cuts) => {
          const original = render(doc, 1);
          const pos = at % original.length;
          const bytes = truncate
            ? original.subarray(0, pos)
            : Buffer.concat([original.subarray(0, pos), Buffer.from(byte), original.subarray(pos + 1)]);
          let parsed: unknown;
          let valid = true;
          try {
            parsed = JSON.parse(bytes.toString('utf8'));
          } catch {
            valid = false;
          }
          const isObject = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
          let result: Scanned | Error;
          try {
            result = scan(
              bytes,
              cuts.map((c) => c % (bytes.length + 1)),
            );
          } catch (error) {
            result = error as Error;
          }
          if (valid && isObject) expect(result).toEqual(expected(parsed as Record<string, unknown>));
          else {
            expect(result).toBeInstanceOf(ImportError);
            expect((result as Error).message).toMatch(/^report\.json: is not valid JSON \(.* at byte [0-9]+\)$/s);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('names the fact and the byte where a fact is malformed, never quoting the input', () => {
    const bytes = Buffer.from('{"documentInfo": {}, "facts": {"f-1": {"value": "1"}, "f-2": {"value": secret}}}');
    expect(() => scan(bytes)).toThrow('report.json: is not valid JSON (a malformed value in fact f-2 at byte 61)');
    expect(() => scan(bytes)).not.toThrow(/secret/);
  });

  it('names the fact before a fault between facts', () => {
    const bytes = Buffer.from('{"facts": {"f-1": {"value": "1"} "f-2": {}}}');
    expect(() => scan(bytes)).toThrow('report.json: is not valid JSON (a comma or } expected after fact f-1 at byte 33)');
  });

  it('refuses a value over the limit by its size, before reading it all', () => {
    const big = Buffer.from(JSON.stringify({ documentInfo: {}, facts: { 'f-1': { value: 'x'.repeat(5000) } } }));
    expect(() => scan(big, [100, 200], 1000)).toThrow('report.json: holds a value larger than 1000 bytes at byte 34');
  });
});
