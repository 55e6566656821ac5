import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RateGate, type SyncClock } from './rate-gate.js';

/** A clock that moves only when someone sleeps: time as the gate sees it, with no real waiting. */
function virtualClock(): SyncClock & { readonly t: number } {
  let t = 1_000_000;
  return {
    get t() {
      return t;
    },
    now: () => t,
    sleep: async (ms) => {
      t += ms;
    },
  };
}

describe('RateGate', () => {
  it('starts requests at least an interval apart, whatever their arrivals', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 500 }),
        fc.array(fc.integer({ min: 0, max: 300 }), { maxLength: 40 }),
        async (interval, gaps) => {
          const clock = virtualClock();
          const gate = new RateGate(interval, clock);
          const starts: number[] = [];
          for (const gap of gaps) {
            await clock.sleep(gap);
            await gate.wait();
            starts.push(clock.now());
          }
          for (let i = 1; i < starts.length; i++)
            expect((starts[i] as number) - (starts[i - 1] as number)).toBeGreaterThanOrEqual(interval);
        },
      ),
    );
  });

  it('keeps the interval when timers fire late and many requests wait at once', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 200 }),
        fc.array(fc.integer({ min: 0, max: 150 }), { minLength: 1, maxLength: 30 }),
        async (interval, lateness) => {
          let t = 0;
          let n = 0;
          // Each sleep ends late by a varying amount, as on a busy machine.
          const clock: SyncClock = {
            now: () => t,
            sleep: async (ms) => {
              t += ms + (lateness[n++ % lateness.length] as number);
            },
          };
          const gate = new RateGate(interval, clock);
          const starts: number[] = [];
          await Promise.all(
            lateness.map(async () => {
              await gate.wait();
              starts.push(clock.now());
            }),
          );
          for (let i = 1; i < starts.length; i++)
            expect((starts[i] as number) - (starts[i - 1] as number)).toBeGreaterThanOrEqual(interval);
        },
      ),
    );
  });

  it('holds every request until the time a source asked for', async () => {
    const clock = virtualClock();
    const gate = new RateGate(100, clock);
    await gate.wait();
    gate.holdUntil(clock.now() + 5_000);
    const held = clock.now() + 5_000;
    await gate.wait();
    expect(clock.now()).toBeGreaterThanOrEqual(held);
  });
});
