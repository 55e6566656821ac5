import { createHash } from 'node:crypto';
import { isAbsolute, join, relative, resolve } from 'node:path';

/**
 * A plain file name: letters, digits, `.`, `_`, `-`, starting with a letter or digit (so never
 * `.` or `..`), no separator, no percent-encoding. filings.xbrl.org names every report so.
 */
const PLAIN_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

/**
 * The path of a download named `name` in `dir`, refused (an Error) unless it lies inside `dir`:
 * the second guard behind names the sync issues itself, whatever a source sent.
 */
export function insideFolder(dir: string, name: string): string {
  const path = join(dir, name);
  const rel = relative(resolve(dir), resolve(path));
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) {
    throw new Error(`a download named ${JSON.stringify(name)} would leave its folder; refused`);
  }
  return path;
}

/**
 * The name a report's download is given, issued by the sync and never decoded from the URL: the
 * last segment of `jsonUrl` as the stored index has it when that is a plain file name (the ESEF
 * ingest identifies a report by its index listing's file name, which tells refilings of one
 * period apart), else a name made of the URL's hash (the ingest then identifies the report by
 * its LEI and period). Either way one name, no separator, no `..`.
 */
export function reportFileName(jsonUrl: string): string {
  const last = jsonUrl.slice(jsonUrl.lastIndexOf('/') + 1);
  if (PLAIN_NAME.test(last)) return last;
  return `report-${createHash('sha256').update(jsonUrl).digest('hex').slice(0, 32)}.json`;
}

/** Why a report's `json_url` cannot be fetched: not an http(s) URL, or its percent-encoding malformed. */
export type ReportUrlFault = 'malformed_json_url';

/**
 * Where a report listed at `jsonUrl` is fetched from: the same path on `base` (filings.xbrl.org,
 * a mirror, a test server), or the fault that has it skipped. A `json_url` whose path does not
 * decode (`%E0%A4%A`) is skipped rather than sent on: the source could not have meant it.
 */
export function reportSource(jsonUrl: string, base: string): { url: string } | { fault: ReportUrlFault } {
  try {
    const u = new URL(jsonUrl, `${base}/`);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') return { fault: 'malformed_json_url' };
    decodeURIComponent(u.pathname);
    return { url: `${base}${u.pathname}${u.search}` };
  } catch {
    return { fault: 'malformed_json_url' };
  }
}
