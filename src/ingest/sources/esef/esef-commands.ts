import type { IngestCommand } from '../../core/ingest-command.js';

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
      warnIfUnmatched('esef', summary);
      return summary;
    },
  },
];
