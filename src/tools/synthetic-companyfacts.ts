import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import yazl from 'yazl';
import { random } from './synthetic-ids.js';

export interface CompanyFactsOptions {
  filers: number;
  seed: number;
  /** Fiscal years per filer, ending with 2024 (10 by default). */
  years?: number;
}

export interface CompanyFactsSummary {
  filers: number;
  facts: number;
  bytes_uncompressed: number;
}

type Fact = {
  start?: string;
  end: string;
  val: number;
  accn: string;
  fy: number;
  fp: string;
  form: string;
  filed: string;
  frame?: string;
};

const pad = (n: number, w: number) => String(n).padStart(w, '0');
const day = (d: Date) => d.toISOString().slice(0, 10);
const utc = (y: number, m: number, d: number) => new Date(Date.UTC(y, m, d));

/** The CIK of synthetic filer `n` (1-based): far above real CIKs, so the two never meet. */
export const syntheticCik = (n: number): number => 9_000_000_000 + n;

/**
 * One filer's companyfacts document, shaped like SEC's: every fiscal year a 10-K with the year and
 * two comparatives, three 10-Qs with the quarter and the year-ago quarter, several concepts and
 * units (USD, USD/shares, shares, and EUR for IFRS filers), a revenue concept that switches in 2018
 * as US filers did, a goods-only component beside it, the odd restated comparative, a 10-K/A.
 */
function filerFacts(n: number, seed: number, years: number): { json: string; facts: number } {
  const rnd = random(seed * 1_000_003 + n);
  const cik = syntheticCik(n);
  const ifrs = rnd() < 0.05;
  const fyEndMonth = [12, 12, 12, 6, 9, 1][Math.floor(rnd() * 6)] ?? 12;
  const base = Math.round(1e6 + rnd() * 5e10);
  const growth = 0.95 + rnd() * 0.2;
  const firstYear = 2024 - years + 1;
  const revenueOf = (y: number) => Math.round(base * growth ** (y - firstYear));
  let seq = 0;
  const accn = (y: number) => `${pad(cik % 10_000_000_000, 10)}-${pad((y + 1) % 100, 2)}-${pad(++seq, 6)}`;
  const concepts = new Map<string, Map<string, Fact[]>>();
  const add = (concept: string, unit: string, f: Fact) => {
    const units = concepts.get(concept) ?? new Map<string, Fact[]>();
    concepts.set(concept, units);
    const list = units.get(unit) ?? [];
    units.set(unit, list);
    list.push(f);
  };
  let facts = 0;
  const push = (concept: string, unit: string, f: Fact) => {
    add(concept, unit, f);
    facts++;
  };
  const revenueConcept = (y: number) =>
    ifrs
      ? 'ifrs-full:Revenue'
      : y >= 2018
        ? 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax'
        : 'us-gaap:SalesRevenueNet';
  const money = ifrs ? 'EUR' : 'USD';
  for (let y = firstYear; y <= 2024; y++) {
    const end = fyEndMonth === 1 ? utc(y, 1, 0) : utc(y, fyEndMonth, 0);
    const fyStart = (yy: number) => day(utc(yy - 1, end.getUTCMonth() + 1, 1));
    const fyEnd = (yy: number) => day(utc(yy, end.getUTCMonth() + 1, 0));
    const filed = day(utc(y, end.getUTCMonth() + 2, 10 + Math.floor(rnd() * 40)));
    const form = ifrs ? '20-F' : '10-K';
    const a = accn(y);
    for (const back of [0, 1, 2]) {
      const yy = y - back;
      // A comparative restated now and then (a new standard, a discontinued operation).
      const restated = back > 0 && rnd() < 0.04;
      const val = Math.round(revenueOf(yy) * (restated ? 0.97 : 1));
      const f: Fact = { start: fyStart(yy), end: fyEnd(yy), val, accn: a, fy: y, fp: 'FY', form, filed };
      push(revenueConcept(y), money, f);
      if (!ifrs) push('us-gaap:SalesRevenueGoodsNet', money, { ...f, val: Math.round(val * 0.6) });
      push(ifrs ? 'ifrs-full:ProfitLoss' : 'us-gaap:NetIncomeLoss', money, { ...f, val: Math.round(val * 0.1) });
      push(ifrs ? 'ifrs-full:BasicEarningsLossPerShare' : 'us-gaap:EarningsPerShareBasic', `${money}/shares`, {
        ...f,
        val: Math.round(rnd() * 1000) / 100,
      });
    }
    push(ifrs ? 'ifrs-full:Assets' : 'us-gaap:Assets', money, {
      end: fyEnd(y),
      val: revenueOf(y) * 2,
      accn: a,
      fy: y,
      fp: 'FY',
      form,
      filed,
    });
    push('dei:EntityCommonStockSharesOutstanding', 'shares', {
      end: filed,
      val: Math.round(1e6 + rnd() * 1e9),
      accn: a,
      fy: y,
      fp: 'FY',
      form,
      filed,
    });
    if (!ifrs && rnd() < 0.03) {
      // An amendment repeating the year's figure: it must add nothing.
      push(revenueConcept(y), money, {
        start: fyStart(y),
        end: fyEnd(y),
        val: revenueOf(y),
        accn: accn(y),
        fy: y,
        fp: 'FY',
        form: '10-K/A',
        filed: day(utc(y + 1, 0, 20)),
      });
    }
    if (ifrs) continue;
    for (const q of [1, 2, 3]) {
      const qStart = utc(y - 1, end.getUTCMonth() + 1 + 3 * (q - 1), 1);
      const qEnd = utc(y - 1, end.getUTCMonth() + 1 + 3 * q, 0);
      const qa = accn(y);
      const qFiled = day(utc(qEnd.getUTCFullYear(), qEnd.getUTCMonth() + 1, 5 + Math.floor(rnd() * 30)));
      for (const back of [0, 1]) {
        const s = utc(qStart.getUTCFullYear() - back, qStart.getUTCMonth(), 1);
        const e = utc(qEnd.getUTCFullYear() - back, qEnd.getUTCMonth() + 1, 0);
        const val = Math.round(revenueOf(y - back) / 4);
        const f: Fact = { start: day(s), end: day(e), val, accn: qa, fy: y, fp: `Q${q}`, form: '10-Q', filed: qFiled };
        push(revenueConcept(y), money, f);
        push('us-gaap:NetIncomeLoss', money, { ...f, val: Math.round(val * 0.1) });
      }
    }
  }
  const out: Record<string, Record<string, { label: string; description: string; units: Record<string, Fact[]> }>> = {};
  for (const [concept, units] of concepts) {
    const [taxonomy = '', local = ''] = concept.split(':');
    out[taxonomy] ??= {};
    out[taxonomy][local] = { label: local, description: `${local} (synthetic)`, units: Object.fromEntries(units) };
  }
  return { json: JSON.stringify({ cik, entityName: `Synthetic Filer ${n}`, facts: out }), facts };
}

/** SEC's ticker file for the synthetic filers: 95 in 100 listed (the rest stay unknown to the catalog). */
export function syntheticTickers(filers: number): string {
  const data: string[][] = [];
  for (let n = 1; n <= filers; n++) {
    if (n % 20 === 0) continue;
    data.push([
      String(syntheticCik(n)),
      `Synthetic Filer ${n}`,
      `Z${n.toString(36).toUpperCase()}`,
      n % 2 === 0 ? 'NYSE' : 'Nasdaq',
    ]);
  }
  return JSON.stringify({ fields: ['cik', 'name', 'ticker', 'exchange'], data });
}

/**
 * Writes a bulk companyfacts.zip of `filers` synthetic filers, one entry at a time: each entry's
 * JSON is made only when the zip writer asks for it, so memory stays flat at any size (zip64
 * where needed, as yazl writes it).
 */
export async function writeSyntheticCompanyFacts(path: string, options: CompanyFactsOptions): Promise<CompanyFactsSummary> {
  const summary: CompanyFactsSummary = { filers: options.filers, facts: 0, bytes_uncompressed: 0 };
  const zip = new yazl.ZipFile() as yazl.ZipFile & {
    addReadStreamLazy(
      name: string,
      options: { mtime: Date },
      get: (cb: (error: Error | null, stream: Readable) => void) => void,
    ): void;
  };
  const out = createWriteStream(path);
  const piped = (zip.outputStream as Readable).pipe(out);
  const mtime = new Date('2025-01-01T00:00:00Z');
  for (let n = 1; n <= options.filers; n++) {
    zip.addReadStreamLazy(`CIK${pad(syntheticCik(n), 10)}.json`, { mtime }, (cb) => {
      const { json, facts } = filerFacts(n, options.seed, options.years ?? 10);
      summary.facts += facts;
      summary.bytes_uncompressed += json.length;
      cb(null, Readable.from([Buffer.from(json)]));
    });
  }
  zip.end();
  await once(piped, 'finish');
  return summary;
}
