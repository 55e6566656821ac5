import { readFile, stat } from 'node:fs/promises';
import { join, normalize, sep } from 'node:path';
import { type SourceServer, type SourceServerOptions, startSourceServer } from './source-server.js';

export type { SeenRequest } from './source-server.js';
export type SecServer = SourceServer;

export interface SecServerOptions extends Omit<SourceServerOptions, 'resolve'> {
  /** A folder laid out as SEC's paths: `files/…`, `submissions/…`, `api/xbrl/companyfacts/…`. */
  root: string;
}

/**
 * Serves SEC-shaped paths from real SEC files, behaving as SEC's servers do towards a client
 * ({@link startSourceServer}); a file's validators are an ETag of its mtime and size and its mtime
 * as Last-Modified.
 */
export function startSecServer(options: SecServerOptions): Promise<SecServer> {
  const { root, ...behaviour } = options;
  return startSourceServer({
    ...behaviour,
    resolve: async (url) => {
      const file = normalize(join(root, decodeURIComponent(url.pathname)));
      if (!file.startsWith(root + sep)) return null;
      try {
        const body = await readFile(file);
        const mtime = (await stat(file)).mtime;
        // Of the file's time and size, as nginx makes it: hashing a 50 MB file would hold the
        // server's event loop, and the requests queued behind it would look like a burst.
        return {
          body,
          etag: `"${mtime.getTime().toString(16)}-${body.length.toString(16)}"`,
          lastModified: new Date(Math.floor(mtime.getTime() / 1000) * 1000).toUTCString(),
        };
      } catch {
        return null;
      }
    },
  });
}
