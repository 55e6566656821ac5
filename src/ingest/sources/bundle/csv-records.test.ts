import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CsvRecord, CsvRecordParser, CsvSyntaxError } from './csv-records.js';

/** Parses `chunks` as one file arriving piece by piece. */
function parseChunks(chunks: string[]): CsvRecord[] {
  const parser = new CsvRecordParser();
  const out: CsvRecord[] = [];
  for (const c of chunks) out.push(...parser.push(c));
  out.push(...parser.end());
  return out;
}

function splitAt(text: string, cuts: number[]): string[] {
  const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  const parts: string[] = [];
  let from = 0;
  for (const p of points) {
    parts.push(text.slice(from, p));
    from = p;
  }
  parts.push(text.slice(from));
  return parts;
}

const field = fc.string({ unit: fc.constantFrom('a', 'é', ',', '"', '\n', '\r\n', ' ', 'Z', '1'), maxLength: 8 });
const quote = (f: string) => (/[",\n\r]/.test(f) || f === '' ? `"${f.replace(/"/g, '""')}"` : f);

describe('CsvRecordParser', () => {
  it('reads back any RFC 4180 text, however it is cut into chunks, with each record’s first line', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(field, { minLength: 2, maxLength: 4 }), { minLength: 1, maxLength: 6 }),
        fc.constantFrom('\n', '\r\n'),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 6 }),
        (records, eol, trailing, cuts) => {
          const lines = records.map((r) => r.map(quote).join(','));
          const text = lines.join(eol) + (trailing ? eol : '');
          const expectedLines: number[] = [];
          let line = 1;
          for (const l of lines) {
            expectedLines.push(line);
            line += l.split('\n').length;
          }
          const parsed = parseChunks(splitAt(text, cuts));
          expect(parsed.map((r) => r.fields)).toEqual(records);
          expect(parsed.map((r) => r.line)).toEqual(expectedLines);
        },
      ),
    );
  });

  it('skips a byte-order mark and blank lines (LF or CRLF, however cut), counting their lines', () => {
    expect(parseChunks(['\uFEFFa,b\n', '\n', '\r', '\n\r\n', 'c,d'])).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 5, fields: ['c', 'd'] },
    ]);
  });

  it('returns no record for a million blank lines, and ends on the line after them', () => {
    const parser = new CsvRecordParser();
    expect(parser.push('a,b\n')).toHaveLength(1);
    for (let i = 0; i < 10; i++) expect(parser.push('\n'.repeat(50_000) + '\r\n'.repeat(50_000))).toEqual([]);
    expect(parser.end()).toEqual([]);
    expect(parser.line).toBe(1_000_002);
  });

  it('still reads a lone empty quoted field or a last line of a lone CR as one empty field', () => {
    expect(parseChunks(['a\n""\nb'])).toEqual([
      { line: 1, fields: ['a'] },
      { line: 2, fields: [''] },
      { line: 3, fields: ['b'] },
    ]);
    expect(parseChunks(['a\n', '\r'])).toEqual([
      { line: 1, fields: ['a'] },
      { line: 2, fields: [''] },
    ]);
  });

  it.each([
    ['a,"b\nc,d\n', 1, 'a quoted field is never closed'],
    ['a,b\nc,d"e\n', 2, 'a quote inside an unquoted field (quote the whole field and double the quote)'],
    ['a,b\n"c"d,e\n', 2, 'text after a closing quote (a quote inside a field must be doubled)'],
  ])('refuses %j at line %i', (text, line, message) => {
    const error = (() => {
      try {
        parseChunks([text]);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(CsvSyntaxError);
    expect(error).toMatchObject({ line, message });
  });

  it('gives up on a quote left open instead of reading the rest of a large file into one record', () => {
    const parser = new CsvRecordParser();
    parser.push('a,"open\n');
    expect(() => {
      for (let i = 0; i < 100; i++) parser.push(`${'x'.repeat(20_000)}\n`);
    }).toThrow(/longer than/);
  });
});
