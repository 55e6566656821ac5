import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Real ESEF data of test/fixtures/esef (its README names each file's source and licence). */
export const ESEF_FIXTURES = fileURLToPath(new URL('../fixtures/esef/', import.meta.url));
export const SPANISH_REPORTS = join(ESEF_FIXTURES, 'xbrl-json', 'spanish-financials-etl');
export const KAINOS_REPORTS = join(ESEF_FIXTURES, 'xbrl-json', 'isw-company-similarity');
/** A recorded page of the GB index with `include=entity`: Kainos's FY2022 report and four others. */
export const GB_PAGE = join(ESEF_FIXTURES, 'filings-api', 'isw-company-similarity', 'gb_filings.json');
/** Two recorded consecutive pages of the EE index (the first's `links.next` is the second). */
export const EE_PAGES = [0, 1].map((n) =>
  join(ESEF_FIXTURES, 'filings-api', 'xbrl-filings-api', `estonian_2_pages_3_each__${n}.json`),
);
/** filings.xbrl.org's recorded 500 answer (a JSON:API error document). */
export const ERROR_500 = join(ESEF_FIXTURES, 'filings-api', 'xbrl-filings-api', 'bad_page_error__0.json');

/** A report as the author of the Spanish fixtures recorded filings.xbrl.org's index for it. */
export interface ListedReport {
  filing_id: number;
  fxo_id: string;
  lei: string;
  entity_name: string;
  period_end: string;
  date_added: string;
  json_url: string;
  viewer_url: string;
  report_url: string;
  package_url?: string;
  /** The fixture file holding the report (absent for a report made by a test). */
  fixture?: string;
}

/** The Spanish reports as their author recorded filings.xbrl.org's index for them (`metadata/filings.json`). */
export function spanishListing(): ListedReport[] {
  return JSON.parse(readFileSync(join(SPANISH_REPORTS, 'metadata', 'filings.json'), 'utf8')) as ListedReport[];
}

/**
 * An index page (JSON:API, `include=entity`) listing `reports` as filings.xbrl.org's index
 * lists reports of Spain: the shape of the recorded pages, the values of the author's recording.
 */
export function spanishIndexPage(reports: readonly ListedReport[] = spanishListing()): object {
  return {
    data: reports.map((f) => ({
      type: 'filing',
      id: String(f.filing_id),
      attributes: {
        fxo_id: f.fxo_id,
        country: 'ES',
        period_end: f.period_end,
        date_added: f.date_added.replace('T', ' '),
        json_url: f.json_url,
        viewer_url: f.viewer_url,
        report_url: f.report_url,
        ...(f.package_url === undefined ? {} : { package_url: f.package_url }),
      },
      relationships: { entity: { data: { type: 'entity', id: `e-${f.lei}` } } },
    })),
    included: reports.map((f) => ({ type: 'entity', id: `e-${f.lei}`, attributes: { identifier: f.lei, name: f.entity_name } })),
    meta: { count: reports.length },
  };
}
