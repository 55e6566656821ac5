import { isValidLei } from '../../../catalog/identifiers.js';
import { ImportError } from '../../core/issues.js';
import { JsonReader } from '../../core/json-reader.js';

/** Where filings.xbrl.org serves its files; the index writes their URLs relative to it. */
export const FILINGS_XBRL_ORG = 'https://filings.xbrl.org';

/** One report as filings.xbrl.org's `/api/filings` index describes it (design §14.5). */
export interface EsefIndexEntry {
  /** filings.xbrl.org's identity of the report: LEI, period end, `ESEF`, country, sequence. */
  fxoId: string;
  /** The index's own id of the filing (JSON:API `id`). */
  filingId: string | null;
  /** ISO 3166 country the report was filed in (`ES`, `GB`). */
  country: string | null;
  /** The filer's LEI: the included entity's, else its entity link's or the fxo_id's when one is an LEI. */
  lei: string | null;
  /** The filer's name, when the page includes its entity (`include=entity`). */
  entityName: string | null;
  /** Last day of the reported fiscal year. */
  periodEnd: string;
  /** When filings.xbrl.org added the report (ISO 8601, UTC): the document's published_on. */
  dateAdded: string | null;
  /** When filings.xbrl.org last processed it (ISO 8601, UTC). */
  processed: string | null;
  /** Absolute URLs; null where the index gives none (a report that failed to convert has no JSON). */
  reportUrl: string | null;
  viewerUrl: string | null;
  jsonUrl: string | null;
  packageUrl: string | null;
}

/** A page of the index: its reports, and the next page to fetch (JSON:API `links.next`). */
export interface EsefIndexPage {
  source: string;
  entries: EsefIndexEntry[];
  next: string | null;
  /** Reports the whole query matches (`meta.count`), when the page says. */
  count: number | null;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const DATE_RE = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;
const TIMESTAMP_RE = /^([0-9]{4}-[0-9]{2}-[0-9]{2})[ T]([0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]{1,9})?)(Z|[+-]00:?00)?$/;
const FXO_ID_RE = /^(.+)-([0-9]{4}-[0-9]{2}-[0-9]{2})-([A-Za-z0-9]+)-([A-Z]{2})-([0-9]+)$/;
const isDate = (v: string): boolean => DATE_RE.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`));

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

/**
 * Reads one page of filings.xbrl.org's `/api/filings` index, with or without `include=entity`,
 * streamed (a page of any size holds its entries only). An error response (`{"errors": […]}`) or
 * anything that is not a page of filings is refused with an {@link ImportError} naming the file
 * (and the filing at fault).
 */
export async function readEsefIndexPage(chunks: AsyncIterable<Buffer>, source: string): Promise<EsefIndexPage> {
  const refuse = (message: string): never => {
    throw new ImportError([{ file: source, line: 0, message }]);
  };
  const reader = new JsonReader(chunks, source);
  try {
    if ((await reader.peek()) !== 0x7b) {
      await reader.skip();
      refuse('is not a page of the filings index (not a JSON object)');
    }
    let data: unknown[] | undefined;
    const entities = new Map<string, Json>();
    let links: unknown;
    let meta: unknown;
    let errors: unknown;
    for await (const key of reader.entries()) {
      if (key === 'data') {
        if ((await reader.peek()) === 0x5b) {
          data = [];
          for await (const _ of reader.items()) data.push(await reader.value());
        } else data = [await reader.value()];
      } else if (key === 'included' && (await reader.peek()) === 0x5b) {
        for await (const _ of reader.items()) {
          const item = await reader.value();
          if (isObject(item) && item.type === 'entity' && typeof item.id === 'string' && isObject(item.attributes)) {
            entities.set(item.id, item.attributes);
          }
        }
      } else if (key === 'links') links = await reader.value();
      else if (key === 'meta') meta = await reader.value();
      else if (key === 'errors') errors = await reader.value();
      else await reader.skip();
    }
    await reader.end();
    if (errors !== undefined) return refuse(`is an error response of the filings index: ${errorText(errors)}`);
    if (data === undefined) return refuse('is not a page of the filings index (no data)');
    const self = isObject(links) && typeof links.self === 'string' ? links.self : undefined;
    const base = originOf(self) ?? FILINGS_XBRL_ORG;
    const entries = data.map((item, i) => entryOf(item, i, entities, base, refuse));
    const next = isObject(links) && typeof links.next === 'string' && links.next !== '' ? links.next : null;
    const count = isObject(meta) && typeof meta.count === 'number' && Number.isSafeInteger(meta.count) ? meta.count : null;
    return { source, entries, next, count };
  } finally {
    await reader.close();
  }
}

/** `status title: detail` of each JSON:API error object. */
function errorText(errors: unknown): string {
  if (!Array.isArray(errors) || errors.length === 0) return shown(errors);
  return errors
    .map((e) =>
      isObject(e)
        ? [e.status, e.title, e.detail]
            .filter((p) => typeof p === 'string' && p !== '')
            .join(' ')
            .slice(0, 200)
        : shown(e),
    )
    .join('; ');
}

function originOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.origin : undefined;
  } catch {
    return undefined;
  }
}

/** One `filing` resource of the page, checked; `i` (0-based) names it until its fxo_id is known. */
function entryOf(
  item: unknown,
  i: number,
  entities: ReadonlyMap<string, Json>,
  base: string,
  refuse: (message: string) => never,
): EsefIndexEntry {
  let at = `filing ${i + 1}`;
  if (!isObject(item) || item.type !== 'filing') return refuse(`${at} is not a filing resource`);
  const a = item.attributes;
  if (!isObject(a)) return refuse(`${at} has no attributes`);
  if (typeof a.fxo_id !== 'string' || a.fxo_id === '') return refuse(`${at} has no fxo_id`);
  const fxoId = a.fxo_id;
  at = `filing ${i + 1} (${fxoId})`;
  if (typeof a.period_end !== 'string' || !isDate(a.period_end)) {
    return refuse(`${at}: period_end ${shown(a.period_end)} is not a date`);
  }
  const fxo = FXO_ID_RE.exec(fxoId);
  const country = typeof a.country === 'string' && /^[A-Z]{2}$/.test(a.country) ? a.country : (fxo?.[4] ?? null);
  const relationship = isObject(item.relationships) && isObject(item.relationships.entity) ? item.relationships.entity : {};
  const entityId = isObject(relationship.data) && typeof relationship.data.id === 'string' ? relationship.data.id : undefined;
  const entity = entityId === undefined ? undefined : entities.get(entityId);
  const related =
    isObject(relationship.links) && typeof relationship.links.related === 'string' ? relationship.links.related : '';
  const leiCandidates = [entity?.identifier, related.slice(related.lastIndexOf('/') + 1), fxo?.[1]];
  const lei = leiCandidates.find((c): c is string => typeof c === 'string' && isValidLei(c)) ?? null;
  const name = typeof entity?.name === 'string' && entity.name.trim() !== '' ? entity.name.trim() : null;
  return {
    fxoId,
    filingId: typeof item.id === 'string' ? item.id : null,
    country,
    lei,
    entityName: name,
    periodEnd: a.period_end,
    dateAdded: timestamp(a.date_added, `${at}: date_added`, refuse),
    processed: timestamp(a.processed, `${at}: processed`, refuse),
    reportUrl: url(a.report_url, base, `${at}: report_url`, refuse),
    viewerUrl: url(a.viewer_url, base, `${at}: viewer_url`, refuse),
    jsonUrl: url(a.json_url, base, `${at}: json_url`, refuse),
    packageUrl: url(a.package_url, base, `${at}: package_url`, refuse),
  };
}

/** `2025-05-08 11:23:39.272805` (as the index writes it) → `2025-05-08T11:23:39.272805Z`. */
function timestamp(value: unknown, at: string, refuse: (message: string) => never): string | null {
  if (value === undefined || value === null) return null;
  const m = typeof value === 'string' ? TIMESTAMP_RE.exec(value) : null;
  if (m === null || !isDate(m[1] as string)) return refuse(`${at} ${shown(value)} is not a timestamp`);
  return `${m[1]}T${m[2]}Z`;
}

/** A path of filings.xbrl.org made absolute against the index's host; absolute http(s) URLs as they are. */
function url(value: unknown, base: string, at: string, refuse: (message: string) => never): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') {
    try {
      const u = new URL(value, `${base}/`);
      if (u.protocol === 'https:' || u.protocol === 'http:') return u.href;
    } catch {
      // refused below
    }
  }
  return refuse(`${at} ${shown(value)} is not a URL`);
}
