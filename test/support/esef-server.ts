import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type Resource, type SourceServer, type SourceServerOptions, startSourceServer } from './source-server.js';

export type EsefServer = SourceServer;

export interface EsefServerOptions extends Omit<SourceServerOptions, 'resolve'> {
  /** Index pages by ISO country code (`all`: the unfiltered index), in page order: recorded bodies, unchanged. */
  pages: Record<string, readonly Buffer[]>;
  /** Report files by the path of their `json_url` on filings.xbrl.org. */
  reports: Record<string, string>;
}

const LAST_MODIFIED = new Date(Date.UTC(2026, 0, 1)).toUTCString();
const resource = (body: Buffer): Resource => ({
  body,
  etag: `"${createHash('sha1').update(body).digest('hex')}"`,
  lastModified: LAST_MODIFIED,
});

/**
 * Replays filings.xbrl.org towards a sync ({@link startSourceServer}'s behaviour): `/api/filings`
 * answers the recorded page of `filter[country]` and `page[number]` (sorting, page size and
 * includes are as recorded, whatever is asked), a page past the recording an empty page as the
 * index answers past its last; a report's JSON at its `json_url` path; 404 for anything else.
 */
export function startEsefServer(options: EsefServerOptions): Promise<EsefServer> {
  const { pages, reports, ...behaviour } = options;
  return startSourceServer({
    ...behaviour,
    resolve: async (url) => {
      if (url.pathname === '/api/filings') {
        const country = url.searchParams.get('filter[country]') ?? 'all';
        const recorded = pages[country] ?? [];
        const n = Number(url.searchParams.get('page[number]') ?? '1');
        const body = recorded[n - 1] ?? Buffer.from(JSON.stringify({ data: [], links: {}, meta: { count: 0 } }));
        return resource(body);
      }
      const file = reports[decodeURIComponent(url.pathname)];
      return file === undefined ? null : resource(readFileSync(file));
    },
  });
}
