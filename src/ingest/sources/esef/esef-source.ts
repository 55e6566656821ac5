import { countryName } from '../../../catalog/country-names.js';
import { perShareUnit } from '../../../money/per-share.js';
import { stableId } from '../../core/stable-id.js';
import type { FiledFact, Filer, FilingSource, SourceTraceField } from '../../filings/source.js';
import type { EsefFiler, EsefFiling } from './esef-filers.js';

/** Every ESEF report is one form: an annual financial report (design §14). */
export const ESEF_FORM = 'ESEF';

/** The catalog's name of an ISO 3166 country code (kept here too: the ESEF sync and its tests name it so). */
export { countryName };

/**
 * A report's fact as the shared pipeline takes it: the report's key stands for SEC's accession;
 * what its trace page shows beyond the shared fields (design §14.7) goes with it.
 */
function filedFact(filer: EsefFiler, filing: EsefFiling, fact: EsefFiling['facts'][number]): FiledFact {
  const trace: SourceTraceField[] = [];
  const add = (label: string, value: string | null, kind?: SourceTraceField['kind']) => {
    if (value !== null) trace.push(kind === undefined ? { label, value } : { label, value, kind });
  };
  add('LEI', filer.lei, 'code');
  add('fxo_id', filing.fxoId ?? `none: not in the index (report ${filing.key})`, filing.fxoId === null ? undefined : 'code');
  add('Fact id', fact.id, 'code');
  add('Unit', fact.perShare ? `iso4217:${fact.currency}/xbrli:shares` : `iso4217:${fact.currency}`, 'code');
  add('Decimals', fact.decimals === null ? 'not given' : `${fact.decimals} (precision as tagged, not a scale)`);
  add('Report', filing.reportUrl, 'link');
  add('Viewer', filing.viewerUrl, 'link');
  add('xBRL-JSON', filing.jsonUrl, 'link');
  return {
    concept: fact.concept,
    start: fact.start,
    end: fact.end,
    ...(fact.instant ? { instant: true as const } : {}),
    value: fact.value,
    unit: fact.perShare ? perShareUnit(fact.currency) : fact.currency,
    accession: filing.key,
    form: ESEF_FORM,
    filed: filing.publishedOn ?? '',
    trace,
  };
}

/**
 * An ESEF filer as the seam's {@link Filer}: matched by LEI, else by name and country (design
 * §14.1); the facts of all its reports, those the index does not date included (their documents'
 * date is unknown: design §14.5).
 */
export function esefFiler(filer: EsefFiler): Filer {
  const country = filer.country === null ? undefined : countryName(filer.country);
  return {
    ...(filer.lei === null ? {} : { lei: filer.lei }),
    name: filer.name ?? '',
    ...(country === undefined ? {} : { country }),
    facts: filer.filings.flatMap((filing) => filing.facts.map((fact) => filedFact(filer, filing, fact))),
    source: filer.source,
  };
}

/** The period a report covers, for its title: the fiscal year's end. */
const periodText = (filing: EsefFiling): string =>
  filing.periodEnd === null ? 'annual report' : `annual report for the year ending ${filing.periodEnd}`;

/**
 * ESEF reports as a source (design §14.5, §15): a document per report key (the index's `fxo_id`,
 * else LEI, period end and language), titled by company and period, linked to the report's
 * viewer page on filings.xbrl.org where the index lists it, else its JSON, else the filer's
 * page there; a report the index does not list is published on an unknown date (''), which the
 * answers show as unknown. `filers` are those the reader gave: the pipeline asks for a report by
 * its key.
 */
export function esefSource(filers: readonly EsefFiler[]): FilingSource {
  const filings = new Map<string, EsefFiling>();
  for (const filer of filers) for (const filing of filer.filings) filings.set(filing.key, filing);
  return {
    name: 'esef',
    isAnnualForm: (form) => form === ESEF_FORM,
    document: (filer: Filer, fact: FiledFact) => {
      const filing = filings.get(fact.accession);
      const entityPage = filer.lei === undefined ? '' : `https://filings.xbrl.org/entity/${filer.lei}`;
      return {
        documentId: esefDocumentId(fact.accession),
        title: `${filer.name}: ESEF ${filing === undefined ? 'annual report' : periodText(filing)} (${filing?.fxoId ?? fact.accession})`,
        sourceUrl: filing?.viewerUrl ?? filing?.jsonUrl ?? entityPage,
        form: null,
        accession: null,
      };
    },
  };
}

/**
 * A report's document id: stable across runs and databases (a name-based UUID of `esef:{key}`),
 * so the same report ingested twice is one document.
 */
export function esefDocumentId(key: string): string {
  return stableId(`esef:${key}`);
}
