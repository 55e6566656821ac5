import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ImportError } from './issues.js';
import { JsonReader } from './json-reader.js';

/** The bytes of `text` cut at `cuts`, as chunks of a stream. */
async function* chunked(text: string, cuts: number[]): AsyncGenerator<Buffer> {
  const bytes = Buffer.from(text);
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  let from = 0;
  for (const p of [...points, bytes.length]) {
    yield bytes.subarray(from, p);
    from = p;
  }
}

/** Rebuilds a document by walking it with entries/items, as an ingest reader does. */
async function walk(reader: JsonReader): Promise<unknown> {
  const c = await reader.peek();
  if (c === 0x7b) {
    const object: Record<string, unknown> = {};
    for await (const key of reader.entries()) {
      Object.defineProperty(object, key, { value: await walk(reader), enumerable: true, writable: true, configurable: true });
    }
    return object;
  }
  if (c === 0x5b) {
    const array: unknown[] = [];
    for await (const _ of reader.items()) array.push(await walk(reader));
    return array;
  }
  return reader.value(Number.POSITIVE_INFINITY);
}

/** Whether the reader accepts `text` as one document (skipping it), cut at `cuts`. */
async function accepts(text: string, cuts: number[]): Promise<boolean> {
  const reader = new JsonReader(chunked(text, cuts), 'doc.json');
  try {
    await reader.skip();
    await reader.end();
    return true;
  } catch (error) {
    if (!(error instanceof ImportError)) throw error;
    return false;
  }
}

const parses = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

/**
 * The texts of `values` and their near misses: a text with one of `chars` inserted, or a character
 * removed or replaced by one of them.
 */
function nearMisses(values: fc.Arbitrary<unknown>, chars: string): fc.Arbitrary<string> {
  return fc
    .tuple(
      values,
      fc.constantFrom(0, 2),
      fc.nat(),
      fc.constantFrom('insert', 'remove', 'replace', 'none'),
      fc.constantFrom(...chars),
    )
    .map(([value, indent, at, edit, char]) => {
      const text = JSON.stringify(value, null, indent);
      const i = at % (text.length + 1);
      if (edit === 'insert') return text.slice(0, i) + char + text.slice(i);
      if (edit === 'remove') return text.slice(0, i) + text.slice(i + 1);
      if (edit === 'replace') return text.slice(0, i) + char + text.slice(i + 1);
      return text;
    });
}

/** JSON texts and near misses: a valid text with a character inserted, removed or replaced. */
const nearJson = nearMisses(fc.jsonValue({ maxDepth: 4 }), ' \n\t{}[]:,"\\-+.0123456789eEtrufalsn/bx\u0001é');

describe('JsonReader', () => {
  it('reads back any JSON document walked key by key, however it is cut into chunks', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.jsonValue({ maxDepth: 5 }),
        fc.constantFrom(0, 1, 4),
        fc.array(fc.nat(), { maxLength: 8 }),
        async (value, indent, cuts) => {
          const text = JSON.stringify(value, null, indent);
          const reader = new JsonReader(chunked(text, cuts), 'doc.json');
          expect(await walk(reader)).toStrictEqual(JSON.parse(text));
          await reader.end();
          const whole = new JsonReader(chunked(text, cuts), 'doc.json');
          expect(await whole.value(Number.POSITIVE_INFINITY)).toStrictEqual(JSON.parse(text));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('accepts a text exactly when JSON.parse does', async () => {
    await fc.assert(
      fc.asyncProperty(nearJson, fc.array(fc.nat(), { maxLength: 6 }), async (text, cuts) => {
        expect(await accepts(text, cuts)).toBe(parses(text));
      }),
      { numRuns: 3000 },
    );
    for (const text of ['', ' ', '01', '-', '1.', '1e', '1e+', '"\\u12"', '"\t"', 'nul', '[1,]', '{"a":1,}', '{"a"}', '1 2']) {
      expect(await accepts(text, []), text).toBe(false);
    }
    for (const text of ['0', '-0.5e-3', ' "\\u00e9\\n" ', '[]', '{}', '[[],{}]', 'true', 'null', '1E+2']) {
      expect(await accepts(text, [1, 2, 3]), text).toBe(true);
    }
  });

  it('reads a flat object (a filing fact) as JSON.parse does, and refuses what it refuses, however it is cut', async () => {
    const flat = nearMisses(
      fc.dictionary(
        fc.string({ maxLength: 6 }),
        fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })),
      ),
      ' \n{}[]:,"\\-+.0123456789eE/x\u0001é',
    );
    await fc.assert(
      fc.asyncProperty(flat, fc.array(fc.nat(), { maxLength: 4 }), async (text, cuts) => {
        const reader = new JsonReader(chunked(text, cuts), 'fact.json');
        const read = await reader
          .value()
          .then(async (value) => {
            await reader.end();
            return { value };
          })
          .catch((error: unknown) => {
            if (!(error instanceof ImportError)) throw error;
            return undefined;
          });
        expect(read !== undefined, text).toBe(parses(text));
        if (read !== undefined) expect(read.value).toStrictEqual(JSON.parse(text));
      }),
      { numRuns: 3000 },
    );
    expect(await new JsonReader(chunked(`{ "a" :${' '.repeat(100)}1 }`, []), 'f.json').value(10)).toEqual({ a: 1 });
    await expect(new JsonReader(chunked(`{"a":"${'x'.repeat(20)}"}`, []), 'f.json').value(10)).rejects.toThrow(
      'f.json: holds a value larger than 10 bytes at byte 0',
    );
    await expect(new JsonReader(chunked('{"a":1,"b":2 x}', []), 'f.json').value()).rejects.toThrow(
      'f.json: is not valid JSON (a comma or a closing bracket expected at byte 13)',
    );
  });

  it('reads an array value by value as items and value do, and refuses the same, however it is cut', async () => {
    const facts = nearMisses(
      fc.array(
        fc.oneof(
          fc.dictionary(fc.string({ maxLength: 4 }), fc.oneof(fc.string({ maxLength: 6 }), fc.integer())),
          fc.jsonValue({ maxDepth: 2 }),
        ),
        { maxLength: 6 },
      ),
      ' \n{}[]:,"\\-.0123456789/x\u0001',
    );
    /** What a reading gives: its values, or the refusal's message. */
    const outcome = async (text: string, cuts: number[], read: (r: JsonReader) => Promise<unknown[]>) => {
      const reader = new JsonReader(chunked(text, cuts), 'facts.json');
      try {
        const values = await read(reader);
        await reader.end();
        return { values };
      } catch (error) {
        if (!(error instanceof ImportError)) throw error;
        return { refused: error.message };
      }
    };
    const byItems = async (r: JsonReader) => {
      const out: unknown[] = [];
      for await (const i of r.items()) out.push([i, await r.value(64)]);
      return out;
    };
    const byEach = async (r: JsonReader) => {
      const out: unknown[] = [];
      await r.eachValue((value, i) => out.push([i, value]), 64);
      return out;
    };
    await fc.assert(
      fc.asyncProperty(facts, fc.array(fc.nat(), { maxLength: 6 }), async (text, cuts) => {
        expect(await outcome(text, cuts, byEach), text).toStrictEqual(await outcome(text, cuts, byItems));
      }),
      { numRuns: 3000 },
    );
    expect(await outcome('[ {"a":1} , "b" ,2,[3]]', [], byEach)).toStrictEqual({
      values: [
        [0, { a: 1 }],
        [1, 'b'],
        [2, 2],
        [3, [3]],
      ],
    });
    expect(await outcome('[{"a":1} {"b":2}]', [3], byEach)).toStrictEqual({
      refused: 'facts.json: is not valid JSON (a comma or ] expected at byte 9)',
    });
  });

  it('names the byte where the input goes wrong, never the input itself', async () => {
    const reader = new JsonReader(chunked('{"a": [1, 2 secret]}', [3, 9]), 'x.json');
    await expect(reader.skip()).rejects.toThrow('x.json: is not valid JSON (a comma or a closing bracket expected at byte 12)');
    const truncated = new JsonReader(chunked('{"a": "never closed', []), 'x.json');
    await expect(truncated.skip()).rejects.toThrow('x.json: is not valid JSON (it ends inside a value at byte 19)');
    const passwd = new JsonReader(chunked('root:x:0:0:root:/root:/bin/bash\n', []), 'x.json');
    const error = await passwd.skip().catch((e: unknown) => e);
    expect(String(error)).not.toContain('root');
  });

  it('keeps no whitespace and refuses a value larger than asked, while reading it', async () => {
    const padded = `[${' '.repeat(1 << 20)}1${' '.repeat(1 << 20)}]`;
    expect(await new JsonReader(chunked(padded, [10, 70_000]), 'p.json').value(10)).toEqual([1]);
    const big = JSON.stringify(['x'.repeat(100)]);
    await expect(new JsonReader(chunked(big, []), 'b.json').value(50)).rejects.toThrow(
      'b.json: holds a value larger than 50 bytes at byte 0',
    );
  });

  it('refuses nesting deeper than it follows', async () => {
    expect(await accepts(`${'['.repeat(512)}${']'.repeat(512)}`, [])).toBe(true);
    expect(await accepts(`${'['.repeat(513)}${']'.repeat(513)}`, [])).toBe(false);
  });
});
