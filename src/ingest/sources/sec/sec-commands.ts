import type { IngestLimits } from '../../../config.js';
import { conceptsOfAll } from '../../core/figure-spec.js';
import type { IngestCommand } from '../../core/ingest-command.js';
import type { SecFiler } from './sec-source.js';

/** A reader of SEC filings input: the filers of `paths`, keeping the facts of `concepts` only. */
type ReadFilers = (paths: readonly string[], concepts: ReadonlySet<string>, limits: IngestLimits) => AsyncIterable<SecFiler>;

/**
 * A command that reads SEC input with the reader `loadReader` gives and ingests it through the
 * filings pipeline as `secSource`; the reader is loaded on use, like every command's code.
 */
function filingsCommand(name: string, input: string, loadReader: () => Promise<ReadFilers>): IngestCommand {
  return {
    name,
    input,
    run: async (r) => {
      const [{ ingestFilings }, readFilers, { secSource }, { warnIfUnmatched }] = await Promise.all([
        import('../../filings/ingest-filings.js'),
        loadReader(),
        import('./sec-source.js'),
        import('../../filings/unmatched-warning.js'),
      ]);
      const filers = readFilers(r.paths, conceptsOfAll(r.specs), r.limits);
      const summary = await ingestFilings(r.db, r.paths.join(' '), secSource, r.specs, filers, {
        onProgress: r.progress('filers'),
      });
      warnIfUnmatched(name, summary);
      return summary;
    },
  };
}

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
  filingsCommand(
    'sec-companyfacts',
    'CIK##########.json files, folders, companyfacts.zip',
    async () => (await import('./read-companyfacts.js')).readCompanyFacts,
  ),
  filingsCommand('sec-fsds', 'Financial Statement Data Set zips', async () => (await import('./read-fsds.js')).readDataSets),
  {
    name: 'sec-submissions',
    input: 'CIK##########.json submissions files, folders, zips',
    run: async (r) => (await import('./ingest-submissions.js')).ingestSubmissions(r.db, r.paths, r.limits, r.progress('filers')),
  },
];
