import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { limitedChunks } from './byte-limit.js';
import { readLines } from './line-reader.js';

async function* chunked(bytes: Buffer, cuts: number[]): AsyncGenerator<Buffer> {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  let from = 0;
  for (const p of [...points, bytes.length]) {
    yield bytes.subarray(from, p);
    from = p;
  }
}

async function lines(text: string, cuts: number[], max = 1024): Promise<string[]> {
  const out: string[] = [];
  for await (const batch of readLines(chunked(Buffer.from(text), cuts), max, 'num.txt', 'LIMIT')) out.push(...batch);
  return out;
}

/** What splitting the whole text gives: lines on LF, a CR before it dropped, no line after a final break. */
function split(text: string): string[] {
  if (text === '') return [];
  const parts = text.split('\n').map((l) => l.replace(/\r$/, ''));
  if (text.endsWith('\n')) parts.pop();
  return parts;
}

describe('readLines', () => {
  it('gives the lines of splitting the whole text, however it is cut into chunks', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: fc.constantFrom('a', 'é', '\t', '\n', '\r', '\r\n', '€', '1'), maxLength: 60 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        async (text, cuts) => {
          expect(await lines(text, cuts)).toEqual(split(text));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('takes a line of exactly the limit, LF or CRLF, and refuses one byte more, naming its line', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 40 }), fc.array(fc.nat(), { maxLength: 6 }), async (max, cuts) => {
        const ok = `a\n${'x'.repeat(max)}\r\n${'y'.repeat(max)}\nb`;
        expect(await lines(ok, cuts, max)).toEqual(['a', 'x'.repeat(max), 'y'.repeat(max), 'b']);
        for (const bad of [`a\nb\n${'x'.repeat(max + 1)}\nc`, `a\nb\n${'x'.repeat(max + 1)}`]) {
          await expect(lines(bad, cuts, max)).rejects.toThrow(`num.txt:3: is longer than the limit of ${max} bytes (LIMIT)`);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('refuses an endless line after reading no more than the limit and a chunk', async () => {
    let read = 0;
    async function* endless(): AsyncGenerator<Buffer> {
      for (;;) {
        read += 65536;
        yield Buffer.alloc(65536, 0x78);
      }
    }
    const reading = (async () => {
      for await (const _ of readLines(endless(), 1 << 20, 'num.txt', 'LIMIT'));
    })();
    await expect(reading).rejects.toThrow('num.txt:1: is longer than the limit of 1 MiB (LIMIT)');
    expect(read).toBeLessThanOrEqual((1 << 20) + 2 * 65536);
  });
});

describe('limitedChunks', () => {
  it('passes a stream up to its limit and refuses it as soon as it passes, naming the setting', async () => {
    const all = async (bytes: number, limit: number) => {
      let n = 0;
      for await (const c of limitedChunks(chunked(Buffer.alloc(bytes), [7, 300, 301]), { bytes: limit, setting: 'S' }, 'f'))
        n += c.length;
      return n;
    };
    expect(await all(1000, 1000)).toBe(1000);
    await expect(all(1001, 1000)).rejects.toThrow('f: is larger than the limit of 1000 bytes (S)');
  });
});
