import type { IngestCommand } from '../../core/ingest-command.js';

/** What to do before an ESEF ingest can match anything (printed when none matched). */
const CATALOG_HINT =
  'import a bundle of these companies with their LEIs (or `bin/corpdata ingest sec-tickers` for those SEC lists) first, then this ingest again';

/** ESEF's ingest commands (design §14): the index first, then the reports. */
export const esefCommands: readonly IngestCommand[] = [
  {
    name: 'esef-index',
    input: 'pages of filings.xbrl.org /api/filings: files, folders, zips',
    run: async (r) => (await import('./ingest-index.js')).ingestEsefIndex(r.db, r.paths, r.limits, r.progress('pages')),
  },
  {
    name: 'esef',
    input: 'xBRL-JSON reports from filings.xbrl.org: files, folders, zips',
    run: async (r) => {
      const [{ ingestEsef }, { warnIfUnmatched }] = await Promise.all([
        import('./ingest-esef.js'),
        import('../../filings/unmatched-warning.js'),
      ]);
      const summary = await ingestEsef(r.db, r.paths, r.limits, r.specs, r.progress('filers'));
      await warnIfUnmatched(r.db, 'esef', summary, CATALOG_HINT);
      return summary;
    },
  },
];
