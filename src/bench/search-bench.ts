import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { nameKey } from '../catalog/search/normalize-name.js';
import { type SearchEntry, SearchIndex } from '../catalog/search/search-index.js';
import { random } from '../tools/synthetic-ids.js';
import { syntheticEntries } from '../tools/synthetic-names.js';

/** Distinct queries per class; each is asked REPEATS times, so p99 rests on enough samples. */
const QUERIES_PER_CLASS = 300;
const REPEATS = 5;

type QueryClass = readonly [name: string, make: (rng: () => number, entries: readonly SearchEntry[]) => string];

const letters = 'abcdefghijklmnopqrstuvwxyz';
const letter = (rng: () => number) => letters.charAt(Math.floor(rng() * 26));
const some = (rng: () => number, entries: readonly SearchEntry[]) => entries[Math.floor(rng() * entries.length)] as SearchEntry;

/** The query classes of design §12, each made from the catalog searched. */
export const QUERY_CLASSES: readonly QueryClass[] = [
  ['one letter', (rng) => letter(rng)],
  ['two letters', (rng) => letter(rng) + letter(rng)],
  ['ticker', (rng, es) => some(rng, es).tickers[0] ?? 'A'],
  ['full name', (rng, es) => some(rng, es).name],
  ['several words', (rng, es) => nameKey(some(rng, es).name).slice(0, 2).join(' ')],
  [
    'typo',
    (rng, es) => {
      const word = nameKey(some(rng, es).name).sort((a, b) => b.length - a.length)[0] ?? 'typo';
      const at = 1 + Math.floor(rng() * Math.max(1, word.length - 2));
      return word.slice(0, at) + letter(rng) + word.slice(at + 1);
    },
  ],
  ['no match', (rng) => `qx${letter(rng)}zv ${letter(rng)}jjq`],
  [
    '100 characters',
    (rng, es) => {
      let q = '';
      while (q.length < 100) q += `${nameKey(some(rng, es).name)[0] ?? 'x'} `;
      return q.slice(0, 100);
    },
  ],
];

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
}

/** Memory the JS objects and the typed arrays' buffers take (typed arrays live outside the heap). */
function held(m: NodeJS.MemoryUsage): number {
  return m.heapUsed + m.external;
}

function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

/**
 * In-process search over `size` generated companies: index build time and memory, then p50/p99
 * per query class. Memory is the heap the index holds once built, measured after a full collection.
 */
export function benchSearch(size: number, write: (line: string) => void): void {
  const entries = syntheticEntries(size);
  collectGarbage();
  const before = process.memoryUsage();
  const started = performance.now();
  const cpu = process.cpuUsage();
  const index = new SearchIndex(entries, { identify: () => undefined });
  const cpuMs = (process.cpuUsage(cpu).user + process.cpuUsage(cpu).system) / 1000;
  const buildMs = performance.now() - started;
  collectGarbage();
  const after = process.memoryUsage();
  const mib = (b: number) => (b / 2 ** 20).toFixed(0);
  write(
    `search ${String(size).padStart(8)} companies: index build ${(buildMs / 1000).toFixed(1)} s (cpu ${(cpuMs / 1000).toFixed(1)} s), index memory ${mib(held(after) - held(before))} MiB (heap and typed arrays), process rss ${mib(after.rss)} MiB\n`,
  );
  const rng = random(size);
  for (const [name, make] of QUERY_CLASSES) {
    const queries = Array.from({ length: QUERIES_PER_CLASS }, () => make(rng, entries));
    for (const q of queries) index.search(q); // warm-up
    const times: number[] = [];
    // CPU time too: on a shared machine a query's wall time includes the time the OS ran others.
    const cpuTimes: number[] = [];
    for (let r = 0; r < REPEATS; r++) {
      for (const q of queries) {
        const c = process.cpuUsage();
        const t = performance.now();
        index.search(q);
        times.push(performance.now() - t);
        const u = process.cpuUsage(c);
        cpuTimes.push((u.user + u.system) / 1000);
      }
    }
    times.sort((a, b) => a - b);
    cpuTimes.sort((a, b) => a - b);
    const ms = (x: number) => x.toFixed(3).padStart(7);
    write(
      `  ${name.padEnd(15)} p50 ${ms(percentile(times, 0.5))} ms  p99 ${ms(percentile(times, 0.99))} ms  max ${(times[times.length - 1] ?? 0).toFixed(2).padStart(7)} ms | cpu p50 ${ms(percentile(cpuTimes, 0.5))} ms  p99 ${ms(percentile(cpuTimes, 0.99))} ms\n`,
    );
  }
}
