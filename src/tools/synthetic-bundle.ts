import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { BUNDLE_FILES, type BundleFile } from '../ingest/sources/bundle/bundle-files.js';
import { CsvWriter } from '../ingest/sources/bundle/write-csv.js';
import { rateCurrency } from '../money/normalize.js';
import { letters, mix32, random, serial, syntheticUuid, withIsinCheckDigit, withLeiCheckDigits } from './synthetic-ids.js';
import {
  ADR_MIC,
  type MarketProfile,
  NAME_SUFFIXES,
  NAME_TRADES,
  NAME_WORDS,
  PROFILES,
  SECONDARY_MICS,
} from './synthetic-markets.js';

export interface SyntheticOptions {
  companies: number;
  /** Revenue data points in all; spread evenly over the companies. */
  points: number;
  seed: number;
}

export type SyntheticSummary = Record<'fx_rates' | 'companies' | 'listings' | 'documents' | 'revenues', number>;

/** The most recent reporting period; documents go back from it in cycles of YEAR_SPAN years. */
const TOP_YEAR = 2025;
const YEAR_SPAN = 30;
/** Restatements reach one year further back than the oldest report. */
const FIRST_YEAR = TOP_YEAR - YEAR_SPAN;
/** Original values stay well inside the safe integer range whatever the currency. */
const MAX_ORIGINAL = 900_000_000_000_000;

const KIND = { company: 1, document: 2 } as const;

/** Currencies that have rates of their own: every profile's rate currency, USD excepted. */
const RATE_CURRENCIES = [...new Set(PROFILES.map((p) => rateCurrency(p.currency).currency))].filter((c) => c !== 'USD').sort();

const BASE_RATE = new Map(PROFILES.map((p) => [rateCurrency(p.currency).currency, p.usdPerUnit]));

/** USD per unit of a rate currency in a year: the 2023 figure drifting smoothly over the years. */
function usdPerUnit(currency: string, year: number): number {
  const base = BASE_RATE.get(currency) ?? 1;
  const phase = RATE_CURRENCIES.indexOf(currency);
  return base * (1 + 0.12 * Math.sin((year - 2023) * 0.45 + phase));
}

/** A positive number as a plain decimal of six significant digits: never an exponent, never a float. */
export function decimal6(x: number): string {
  const exponent = Math.floor(Math.log10(x));
  const scale = Math.max(0, 5 - exponent);
  const digits = String(Math.round(x * 10 ** scale));
  if (scale === 0) return digits;
  const padded = digits.padStart(scale + 1, '0');
  const text = `${padded.slice(0, -scale)}.${padded.slice(-scale)}`;
  return text.replace(/0+$/, '').replace(/\.$/, '');
}

/** `revenues.csv`'s own columns (design §5), without the optional filed-figure ones. */
const REVENUE_COLUMNS = ['company_id', 'document_id', 'reporting_period', 'value', 'currency'];

/**
 * Writes a synthetic bundle of any size into `dir` (design §5): every spec currency (given at least
 * as many companies as currencies), the FX rates of every currency-year it uses, valid ISINs and
 * LEIs, secondary listings and ADRs, pending/processed/failed documents, restatements, figures
 * in sub-units (ZAC, ILA). The same options always give the same bytes. Rows are written as they
 * are made, so memory does not grow with the bundle; it is there to measure imports at scale.
 */
export async function writeSyntheticBundle(dir: string, options: SyntheticOptions): Promise<SyntheticSummary> {
  mkdirSync(dir, { recursive: true });
  const open = (file: BundleFile | 'revenues.csv') =>
    new CsvWriter(join(dir, file), file === 'revenues.csv' ? REVENUE_COLUMNS : BUNDLE_FILES[file]);
  const summary: SyntheticSummary = { fx_rates: 0, companies: 0, listings: 0, documents: 0, revenues: 0 };

  const fx = open('fx_rates.csv');
  for (const currency of RATE_CURRENCIES) {
    for (let year = FIRST_YEAR - 1; year <= TOP_YEAR; year++) {
      await fx.row([currency, year, decimal6(usdPerUnit(currency, year)), 'Synthetic annual average (generate-bundle)']);
      summary.fx_rates++;
    }
  }
  await fx.close();

  const companies = open('companies.csv');
  const listings = open('listings.csv');
  const documents = open('documents.csv');
  const revenues = open('revenues.csv');
  let isinSerial = 0;
  const seed = options.seed >>> 0;
  for (let i = 0; i < options.companies; i++) {
    const rng = random(mix32(seed ^ mix32(i + 1)));
    const pick = <T>(list: readonly T[]): T => list[Math.floor(rng() * list.length)] as T;
    // The first companies take one profile each, so every currency appears; then USD is the most common.
    const profile: MarketProfile = i < PROFILES.length ? (PROFILES[i] as MarketProfile) : rng() < 0.3 ? usd() : pick(PROFILES);
    const companyId = syntheticUuid(seed, KIND.company, i);
    const ticker = letters(i);
    const isin = () => withIsinCheckDigit(`${profile.isinPrefix}${serial(mix32(isinSerial++), 9)}`);
    const name = `${pick(NAME_WORDS)}${rng() < 0.4 ? ` ${pick(NAME_WORDS)}` : ''} ${pick(NAME_TRADES)} ${pick(NAME_SUFFIXES)}`;
    await companies.row([
      companyId,
      name,
      rng() < 0.03 ? null : profile.country,
      rng() < 0.7 ? withLeiCheckDigits(`529900${serial(mix32(i), 12)}`) : null,
      ticker,
      profile.mic,
      rng() < 0.9 ? isin() : null,
    ]);
    summary.companies++;

    if (rng() < 0.15) {
      const mic = pick(SECONDARY_MICS.filter((m) => m !== profile.mic));
      await listings.row([companyId, ticker, mic, rng() < 0.3 ? isin() : null]);
      summary.listings++;
    }
    if (profile.currency !== 'USD' && rng() < 0.05) {
      await listings.row([companyId, `${ticker}Y`, ADR_MIC, withIsinCheckDigit(`US${serial(mix32(isinSerial++), 9)}`)]);
      summary.listings++;
    }

    const currency = profile.currency !== 'USD' && rng() < 0.1 ? 'USD' : profile.currency;
    const scale = Math.exp(Math.log(1e6) + rng() * (Math.log(2e11) - Math.log(1e6)));
    const value = (year: number) => {
      const basis = rateCurrency(currency);
      const rate = currency === 'USD' ? 1 : usdPerUnit(basis.currency, year) / Number(basis.divisor);
      const drift = 1 + 0.05 * Math.sin(year + i);
      return Math.min(MAX_ORIGINAL, Math.round((scale * drift) / rate));
    };
    const top = rng() < 0.3 ? TOP_YEAR : TOP_YEAR - 1;
    let remaining =
      Math.floor(((i + 1) * options.points) / options.companies) - Math.floor((i * options.points) / options.companies);
    // A company without figures still gets a report now and then: the API's 204.
    let k = 0;
    while (remaining > 0 || (k === 0 && rng() < 0.3)) {
      const year = top - (k % YEAR_SPAN);
      const documentId = syntheticUuid(seed, KIND.document, summary.documents);
      const roll = rng();
      const status = roll < 0.85 ? 'processed' : roll < 0.95 ? 'pending' : 'failed';
      const published = `${year + 1 + Math.floor(k / YEAR_SPAN)}-0${2 + Math.floor(rng() * 4)}-${String(1 + Math.floor(rng() * 28)).padStart(2, '0')}`;
      await documents.row([
        documentId,
        companyId,
        `${name} Annual Report ${year}`,
        `https://reports.example.org/${ticker.toLowerCase()}/${documentId}.pdf`,
        published,
        year,
        status,
      ]);
      summary.documents++;
      k++;
      if (remaining > 0 && rng() < 0.97) {
        await revenues.row([companyId, documentId, year, value(year), currency]);
        summary.revenues++;
        remaining--;
        if (remaining > 0 && rng() < 0.35) {
          await revenues.row([companyId, documentId, year - 1, Math.round(value(year - 1) * 1.01), currency]);
          summary.revenues++;
          remaining--;
        }
      }
    }
  }
  await Promise.all([companies.close(), listings.close(), documents.close(), revenues.close()]);
  return summary;
}

function usd(): MarketProfile {
  return PROFILES[0] as MarketProfile;
}
