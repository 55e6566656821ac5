import { conceptsOfAll } from '../../core/figure-spec.js';
import type { IngestCommand } from '../../core/ingest-command.js';

/**
 * SEC's ingest commands (design §10): tickers, companyfacts, the financial statement data sets
 * (both through the filings pipeline as `secSource`) and submissions.
 */
export const secCommands: readonly IngestCommand[] = [
  {
    name: 'sec-tickers',
    input: 'FILE: company_tickers_exchange.json or company_tickers.json',
    run: async (r) => {
      if (r.paths.length !== 1) throw new Error('ingest sec-tickers takes exactly one FILE');
      return (await import('./ingest-tickers.js')).ingestTickers(r.db, r.paths[0] as string, r.limits);
    },
  },
  {
    name: 'sec-companyfacts',
    input: 'CIK##########.json files, folders, companyfacts.zip',
    run: async (r) => {
      const [{ ingestFilings }, { readCompanyFacts }, { secSource }, { warnIfUnmatched, CATALOG_HINT }] = await Promise.all([
        import('../../filings/ingest-filings.js'),
        import('./read-companyfacts.js'),
        import('./sec-source.js'),
        import('../../filings/unmatched-warning.js'),
      ]);
      const filers = readCompanyFacts(r.paths, conceptsOfAll(r.specs), r.limits);
      const summary = await ingestFilings(r.db, r.paths.join(' '), secSource, r.specs, filers, {
        onProgress: r.progress('filers'),
      });
      await warnIfUnmatched(r.db, 'sec-companyfacts', summary, CATALOG_HINT.sec);
      return summary;
    },
  },
  {
    name: 'sec-fsds',
    input: 'Financial Statement Data Set zips',
    run: async (r) => {
      const [{ ingestFilings }, { readDataSets }, { secSource }, { warnIfUnmatched, CATALOG_HINT }] = await Promise.all([
        import('../../filings/ingest-filings.js'),
        import('./read-fsds.js'),
        import('./sec-source.js'),
        import('../../filings/unmatched-warning.js'),
      ]);
      const filers = readDataSets(r.paths, conceptsOfAll(r.specs), r.limits);
      const summary = await ingestFilings(r.db, r.paths.join(' '), secSource, r.specs, filers, {
        onProgress: r.progress('filers'),
      });
      await warnIfUnmatched(r.db, 'sec-fsds', summary, CATALOG_HINT.sec);
      return summary;
    },
  },
  {
    name: 'sec-submissions',
    input: 'CIK##########.json submissions files, folders, zips',
    run: async (r) => (await import('./ingest-submissions.js')).ingestSubmissions(r.db, r.paths, r.limits, r.progress('filers')),
  },
];
