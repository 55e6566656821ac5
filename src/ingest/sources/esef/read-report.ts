import { isValidLei } from '../../../catalog/identifiers.js';
import { PER_SHARE_PLACES } from '../../../money/per-share.js';
import { ImportError } from '../../core/issues.js';
import { reportingPeriodOf } from '../../filings/periods.js';
import { type EsefFact, type EsefReport, type EsefSkips, noSkips } from './esef-report.js';
import { type Decimals, morePrecise, wholeUnits } from './exact-value.js';
import { FactScanner } from './fact-scanner.js';
import { type OimPeriod, parseOimPeriod } from './oim-period.js';

/**
 * The largest fact read whole: far above any real text block (a note with its tables), so that
 * one hostile value cannot take much memory while every real one is read.
 */
export const MAX_FACT_BYTES = 64 * 1024 * 1024;

/** ISO 17442: the scheme of an entity identified by its LEI. */
const LEI_SCHEME = 'http://standards.iso.org/iso/17442';
const ISO4217 = 'http://www.xbrl.org/2003/iso4217';
const XBRLI = 'http://www.xbrl.org/2003/instance';
/** Every year's IFRS taxonomy (`https://xbrl.ifrs.org/taxonomy/2022-03-24/ifrs-full`) is ifrs-full. */
const IFRS_FULL_RE = /^https?:\/\/xbrl\.ifrs\.org\/taxonomy\/[^/]+\/ifrs-full$/;
const DOCUMENT_TYPE_RE = /^https?:\/\/xbrl\.org\/(?:[A-Za-z]+\/)?[0-9-]+\/xbrl-json$/;
const NAME_CONCEPT = 'NameOfReportingEntityOrOtherMeansOfIdentification';
/** The core dimensions a fact of an entity's own total has; any other is an axis. */
const PLAIN_DIMENSIONS = new Set(['concept', 'entity', 'period', 'unit']);
const CURRENCY_RE = /^[A-Z]{3}$/;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A value from the file as a refusal shows it: short, so that a message stays one readable line. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** A fact of a concept that may be asked for, kept until the namespaces are known. */
interface Candidate {
  id: string;
  concept: string;
  dimensions: Json;
  value: unknown;
  decimals: unknown;
}

/**
 * The refusal of a file that is no xBRL-JSON report at all (an index page, a stray JSON file), as
 * opposed to a report that cannot be read: `ingest esef` passes over the first and counts it.
 */
export class NotAReportError extends ImportError {}

/**
 * Reads one xBRL-JSON report (OIM, as filings.xbrl.org serves it) from a stream, never whole:
 * each fact is parsed alone ({@link FactScanner}) and let go unless its concept is one of
 * `concepts` (`ifrs-full:Revenue`, …); memory holds those facts only, whatever the report's size.
 * A file that is not an xBRL-JSON report ({@link NotAReportError}), or a fact that cannot be read,
 * stops the read with an {@link ImportError} naming the file and the fact.
 */
export async function readEsefReport(
  chunks: AsyncIterable<Buffer>,
  source: string,
  name: string,
  concepts: readonly string[],
): Promise<EsefReport> {
  const refuse = (message: string): never => {
    throw new ImportError([{ file: source, line: 0, message }]);
  };
  const notReport = (why: string): never => {
    throw new NotAReportError([{ file: source, line: 0, message: `is not an xBRL-JSON report (${why})` }]);
  };
  const wanted = new Set(concepts);
  // Concepts are matched on their local name while reading (the prefix a report binds is known
  // only from its documentInfo, which may come after the facts), and on the whole name after.
  const localNames = new Set([...wanted, `ifrs-full:${NAME_CONCEPT}`].map((c) => c.slice(c.indexOf(':') + 1)));
  let documentInfo: unknown;
  let sawFacts = false;
  const candidates: Candidate[] = [];
  const periods = new Map<string, OimPeriod | undefined>();
  const languages = new Map<string, number>();
  let entity: string | null = null;
  let latestEnd: string | null = null;
  let factsRead = 0;
  const fact = (id: string, raw: unknown): void => {
    factsRead++;
    if (!isObject(raw)) return void refuse(`fact ${id} is not an object`);
    const fact = raw;
    const dimensions = fact.dimensions;
    if (!isObject(dimensions)) return void refuse(`fact ${id} has no dimensions`);
    const concept = dimensions.concept;
    if (typeof concept !== 'string' || concept === '') return void refuse(`fact ${id} has no concept`);
    const factEntity = dimensions.entity;
    if (entity === null && typeof factEntity === 'string') entity = factEntity;
    const language = dimensions.language;
    if (typeof language === 'string') languages.set(language, (languages.get(language) ?? 0) + 1);
    const period = dimensions.period;
    if (typeof period === 'string') {
      let parsed = periods.get(period);
      if (parsed === undefined && !periods.has(period)) {
        parsed = parseOimPeriod(period);
        periods.set(period, parsed);
      }
      if (
        parsed?.kind === 'duration' &&
        parsed.annual &&
        factEntity === entity &&
        (latestEnd === null || parsed.end > latestEnd)
      ) {
        latestEnd = parsed.end;
      }
    }
    if (localNames.has(concept.slice(concept.indexOf(':') + 1))) {
      candidates.push({ id, concept, dimensions, value: fact.value, decimals: fact.decimals });
    }
  };
  const scanner = new FactScanner(
    source,
    {
      member: (key, value) => {
        if (key === 'documentInfo') documentInfo = value;
      },
      factsStart: (isObject) => {
        if (!isObject) notReport('facts is not an object');
        sawFacts = true;
      },
      fact,
    },
    MAX_FACT_BYTES,
  );
  let first = true;
  for await (const chunk of chunks) {
    // Whatever else a file is (a page of an index, an array), it is named for what it is not.
    if (first && chunk.length > 0) {
      const c = chunk.find((b) => b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09);
      if (c !== undefined) {
        if (c !== 0x7b) notReport('not a JSON object');
        first = false;
      }
    }
    scanner.push(chunk);
  }
  scanner.end();
  if (!isObject(documentInfo)) return notReport('no documentInfo');
  const documentType = documentInfo.documentType;
  if (typeof documentType !== 'string' || !DOCUMENT_TYPE_RE.test(documentType)) {
    return notReport(`documentType ${shown(documentType ?? null)}`);
  }
  if (!sawFacts) return notReport('no facts');
  const namespaces = isObject(documentInfo.namespaces) ? documentInfo.namespaces : {};
  const taxonomy = Array.isArray(documentInfo.taxonomy) ? documentInfo.taxonomy.filter((t) => typeof t === 'string') : [];
  const ns = new Namespaces(namespaces);
  const skipped = noSkips();
  const kept = new Map<string, Kept>();
  let entityName: string | null = null;
  for (const c of candidates) {
    const concept = ns.concept(c.concept);
    if (concept === `ifrs-full:${NAME_CONCEPT}`) {
      if (entityName === null && typeof c.value === 'string' && c.value.trim() !== '') entityName = c.value.trim().slice(0, 500);
      continue;
    }
    if (!wanted.has(concept)) continue;
    const fact = factOf(c, concept, entity, ns, skipped, refuse);
    if (fact !== undefined) keep(kept, fact, skipped);
  }
  const facts: EsefFact[] = [];
  for (const k of kept.values()) {
    if (k.inconsistent) skipped.inconsistent_duplicates += k.count;
    else facts.push(k.fact);
  }
  return {
    source,
    name,
    entity,
    lei: entity === null ? null : ns.lei(entity),
    entityName,
    documentType,
    taxonomy,
    language: mostFrequent(languages),
    periodEnd: latestEnd,
    factsRead,
    facts,
    skipped,
  };
}

/** The report's prefixes, resolved through its documentInfo.namespaces. */
class Namespaces {
  constructor(readonly map: Json) {}

  #uri(prefix: string): string | undefined {
    const uri = this.map[prefix];
    return typeof uri === 'string' ? uri : undefined;
  }

  /** A concept under the prefix it is asked for by: ifrs-full, whatever the report calls it. */
  concept(qname: string): string {
    const colon = qname.indexOf(':');
    const uri = this.#uri(qname.slice(0, colon));
    return uri !== undefined && IFRS_FULL_RE.test(uri) ? `ifrs-full:${qname.slice(colon + 1)}` : qname;
  }

  /** The LEI of `scheme:<LEI>` / `lei:<LEI>` when the prefix is ISO 17442's (or undeclared and so named). */
  lei(entity: string): string | null {
    const colon = entity.indexOf(':');
    const prefix = entity.slice(0, colon);
    const uri = this.#uri(prefix);
    const isLei = uri === undefined ? prefix === 'lei' || prefix === 'scheme' : uri === LEI_SCHEME;
    const id = entity.slice(colon + 1);
    return colon > 0 && isLei && isValidLei(id) ? id : null;
  }

  /** The ISO 4217 code of a unit such as `iso4217:EUR`; undefined for any other unit. */
  currency(unit: string): string | undefined {
    const colon = unit.indexOf(':');
    const prefix = unit.slice(0, colon);
    const uri = this.#uri(prefix);
    const code = unit.slice(colon + 1);
    const iso = uri === undefined ? prefix === 'iso4217' : uri === ISO4217;
    return colon > 0 && iso && CURRENCY_RE.test(code) ? code : undefined;
  }

  /** The currency of a per-share unit such as `iso4217:EUR/xbrli:shares`; undefined for any other unit. */
  perShareCurrency(unit: string): string | undefined {
    const slash = unit.indexOf('/');
    if (slash < 0) return undefined;
    const shares = unit.slice(slash + 1);
    const colon = shares.indexOf(':');
    const prefix = shares.slice(0, colon);
    const uri = this.#uri(prefix);
    const isShares =
      colon > 0 && shares.slice(colon + 1) === 'shares' && (uri === undefined ? prefix === 'xbrli' : uri === XBRLI);
    return isShares ? this.currency(unit.slice(0, slash)) : undefined;
  }
}

function mostFrequent(counts: Map<string, number>): string | null {
  let best: string | null = null;
  let most = 0;
  for (const [value, n] of counts) {
    if (n > most) {
      best = value;
      most = n;
    }
  }
  return best;
}

/** A candidate checked and read into a fact, or undefined (counted) when it is not an annual total. */
function factOf(
  c: Candidate,
  concept: string,
  entity: string | null,
  ns: Namespaces,
  skipped: EsefSkips,
  refuse: (message: string) => never,
): EsefFact | undefined {
  const at = `fact ${c.id} (${concept})`;
  const d = c.dimensions;
  if (typeof d.entity !== 'string') return refuse(`${at} has no entity`);
  if (typeof d.period !== 'string') return refuse(`${at} has no period`);
  const period = parseOimPeriod(d.period);
  if (period === undefined) return refuse(`${at}: period ${shown(d.period)} is not an OIM period`);
  if (d.unit !== undefined && typeof d.unit !== 'string') return refuse(`${at}: unit ${shown(d.unit)} is not a unit`);
  const decimals = decimalsOf(c.decimals, at, refuse);
  if (c.value !== null && typeof c.value !== 'string') {
    return refuse(`${at}: value ${shown(c.value)} is not a string (xBRL-JSON writes values as strings)`);
  }
  if (Object.keys(d).some((k) => !PLAIN_DIMENSIONS.has(k))) skipped.dimensional++;
  else if (d.entity !== entity) skipped.other_entity++;
  else if (period.kind === 'duration' && !period.annual) skipped.not_annual++;
  else if (c.value === null) skipped.nil++;
  else {
    // A per-share value (EPS) is carried in millionths of its currency (PER_SHARE_SCALE).
    const perShare = d.unit === undefined ? undefined : ns.perShareCurrency(d.unit);
    const currency = perShare ?? (d.unit === undefined ? undefined : ns.currency(d.unit));
    if (currency === undefined) {
      skipped.not_currency++;
      return undefined;
    }
    const exact = wholeUnits(c.value, perShare === undefined ? 0 : PER_SHARE_PLACES);
    if (exact === undefined) return refuse(`${at}: value ${shown(c.value)} is not a decimal number`);
    if (exact > BigInt(Number.MAX_SAFE_INTEGER) || exact < BigInt(Number.MIN_SAFE_INTEGER)) {
      skipped.value_too_large++;
      return undefined;
    }
    return {
      id: c.id,
      duplicates: [],
      concept,
      // An instant is a balance at its date (design §18.1): its period is that one day.
      ...(period.kind === 'instant'
        ? { start: period.date, end: period.date, reportingPeriod: reportingPeriodOf(period.date), instant: true }
        : { start: period.start, end: period.end, reportingPeriod: period.reportingPeriod, instant: false }),
      value: Number(exact),
      text: c.value,
      currency,
      perShare: perShare !== undefined,
      decimals,
    };
  }
  return undefined;
}

function decimalsOf(value: unknown, at: string, refuse: (message: string) => never): Decimals | null {
  if (value === undefined || value === null) return null;
  if (value === 'INF') return 'INF';
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  return refuse(`${at}: decimals ${shown(value)} is neither a whole number nor "INF"`);
}

/** A concept-period's fact so far: the most precise of its duplicates, or inconsistent ones. */
interface Kept {
  fact: EsefFact;
  count: number;
  inconsistent: boolean;
}

/**
 * Merges duplicates (design §14.3): facts of one concept and period giving one value, in one
 * currency, are one fact (the most precise kept); otherwise the figure is inconsistent.
 */
function keep(kept: Map<string, Kept>, fact: EsefFact, skipped: EsefSkips): void {
  // A per-share value and an amount of one concept-period are two facts, never duplicates.
  const key = `${fact.concept} ${fact.start} ${fact.end}${fact.perShare ? ' per share' : ''}`;
  const held = kept.get(key);
  if (held === undefined) {
    kept.set(key, { fact, count: 1, inconsistent: false });
    return;
  }
  held.count++;
  if (held.inconsistent) return;
  const a = { value: BigInt(held.fact.value), decimals: held.fact.decimals ?? 'INF' };
  const b = { value: BigInt(fact.value), decimals: fact.decimals ?? 'INF' };
  if (held.fact.currency !== fact.currency || a.value !== b.value) {
    // Every fact of the figure is counted once it is known to be inconsistent, the repeats too.
    skipped.duplicate -= held.count - 2;
    held.inconsistent = true;
    return;
  }
  skipped.duplicate++;
  if (morePrecise(b.decimals, a.decimals)) {
    held.fact = { ...fact, duplicates: [...held.fact.duplicates, held.fact.id] };
  } else held.fact.duplicates.push(fact.id);
}
