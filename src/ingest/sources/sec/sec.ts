import { type Env, parseBaseUrl } from '../../../config.js';
import type { Source } from '../source.js';
import { flag, optionText } from '../source.js';
import { secCommands } from './sec-commands.js';

/** SEC's fair-access policy: a User-Agent naming who asks, with a contact address. */
export function checkSecUserAgent(userAgent: string | undefined): string {
  if (userAgent === undefined || !/\S+@\S+\.\S+/.test(userAgent)) {
    throw new Error(
      `sync sec needs CORPDATA_SEC_USER_AGENT${userAgent === undefined ? '' : ' with a contact e-mail address'}, ` +
        'e.g. "Example Corp admin@example.com": SEC asks every client to name itself and a contact, and refuses those that do not',
    );
  }
  return userAgent;
}

/** What `sync sec` reads of the environment (design §15). */
export interface SecSettings {
  /**
   * One base serving SEC's paths (`/files/…`, `/submissions/…`, `/api/xbrl/…`), without a trailing
   * slash; undefined: SEC's own hosts (www.sec.gov for the ticker file, data.sec.gov for the rest).
   */
  readonly baseUrl: string | undefined;
  /** "Company Name admin@example.com", as SEC's fair-access policy asks; `sync sec` refuses to start without it. */
  readonly userAgent: string | undefined;
}

/** Reads `CORPDATA_SEC_BASE_URL` and `CORPDATA_SEC_USER_AGENT`. */
export function secSettings(env: Env): SecSettings {
  return Object.freeze({
    baseUrl: parseBaseUrl('CORPDATA_SEC_BASE_URL', env.CORPDATA_SEC_BASE_URL),
    userAgent: env.CORPDATA_SEC_USER_AGENT === '' ? undefined : env.CORPDATA_SEC_USER_AGENT?.trim(),
  });
}

/**
 * SEC EDGAR as a source (design §10, §15): its ticker files, companyfacts, financial statement data
 * sets and submissions, and `sync sec` from SEC's APIs.
 */
export const sec: Source = {
  name: 'sec',
  ingest: secCommands,
  demo: async () => (await import('./sec-demo.js')).secDemo,
  sync: {
    description:
      'Sync from the SEC: company_tickers_exchange.json, then per CIK its companyfacts and submissions, conditionally; needs CORPDATA_SEC_USER_AGENT.',
    options: [
      { flags: '--ciks <list>', description: 'comma-separated CIKs to fetch companyfacts and submissions of' },
      { flags: '--all', description: "every catalog company's CIK" },
      { flags: '--dry-run', description: 'ask the SEC what changed, fetch and write nothing' },
      {
        flags: '--refetch',
        description: 'download and ingest every file again, whatever the sync state says (after adding FX rates)',
      },
    ],
  },
  configure: (env) => {
    const settings = secSettings(env);
    return {
      sync: async (options) => {
        const ciks = optionText(options, 'ciks');
        const all = flag(options, 'all');
        if (ciks !== undefined && all) throw new Error('give either --ciks or --all, not both');
        // Refused before anything is opened or sent: SEC blocks clients that do not name themselves.
        const userAgent = checkSecUserAgent(settings.userAgent);
        // Loaded on use, like the ingests it drives.
        const { SEC_HOSTS, SEC_REQUESTS_PER_SECOND, parseCikList, syncSec } = await import('./sec-sync.js');
        const filers = all ? 'all' : ciks === undefined ? 'none' : { ciks: parseCikList(ciks) };
        const base = settings.baseUrl;
        const bases = base === undefined ? SEC_HOSTS : { www: base, data: base };
        return {
          userAgent,
          requestsPerSecond: SEC_REQUESTS_PER_SECOND,
          bases: [bases.www, bases.data],
          dryRun: flag(options, 'dryRun'),
          run: (db, common) =>
            syncSec(db, {
              ...common,
              filers,
              refetch: flag(options, 'refetch'),
              bases,
            }),
        };
      },
    };
  },
};
