/** The files of an import bundle (DESIGN §5) and their columns, in import order. */
export const BUNDLE_FILES = {
  'fx_rates.csv': ['currency', 'year', 'usd_per_unit', 'source'],
  'companies.csv': ['company_id', 'name', 'country', 'lei', 'ticker', 'mic_code', 'isin'],
  'listings.csv': ['company_id', 'ticker', 'mic_code', 'isin'],
  'documents.csv': ['document_id', 'company_id', 'title', 'source_url', 'published_on', 'reporting_period', 'status'],
  'revenues.csv': ['company_id', 'document_id', 'reporting_period', 'value', 'currency'],
} as const;

export type BundleFile = keyof typeof BUNDLE_FILES;

/**
 * Columns a file may carry after its own (DESIGN §5, §10.8): a company's SEC CIK, a filing's form,
 * accession number and main document (`ingest sec-submissions`), a document's kind (`financial`,
 * the default, or `sustainability`), a filed figure's concept and period, the other revenue
 * concepts its filing tagged (`candidates`) and the later documents that repeated it rounded
 * (`confirmed_by`), and what its source shows on its trace page (`source_detail`: a JSON list of
 * labelled fields, an ESEF figure's LEI, fxo_id, fact id…). Bundles written before lack them and
 * still import; export always writes them.
 */
export const OPTIONAL_COLUMNS: Readonly<Record<BundleFile, readonly string[]>> = {
  'fx_rates.csv': [],
  'companies.csv': ['cik'],
  'listings.csv': [],
  'documents.csv': ['form', 'accession', 'kind', 'main_document_url'],
  'revenues.csv': ['concept', 'period_start', 'period_end', 'candidates', 'confirmed_by', 'source_detail'],
};

/** Every column export writes for a file: its own, then the optional ones. */
export const allColumns = (file: BundleFile): readonly string[] => [...BUNDLE_FILES[file], ...OPTIONAL_COLUMNS[file]];
export const BUNDLE_FILE_NAMES = Object.keys(BUNDLE_FILES) as BundleFile[];

export { formatIssue, ImportError, type ImportIssue } from '../core/issues.js';
