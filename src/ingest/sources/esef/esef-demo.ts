import { createReadStream, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_INGEST_LIMITS } from '../../../config.js';
import type { EsefFilingTable } from '../../../db/schema.js';
import { isCurrency } from '../../../money/currencies.js';
import { conceptsOfAll } from '../../core/figure-spec.js';
import {
  type DemoCatalogCompany,
  type DemoFiledDocument,
  type DemoFiledFigure,
  type DemoInput,
  type DemoPart,
  type DemoRows,
  demoFiledFigure,
  figureCurrency,
} from '../../demo/demo-part.js';
import { nameMatchKey } from '../../filings/match-company.js';
import { reportingPeriodOf } from '../../filings/periods.js';
import { type SkipReason, selectFiguresAndConfirmations, selectionRules } from '../../filings/select-figures.js';
import { esefIndexLookup, readEsefFilers } from './esef-filers.js';
import { esefFiler, esefSource } from './esef-source.js';
import { esefFilingRow } from './ingest-index.js';
import { FILINGS_XBRL_ORG, readEsefIndexPage } from './read-index.js';

/** ESEF's part of the demo: the reports beside the reference data (`esef/`), and what the demo says of them. */
export const esefDemo: DemoPart = {
  read: esefFigures,
  describe: ({ documents, figures }) => {
    const points = figures.length;
    const companies = new Set(figures.map((f) => f.companyId)).size;
    const currencies = [...new Set(figures.map((f) => f.currency))].sort();
    return {
      summary: `esef: ${points} data points of ${companies} companies from ${documents.length} ESEF reports (${currencies.join(' ')}, in USD by the yearly rates)`,
      holds: `- of those, ${points} data points of ${companies} European companies read from ${documents.length} ESEF annual reports
  (xBRL-JSON from filings.xbrl.org; ${currencies.join(', ')}, in USD by the yearly rates), each with its IFRS concept and period,
  its document dated when filings.xbrl.org added it and linked to the report's viewer; those companies carry their LEI`,
      credits:
        "| filed European revenue figures | ESEF annual reports as filings.xbrl.org publishes them (xBRL-JSON), kept as test fixtures by GitHub alejandroplazalorenzo/spanish-financials-etl (Endesa, Inditex, Amper, Prosegur, Bankinter, Berkeley Energia, with the author's record of filings.xbrl.org's index) and TextLayer/isw-company-similarity (Kainos, and a GB page of the `/api/filings` index) | the filers' own regulatory filings, published by filings.xbrl.org (XBRL International); spanish-financials-etl MIT, isw-company-similarity no licence stated |",
    };
  },
};

const SPANISH = join('xbrl-json', 'alejandroplazalorenzo_spanish-financials-etl');
const TEXTLAYER = join('xbrl-json', 'TextLayer_isw-company-similarity');
const GB_PAGE = join('filings-api', 'TextLayer_isw-company-similarity', 'gb_filings.json');

/**
 * The index rows of the reports: the Spanish reports' author recorded filings.xbrl.org's listing
 * of each (`filings.json`); Kainos is listed on the GB index page beside them.
 */
async function indexRows(esefDir: string): Promise<EsefFilingTable[]> {
  const url = (path: string | undefined) => (path === undefined ? null : `${FILINGS_XBRL_ORG}${path}`);
  const spanish = JSON.parse(readFileSync(join(esefDir, SPANISH, 'filings.json'), 'utf8')) as Array<Record<string, string>>;
  const rows: EsefFilingTable[] = spanish.map((f) => ({
    fxo_id: f.fxo_id ?? '',
    filing_id: String(f.filing_id),
    country: 'ES',
    lei: f.lei ?? null,
    entity_name: f.entity_name ?? null,
    period_end: f.period_end ?? '',
    date_added: `${f.date_added}Z`,
    processed: null,
    report_url: url(f.report_url),
    viewer_url: url(f.viewer_url),
    json_url: url(f.json_url),
    package_url: url(f.package_url),
  }));
  const page = await readEsefIndexPage(createReadStream(join(esefDir, GB_PAGE)) as AsyncIterable<Buffer>, GB_PAGE);
  return [...rows, ...page.entries.map(esefFilingRow)];
}

/**
 * Every figure of every spec in the ESEF reports beside the reference data (`esef/xbrl-json/`),
 * chosen by the rules `bin/corpdata ingest esef` applies (design §14) through the same source: a
 * report's filer is matched to the one demo company of its normalized name and country (the demo's
 * sources give no LEIs; the LEI is then recorded on it, as ingest does). A filer no demo company
 * lists is reported, not added. `figures` is in the order of `specs`.
 */
async function esefFigures({ dataDir, companies, specs, hasRate, note }: DemoInput): Promise<DemoRows> {
  const esefDir = join(dataDir, 'esef');
  const files = [
    ...readdirSync(join(esefDir, SPANISH))
      .filter((f) => f.endsWith('.json') && f !== 'filings.json')
      .map((f) => join(esefDir, SPANISH, f)),
    ...readdirSync(join(esefDir, TEXTLAYER))
      .filter((f) => f.endsWith('.json'))
      .map((f) => join(esefDir, TEXTLAYER, f)),
  ].sort();
  const filers = await readEsefFilers(
    files,
    DEFAULT_INGEST_LIMITS,
    [...conceptsOfAll(specs)],
    esefIndexLookup(await indexRows(esefDir)),
  );
  const source = esefSource(filers);
  const rules = specs.map((spec) => ({ spec, ...selectionRules(spec, isCurrency, source.isAnnualForm) }));
  const byName = new Map<string, DemoCatalogCompany[]>();
  for (const c of companies) {
    const key = `${nameMatchKey(c.name)}|${c.country ?? ''}`;
    byName.set(key, [...(byName.get(key) ?? []), c]);
  }
  const documents = new Map<string, DemoFiledDocument>();
  const figures: DemoFiledFigure[][] = specs.map(() => []);
  const leis = new Map<string, string>();
  for (const listed of filers) {
    // A bundle's financial document has a date: a report no index page lists stays out of the demo.
    const undated = listed.filings.filter((f) => f.publishedOn === null).reduce((n, f) => n + f.facts.length, 0);
    const esef = { ...listed, filings: listed.filings.filter((f) => f.publishedOn !== null) };
    const filer = esefFiler(esef);
    const what = `esef: ${filer.name} (LEI ${filer.lei ?? 'none'}, ${listed.filings.map((f) => f.key).join(', ')})`;
    if (undated > 0) note(`${what}: ${undated} facts dropped: the index does not date their report`);
    if (filer.facts.length === 0) {
      note(`${what}: no ${specs.map((s) => s.noun).join(' or ')} tagged: no figure`);
      continue;
    }
    const found = byName.get(`${nameMatchKey(filer.name)}|${filer.country ?? ''}`) ?? [];
    const [company, ...more] = found;
    if (company === undefined || more.length > 0) {
      note(
        `${what}: dropped: ${company === undefined ? 'no demo company of that name and country (no listing in the sources)' : 'several demo companies of that name and country'}, ${filer.facts.length} facts`,
      );
      continue;
    }
    if (filer.lei !== undefined) leis.set(company.id, filer.lei);
    const periods = new Map<string, number>();
    for (const f of filer.facts) periods.set(f.accession, Math.max(periods.get(f.accession) ?? 0, reportingPeriodOf(f.end)));
    for (const [i, rule] of rules.entries()) {
      const skip = (reason: SkipReason) => note(`${what}: a ${specs[i]?.noun} fact left out: ${reason}`);
      const { figures: chosen, confirmations } = selectFiguresAndConfirmations(filer.facts, [], rule, skip);
      const confirmedBy = new Map<string, string[]>();
      const addDocument = (fact: (typeof filer.facts)[number]) => {
        const doc = source.document(filer, fact);
        if (!documents.has(doc.documentId)) {
          documents.set(doc.documentId, {
            id: doc.documentId,
            companyId: company.id,
            title: doc.title,
            sourceUrl: doc.sourceUrl,
            publishedOn: fact.filed,
            reportingPeriod: periods.get(fact.accession) ?? reportingPeriodOf(fact.end),
            source: { name: source.name, key: fact.accession },
          });
        }
        return doc.documentId;
      };
      for (const c of confirmations) {
        const key = `${c.accession}|${c.end}`;
        confirmedBy.set(key, [...(confirmedBy.get(key) ?? []), `${addDocument(c.by)}=${c.by.value}`]);
      }
      for (const pick of chosen) {
        const { fact, reportingPeriod } = pick;
        const currency = figureCurrency(fact);
        if (currency !== 'USD' && !hasRate(currency, reportingPeriod)) {
          note(`${what}: ${fact.concept} ending ${fact.end}: dropped: no FX rate for ${currency} ${reportingPeriod}`);
          continue;
        }
        (figures[i] as DemoFiledFigure[]).push(demoFiledFigure(rule.spec, company.id, addDocument(fact), pick, confirmedBy));
      }
    }
  }
  return { documents: [...documents.values()], figures, leis };
}
