import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readAhead } from './read-ahead.js';

/** A source that logs when each item's read starts, and whether it was let go. */
function source<T>(items: readonly T[], log: string[], failAt?: number) {
  return {
    closed: false,
    async *[Symbol.asyncIterator](): AsyncGenerator<T> {
      try {
        for (const [i, item] of items.entries()) {
          log.push(`read ${i}`);
          await new Promise((resolve) => setImmediate(resolve));
          if (i === failAt) throw new Error(`item ${i} is malformed`);
          yield item;
        }
      } finally {
        this.closed = true;
      }
    },
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('readAhead', () => {
  it('yields every item in order', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer()), async (items) => {
        const out: number[] = [];
        for await (const item of readAhead(source(items, []))) out.push(item);
        expect(out).toEqual(items);
      }),
    );
  });

  it('reads the next item while the consumer is busy with one, and no further', async () => {
    const log: string[] = [];
    for await (const item of readAhead(source(['a', 'b', 'c'], log))) {
      log.push(`use ${item} start`);
      await tick();
      await tick();
      log.push(`use ${item} end`);
    }
    expect(log).toEqual([
      'read 0',
      'read 1',
      'use a start',
      'use a end',
      'read 2',
      'use b start',
      'use b end',
      'use c start',
      'use c end',
    ]);
  });

  it('meets a failed read where the next item is awaited, after the one in hand is done', async () => {
    const log: string[] = [];
    const src = source(['a', 'b', 'c'], log, 1);
    const run = async () => {
      for await (const item of readAhead(src)) {
        await tick();
        await tick();
        log.push(`done ${item}`);
      }
    };
    await expect(run()).rejects.toThrow('item 1 is malformed');
    expect(log).toEqual(['read 0', 'read 1', 'done a']);
  });

  it('lets the source go when the consumer stops early or fails', async () => {
    const early = source([1, 2, 3], []);
    for await (const item of readAhead(early)) if (item === 1) break;
    expect(early.closed).toBe(true);
    const failing = source([1, 2, 3], []);
    const run = async () => {
      for await (const item of readAhead(failing)) if (item === 2) throw new Error('consumer failed');
    };
    await expect(run()).rejects.toThrow('consumer failed');
    expect(failing.closed).toBe(true);
  });
});
