import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nameKey } from '../catalog/search/normalize-name.js';
import { prominence } from '../catalog/search/prominence.js';
import type { SearchEntry } from '../catalog/search/search-index.js';
import { readSource } from '../demo/csv.js';
import { syntheticEntries } from './synthetic-names.js';

/** One judged query: any of `expect` at rank 1 is a success. */
export interface Judgement {
  readonly class: string;
  readonly query: string;
  readonly expect: readonly string[];
  readonly note?: string;
}

export interface RelevanceScore {
  readonly queries: number;
  /** Share of queries whose first answer is one of the expected companies. */
  readonly successAt1: number;
  /** Mean over queries of 1 / rank of the first expected company within the top 10 (0 when absent). */
  readonly mrrAt10: number;
  readonly byClass: Readonly<Record<string, { queries: number; successAt1: number; mrrAt10: number }>>;
  /** The queries that missed rank 1, so a ranking change can be judged query by query. */
  readonly misses: readonly { query: string; class: string; rank: number | undefined }[];
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The judged queries and the non-Latin companies they need, beside the tests that hold the floor. */
export const RELEVANCE_SET = join(ROOT, 'test/fixtures/search/relevance-set.json');
export const NON_LATIN_COMPANIES = join(ROOT, 'test/fixtures/search/non-latin');
export const DEMO_BUNDLE = join(ROOT, 'demo/bundle');

/**
 * Search entries of a bundle's companies.csv (and listings.csv, where there is one), each with the
 * prominence the catalog gives it: its listings' markets and whether a processed document holds
 * its data (documents.csv).
 */
export function bundleEntries(dir: string, withListings = true): SearchEntry[] {
  interface Draft {
    companyId: string;
    name: string;
    tickers: string[];
    micCodes: string[];
    isins: string[];
    lei?: string;
  }
  const byId = new Map<string, Draft>();
  for (const row of readSource(dir, 'companies.csv')) {
    const isin = row.get('isin');
    const lei = row.get('lei');
    byId.set(row.get('company_id'), {
      companyId: row.get('company_id'),
      name: row.get('name'),
      tickers: [row.get('ticker')],
      micCodes: [row.get('mic_code')],
      isins: isin === '' ? [] : [isin],
      ...(lei === '' ? {} : { lei }),
    });
  }
  const withData = new Set<string>();
  if (withListings) {
    for (const row of readSource(dir, 'listings.csv')) {
      const entry = byId.get(row.get('company_id'));
      entry?.tickers.push(row.get('ticker'));
      entry?.micCodes.push(row.get('mic_code'));
      if (entry !== undefined && row.get('isin') !== '') entry.isins.push(row.get('isin'));
    }
    for (const row of readSource(dir, 'documents.csv'))
      if (row.get('status') === 'processed') withData.add(row.get('company_id'));
  }
  return [...byId.values()].map(({ micCodes, ...entry }) => ({
    ...entry,
    prominence: prominence({ micCodes, hasData: withData.has(entry.companyId) }),
  }));
}

/** The catalog the relevance set is judged over: the demo companies and a few named in other scripts. */
export function relevanceCatalog(): SearchEntry[] {
  return [...bundleEntries(DEMO_BUNDLE), ...bundleEntries(NON_LATIN_COMPANIES, false)];
}

/**
 * The judged catalog among `count` generated companies, one in fifty of them named after a word of
 * the name of a prominent real company (prominence 4 or more: "Ericsson Mining Ltd."): the
 * namesakes that well-known names attract, which the large company must rank above. `borrowing`
 * changes that share; `from` (the minimum prominence of the companies lending their words) can
 * make every real name lend them, a harsher test than the world gives.
 */
export function catalogAmongDistractors(count: number, borrowing = 0.02, from = 4): SearchEntry[] {
  const catalog = relevanceCatalog();
  const lenders = catalog.filter((e) => (e.prominence ?? 0) >= from);
  const borrowed = [...new Set(lenders.flatMap((e) => nameKey(e.name)).filter((w) => w.length >= 4))].sort();
  return [...catalog, ...syntheticEntries(count, 7, { borrowed, borrowing })];
}

export function readJudgements(path = RELEVANCE_SET): Judgement[] {
  return JSON.parse(readFileSync(path, 'utf8')) as Judgement[];
}

/** Scores a search function against judged queries: success@1 and MRR@10, overall and per class. */
export function score(search: (query: string) => readonly string[], judgements: readonly Judgement[]): RelevanceScore {
  const classes = new Map<string, { queries: number; hits: number; rr: number }>();
  const misses: { query: string; class: string; rank: number | undefined }[] = [];
  let hits = 0;
  let rr = 0;
  for (const j of judgements) {
    const found = search(j.query).slice(0, 10);
    const at = found.findIndex((id) => j.expect.includes(id));
    const c = classes.get(j.class) ?? { queries: 0, hits: 0, rr: 0 };
    c.queries++;
    if (at === 0) {
      hits++;
      c.hits++;
    } else misses.push({ query: j.query, class: j.class, rank: at < 0 ? undefined : at + 1 });
    if (at >= 0) {
      rr += 1 / (at + 1);
      c.rr += 1 / (at + 1);
    }
    classes.set(j.class, c);
  }
  const n = judgements.length;
  return {
    queries: n,
    successAt1: hits / n,
    mrrAt10: rr / n,
    byClass: Object.fromEntries(
      [...classes].map(([k, c]) => [k, { queries: c.queries, successAt1: c.hits / c.queries, mrrAt10: c.rr / c.queries }]),
    ),
    misses,
  };
}

/** The report `node dist/tools/relevance.js` prints. */
export function formatScore(s: RelevanceScore, verbose: boolean): string {
  const lines = [`${s.queries} queries  success@1 ${s.successAt1.toFixed(3)}  MRR@10 ${s.mrrAt10.toFixed(3)}`];
  for (const [k, c] of Object.entries(s.byClass)) {
    lines.push(
      `  ${k.padEnd(12)} ${String(c.queries).padStart(3)}  success@1 ${c.successAt1.toFixed(3)}  MRR@10 ${c.mrrAt10.toFixed(3)}`,
    );
  }
  if (verbose) for (const m of s.misses) lines.push(`  miss ${m.class.padEnd(12)} rank ${m.rank ?? '-'}  ${m.query}`);
  return `${lines.join('\n')}\n`;
}
