/**
 * The core files of an import bundle (design §5) and their columns, in import order: the catalog
 * and the FX rates. Each dataset's figures come in its own file after them (`revenues.csv`,
 * `net_income.csv`…: `DatasetBundle`).
 */
export const BUNDLE_FILES = {
  'fx_rates.csv': ['currency', 'year', 'usd_per_unit', 'source'],
  'companies.csv': ['company_id', 'name', 'country', 'lei', 'ticker', 'mic_code', 'isin'],
  'listings.csv': ['company_id', 'ticker', 'mic_code', 'isin'],
  'documents.csv': ['document_id', 'company_id', 'title', 'source_url', 'published_on', 'reporting_period', 'status'],
} as const;

export type BundleFile = keyof typeof BUNDLE_FILES;

/**
 * Columns a file may carry after its own (design §5, §10.8, §19.4): a company's SEC CIK and the
 * other CIKs it files under (space-separated: a predecessor's, a merged company's), a filing's form,
 * accession number and main document (`ingest sec-submissions`), a document's kind (`financial`,
 * the default, or `sustainability`), and its source and that source's key (design §15). Bundles written before lack them and still import; export
 * always writes them.
 */
export const OPTIONAL_COLUMNS: Readonly<Record<BundleFile, readonly string[]>> = {
  'fx_rates.csv': [],
  'companies.csv': ['cik', 'other_ciks'],
  'listings.csv': [],
  'documents.csv': ['form', 'accession', 'kind', 'main_document_url', 'source', 'source_key'],
};

/** Every column export writes for a file: its own, then the optional ones. */
export const allColumns = (file: BundleFile): readonly string[] => [...BUNDLE_FILES[file], ...OPTIONAL_COLUMNS[file]];
export const BUNDLE_FILE_NAMES = Object.keys(BUNDLE_FILES) as BundleFile[];

export { formatIssue, ImportError, type ImportIssue } from '../../core/issues.js';
