import { recordAnswer, startBareServer } from './bare-route.js';
import type { RecordedAnswer } from './bare-server.js';
import { bareLine, type CallFigures, figuresOf, reportLine } from './cpu-report.js';
import { type LoadOptions, measureCall, type Side, type SideRounds } from './cpu-rounds.js';
import { postgresPids } from './cpu-time.js';
import { type ServedApp, serveVariant, testTokenOf, type Variant } from './served-app.js';

/**
 * The calls measured, by name: the billed revenues repeat, the billed repeat of two line items
 * (one amount, one per-share value: a new item is to cost what revenues costs), search, the test token.
 */
export const CALL_NAMES = ['billed', 'gross-profit', 'eps-diluted', 'search', 'test-token'] as const;
export type CallName = (typeof CALL_NAMES)[number];
/** The line items' calls: a variant that does not serve the item (a version before it) sits them out. */
export const ITEM_CALLS: ReadonlySet<CallName> = new Set<CallName>(['gross-profit', 'eps-diluted']);

/** A database for each variant: a fresh SQLite file, or a fresh database on one PostgreSQL server. */
export interface BenchDatabase {
  dialect: 'sqlite' | 'postgres';
  /** The URL of a new, empty database for the variant numbered `index`. */
  create(index: number): Promise<string>;
  /** PostgreSQL: the server's port, whose processes are measured. */
  port?: number;
}

export interface HttpBenchOptions {
  variants: readonly Variant[];
  calls: ReadonlySet<CallName>;
  load: LoadOptions;
  /** The billed revenues call (a company-period bought once before it is measured). */
  billedPath: string;
  /** A line item's billed call, the same company-period as `billedPath`'s. */
  itemPath(item: CallName): string;
  searchPath: string;
  nodeArgs: readonly string[];
  write(line: string): void;
}

/** What the run measured, per call and side: for the summary and the caller's own checks. */
export type HttpResults = Map<CallName, Map<string, CallFigures>>;

interface Served {
  variant: Variant;
  app: ServedApp;
  testToken: string;
}

async function call(base: string, path: string, key: string): Promise<Response> {
  return fetch(`${base}${path}`, { headers: { authorization: `Bearer ${key}` } });
}

function pathOf(name: CallName, options: HttpBenchOptions): string {
  if (name === 'search') return options.searchPath;
  return ITEM_CALLS.has(name) ? options.itemPath(name) : options.billedPath;
}

/**
 * Buys the billed calls' company-period (so the repeat is measured) and records each call's answer,
 * which must be 200; a line item's call a later variant answers 404 (it does not serve the item) is
 * left out for that variant.
 */
async function primeAndRecord(served: Served, options: HttpBenchOptions, first: boolean): Promise<Map<CallName, RecordedAnswer>> {
  const { base, key } = served.app;
  const answers = new Map<CallName, RecordedAnswer>();
  for (const name of CALL_NAMES) {
    if (!options.calls.has(name)) continue;
    const path = pathOf(name, options);
    if (name !== 'search' && name !== 'test-token') {
      const bought = await call(base, path, key);
      const body = await bought.text();
      if (bought.status === 404 && ITEM_CALLS.has(name) && !first) continue;
      if (bought.status !== 200) throw new Error(`${served.variant.label}: ${name} answered ${bought.status}: ${body}`);
    }
    const response = await call(base, path, name === 'test-token' ? served.testToken : key);
    if (response.status !== 200) throw new Error(`${served.variant.label}: ${name} answered ${response.status}`);
    answers.set(name, await recordAnswer(response));
  }
  return answers;
}

/**
 * The HTTP part of `npm run bench` on one database: each variant served as an operator serves it,
 * on a database of its own; each call measured on the bare route (the first variant's answers
 * replayed, in a process of its own) and on every variant, alternated round by round; CPU time
 * per call of the app and of the PostgreSQL server, beside req/s.
 */
export async function httpBench(database: BenchDatabase, options: HttpBenchOptions): Promise<HttpResults> {
  const served: Served[] = [];
  const results: HttpResults = new Map();
  try {
    for (const [index, variant] of options.variants.entries()) {
      const url = await database.create(index);
      const app = await serveVariant(variant, url, { nodeArgs: index === 0 ? options.nodeArgs : [] });
      served.push({ variant, app, testToken: await testTokenOf(variant, url) });
    }
    const answers = await Promise.all(served.map((s, i) => primeAndRecord(s, options, i === 0)));
    const recorded = answers[0];
    if (recorded === undefined) return results;
    const bare = await startBareServer(Object.fromEntries(recorded));
    const port = database.port;
    const databasePids = port === undefined ? undefined : () => postgresPids(port);
    try {
      for (const name of CALL_NAMES) {
        if (!options.calls.has(name)) continue;
        const path = name === 'test-token' ? options.billedPath : pathOf(name, options);
        const serving = served.filter((_, i) => answers[i]?.has(name));
        // Each variant is asked with its own key (made alike: same secret, account and key name,
        // so of one size); the bare route with the first variant's, the same bytes.
        const headersOf = (s: Served) => ({ authorization: `Bearer ${name === 'test-token' ? s.testToken : s.app.key}` });
        const sides: Side[] = [
          { label: 'bare', url: bare.url(name), headers: headersOf(served[0] as Served), pids: () => [bare.pid] },
          ...serving.map(
            (s): Side => ({
              label: s.variant.label,
              url: `${s.app.base}${path}`,
              headers: headersOf(s),
              pids: () => [s.app.pid],
              ...(databasePids === undefined ? {} : { databasePids }),
            }),
          ),
        ];
        const figures = await measureCall(sides, options.load);
        const bareRounds = figures.get('bare') as SideRounds;
        options.write(bareLine(database.dialect, name, bareRounds));
        const byLabel = new Map<string, CallFigures>([['bare', figuresOf(bareRounds)]]);
        for (const s of served) {
          if (!serving.includes(s)) {
            options.write(`${database.dialect.padEnd(9)} ${name.padEnd(14)} ${s.variant.label.padEnd(10)} not served (404)\n`);
            continue;
          }
          const rounds = figures.get(s.variant.label) as SideRounds;
          options.write(reportLine(database.dialect, name, s.variant.label, rounds, bareRounds));
          byLabel.set(s.variant.label, figuresOf(rounds));
        }
        results.set(name, byLabel);
      }
    } finally {
      await bare.stop();
    }
  } finally {
    for (const s of served) await s.app.stop();
  }
  return results;
}
