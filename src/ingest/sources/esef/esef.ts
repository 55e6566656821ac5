import type { Env } from '../../../config.js';
import { parseBaseUrl } from '../../../config.js';
import type { Source } from '../source.js';
import { flag, optionText } from '../source.js';
import { esefCommands } from './esef-commands.js';

/** What `sync esef` reads of the environment (design §15). */
export interface EsefSettings {
  /**
   * Where `sync esef` reads filings.xbrl.org's index and reports from (a mirror, a test server),
   * without a trailing slash; undefined: filings.xbrl.org itself.
   */
  readonly baseUrl: string | undefined;
  /** Who `sync esef` says it is; filings.xbrl.org asks for no contact, so a default names the product. */
  readonly userAgent: string;
}

/** Reads `CORPDATA_ESEF_BASE_URL` and `CORPDATA_ESEF_USER_AGENT`. */
export function esefSettings(env: Env): EsefSettings {
  return Object.freeze({
    baseUrl: parseBaseUrl('CORPDATA_ESEF_BASE_URL', env.CORPDATA_ESEF_BASE_URL),
    userAgent: env.CORPDATA_ESEF_USER_AGENT?.trim() || 'corpdata sync (self-hosted corporate data API)',
  });
}

/**
 * ESEF reports as a source (design §14, §15): filings.xbrl.org's index and its xBRL-JSON reports,
 * and `sync esef` from its API.
 */
export const esef: Source = {
  name: 'esef',
  ingest: esefCommands,
  demo: async () => (await import('./esef-demo.js')).esefDemo,
  sync: {
    description:
      "Sync from filings.xbrl.org: the index per country newest first until reports already seen, then each new report's xBRL-JSON.",
    options: [
      {
        flags: '--country <list>',
        description: 'comma-separated ISO 3166 codes whose index to walk (ES,GB); all countries without it',
      },
      { flags: '--since <date>', description: 'only reports filings.xbrl.org added on or after this date (YYYY-MM-DD)' },
      { flags: '--dry-run', description: 'read the index and say what is new, fetch no report and write nothing' },
      {
        flags: '--refetch',
        description: 'fetch and ingest every report in scope again, whatever the sync state says (after adding FX rates)',
      },
    ],
  },
  configure: (env) => {
    const settings = esefSettings(env);
    return {
      sync: async (options) => {
        const [{ ESEF_REQUESTS_PER_SECOND, parseCountryList, parseSinceDate, syncEsef }, { FILINGS_XBRL_ORG }] =
          await Promise.all([import('./esef-sync.js'), import('./read-index.js')]);
        const country = optionText(options, 'country');
        const since = optionText(options, 'since');
        const countries = country === undefined ? null : parseCountryList(country);
        const sinceDate = since === undefined ? null : parseSinceDate(since);
        const base = settings.baseUrl ?? FILINGS_XBRL_ORG;
        return {
          userAgent: settings.userAgent,
          requestsPerSecond: ESEF_REQUESTS_PER_SECOND,
          bases: [base],
          dryRun: flag(options, 'dryRun'),
          run: (db, common) =>
            syncEsef(db, {
              ...common,
              countries,
              since: sinceDate,
              refetch: flag(options, 'refetch'),
              base,
            }),
        };
      },
    };
  },
};
