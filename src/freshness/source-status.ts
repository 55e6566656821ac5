import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** The window of "served lately" (design §20.2). */
export const SERVED_WINDOW_MS = 24 * 60 * 60 * 1000;

/** What `GET /api/v1/status` says of one source (design §20.2). */
export interface SourceStatus {
  source: string;
  /** The end of its last poll that succeeded; null if none did. */
  last_success_at: string | null;
  /** The last poll that failed, and why; null if none did. */
  last_error: { at: string; message: string } | null;
  /** Its documents whose figures began to be served in the last 24 hours, and how late. */
  served_24h: {
    documents: number;
    /**
     * Seconds from publication (the document's date, at 00:00 UTC) to served, over the documents
     * that have a date; null when none has.
     */
    median_lag_seconds: number | null;
    worst_lag_seconds: number | null;
  };
}

/** The median of sorted integers: the mean of the middle two, rounded down, when their count is even. */
export function medianOf(sorted: readonly number[]): number | null {
  if (sorted.length === 0) return null;
  const mid = sorted.length >> 1;
  const upper = sorted[mid] ?? 0;
  return sorted.length % 2 === 1 ? upper : Math.floor(((sorted[mid - 1] ?? 0) + upper) / 2);
}

/**
 * Each source's freshness at `now`: every source a document came from or a poll was made of, in
 * name order. A lag is never negative: a document dated after it was served (a clock or a source's
 * date ahead) counts as served at once.
 */
export async function loadSourceStatus(db: Kysely<Database>, now: Date): Promise<SourceStatus[]> {
  const since = new Date(now.getTime() - SERVED_WINDOW_MS).toISOString();
  const [polls, sources, served] = await Promise.all([
    db.selectFrom('source_polls').selectAll().execute(),
    db.selectFrom('documents').select('source').distinct().where('source', 'is not', null).execute(),
    db
      .selectFrom('documents')
      .select(['source', 'published_on', 'served_at'])
      .where('served_at', '>=', since)
      .where('source', 'is not', null)
      .execute(),
  ]);
  const names = new Set<string>([
    ...polls.map((p) => p.source),
    ...sources.flatMap((s) => (s.source === null ? [] : [s.source])),
  ]);
  const lags = new Map<string, { documents: number; lags: number[] }>();
  for (const d of served) {
    if (d.source === null || d.served_at === null) continue;
    const entry = lags.get(d.source) ?? { documents: 0, lags: [] };
    entry.documents += 1;
    const published = Date.parse(`${d.published_on}T00:00:00Z`);
    if (!Number.isNaN(published)) entry.lags.push(Math.max(0, Math.floor((Date.parse(d.served_at) - published) / 1000)));
    lags.set(d.source, entry);
  }
  return [...names].sort().map((source) => {
    const poll = polls.find((p) => p.source === source);
    const entry = lags.get(source) ?? { documents: 0, lags: [] };
    const sorted = entry.lags.sort((a, b) => a - b);
    return {
      source,
      last_success_at: poll?.last_success_at ?? null,
      last_error:
        poll?.last_error_at === null || poll?.last_error_at === undefined
          ? null
          : { at: poll.last_error_at, message: poll.last_error ?? '' },
      served_24h: { documents: entry.documents, median_lag_seconds: medianOf(sorted), worst_lag_seconds: sorted.at(-1) ?? null },
    };
  });
}

/** How long one instance answers from the freshness it read: a free call without a key costs at most one read this often. */
export const STATUS_TTL_MS = 5_000;

/** The sources' freshness, read at most once per {@link STATUS_TTL_MS} (a failed read is not kept). */
export type StatusLoader = () => Promise<{ generatedAt: string; sources: SourceStatus[] }>;

export function statusLoader(db: Kysely<Database>, clock: () => Date): StatusLoader {
  let held: { from: number; until: number; value: Promise<{ generatedAt: string; sources: SourceStatus[] }> } | undefined;
  return () => {
    const now = clock();
    const t = now.getTime();
    // A clock set back is no reason to answer from the future.
    if (held === undefined || t >= held.until || t < held.from) {
      const value = loadSourceStatus(db, now).then((sources) => ({ generatedAt: now.toISOString(), sources }));
      const entry = { from: t, until: t + STATUS_TTL_MS, value };
      held = entry;
      value.catch(() => {
        if (held === entry) held = undefined;
      });
    }
    return held.value;
  };
}
