import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { RateGate, type SyncClock } from './rate-gate.js';
import { parseRetryAfter, type RetryPolicy, retryDelayMs } from './retry-policy.js';
import { fetchWithinOrigin, RedirectRefused } from './within-origin.js';

/** What a source said identifies a file's version, to ask for it again only if it changed. */
export interface Validators {
  readonly etag: string | null;
  readonly lastModified: string | null;
}

export type FetchOutcome =
  /** The body is in the destination file. */
  | { readonly kind: 'downloaded'; readonly bytes: number; readonly validators: Validators }
  /** New or changed, body not read (no destination: a dry run). */
  | { readonly kind: 'changed' }
  | { readonly kind: 'not_modified' }
  | { readonly kind: 'not_found' }
  /** Refused by the source, or given up after the last try; the reason was logged. */
  | { readonly kind: 'failed'; readonly reason: string };

/** The requests of one sync, as its summary reports them. */
export interface FetchCounts {
  /** HTTP requests sent, retries included. */
  sent: number;
  downloaded: number;
  /** New or changed files a dry run did not download. */
  changed: number;
  /** Answered 304: unchanged since the validators the sync state holds. */
  not_modified: number;
  not_found: number;
  /** Tries after a 429, a 5xx or a dropped connection. */
  retried: number;
  /** Requests that still failed after the last try; the sync went on without them. */
  given_up: number;
  /** Requests the source refused (4xx other than 404 and 429) or whose body was over the limit: not retried. */
  refused: number;
  /** Files whose answer redirected off the source's origin (or more than 5 times): not followed, not retried. */
  redirects_refused: number;
  /** Files given up when their time budget, or the run's, was spent: not retried in this run. */
  over_budget: number;
  /** Body bytes downloaded (as decoded). */
  bytes: number;
}

export interface FetcherOptions {
  /** Sent on every request: who is asking, with a contact (SEC's fair-access policy requires it). */
  readonly userAgent: string;
  readonly requestsPerSecond: number;
  readonly retry: RetryPolicy;
  /** A body larger than this is refused (the ingest's JSON limit). */
  readonly maxBytes: number;
  /** One try, headers and body, ends after this. */
  readonly timeoutMs: number;
  /**
   * The origins (`https://data.sec.gov`) of the source's configured bases: a URL elsewhere is
   * never requested, and a redirect is followed only within the origin it came from.
   */
  readonly origins: readonly string[];
  /** One file, all its tries and waits together, is given up after this. */
  readonly fileBudgetMs: number;
  /** No request starts, and none goes on, this long after the fetcher was made. */
  readonly runBudgetMs: number;
  readonly clock: SyncClock;
  readonly random: () => number;
  /** A line for the operator: retries, give-ups, refusals. */
  readonly log: (line: string) => void;
}

/**
 * Network jitter can bring two requests closer at the source than they left here; a margin keeps
 * a sync under the source's rate as the source counts it.
 */
const RATE_MARGIN = 1.1;

class TooLarge extends Error {}

/**
 * Fetches a source's files as a polite client should, whatever the source (design §15): requests
 * paced under the source's rate, conditional on the validators of the last fetch (so an
 * unchanged file costs a 304, not a download), 429 and 5xx and dropped connections tried again with
 * exponential backoff and jitter, never sooner than `Retry-After`, and given up after the policy's
 * last try — counted, so that the sync goes on and says so. Node's own fetch; no state beyond the
 * counts and the pacing of this one sync.
 */
export class SourceFetcher {
  readonly counts: FetchCounts = {
    sent: 0,
    downloaded: 0,
    changed: 0,
    not_modified: 0,
    not_found: 0,
    retried: 0,
    given_up: 0,
    refused: 0,
    redirects_refused: 0,
    over_budget: 0,
    bytes: 0,
  };
  readonly #gate: RateGate;
  readonly #runDeadline: number;

  constructor(private readonly options: FetcherOptions) {
    this.#gate = new RateGate(Math.ceil((1000 / options.requestsPerSecond) * RATE_MARGIN), options.clock);
    this.#runDeadline = options.clock.now() + options.runBudgetMs;
  }

  /** True once the run's time budget is spent: every further file is given up at once, so a sync stops asking. */
  get outOfTime(): boolean {
    return this.options.clock.now() >= this.#runDeadline;
  }

  /**
   * GETs `url`, conditionally when `known` holds validators. The body is written to `dest`; with
   * `dest` null it is not read at all and a new or changed file is reported as `changed`.
   */
  async get(url: string, known: Validators | undefined, dest: string | null): Promise<FetchOutcome> {
    const { clock, retry, log } = this.options;
    if (!this.#onSource(url)) {
      this.counts.refused++;
      log(`${JSON.stringify(url)}: not on the source's origin; not requested`);
      return { kind: 'failed', reason: 'not on the source' };
    }
    // Whatever the pace of the bytes and however many tries: a file ends by its deadline.
    const deadline = Math.min(clock.now() + this.options.fileBudgetMs, this.#runDeadline);
    for (let attempt = 1; ; attempt++) {
      await this.#gate.wait();
      if (clock.now() >= deadline) return this.#overBudget(url, deadline);
      this.counts.sent++;
      let problem: string;
      let retryAfterMs: number | undefined;
      let throttled = false;
      try {
        const res = await fetchWithinOrigin(
          url,
          {
            headers: this.#headers(known),
            signal: AbortSignal.timeout(Math.max(1, Math.min(this.options.timeoutMs, deadline - clock.now()))),
          },
          async () => {
            await this.#gate.wait();
            this.counts.sent++;
          },
        );
        if (res.ok || res.status === 304 || res.status === 404 || res.status === 410) {
          return await this.#settle(res, url, dest);
        }
        await res.body?.cancel();
        problem = `answered ${res.status}`;
        if (res.status !== 429 && res.status < 500) {
          this.counts.refused++;
          log(`${url}: ${problem}, not tried again`);
          return { kind: 'failed', reason: problem };
        }
        throttled = res.status === 429;
        retryAfterMs = parseRetryAfter(res.headers.get('retry-after'), clock.now());
      } catch (error) {
        if (error instanceof TooLarge) {
          this.counts.refused++;
          log(`${url}: ${error.message}`);
          return { kind: 'failed', reason: error.message };
        }
        if (error instanceof RedirectRefused) {
          this.counts.redirects_refused++;
          log(`${url}: ${error.message}`);
          return { kind: 'failed', reason: error.message };
        }
        if (clock.now() >= deadline) return this.#overBudget(url, deadline);
        problem = describe(error);
      }
      const delay = attempt < retry.tries ? retryDelayMs(attempt, retryAfterMs, retry, this.options.random) : undefined;
      if (delay !== undefined && clock.now() + delay >= deadline) return this.#overBudget(url, deadline);
      if (delay === undefined) {
        this.counts.given_up++;
        const why = attempt < retry.tries ? `asked to wait ${Math.round((retryAfterMs ?? 0) / 1000)} s` : `${attempt} tries`;
        log(`${url}: ${problem}; given up after ${why}`);
        return { kind: 'failed', reason: problem };
      }
      // A 429 is about the client, not the request: every request waits, not only this one.
      if (throttled || retryAfterMs !== undefined) this.#gate.holdUntil(clock.now() + delay);
      this.counts.retried++;
      log(`${url}: ${problem}; try ${attempt + 1} of ${retry.tries} in ${(delay / 1000).toFixed(1)} s`);
      await clock.sleep(delay);
    }
  }

  #onSource(url: string): boolean {
    try {
      return this.options.origins.includes(new URL(url).origin);
    } catch {
      return false;
    }
  }

  #overBudget(url: string, deadline: number): FetchOutcome {
    this.counts.over_budget++;
    const run = deadline >= this.#runDeadline;
    const reason = run
      ? `the sync's time budget of ${Math.round(this.options.runBudgetMs / 1000)} s (CORPDATA_SYNC_RUN_BUDGET_MS) is spent`
      : `over its time budget of ${Math.round(this.options.fileBudgetMs / 1000)} s (CORPDATA_SYNC_FILE_BUDGET_MS)`;
    this.options.log(`${url}: ${reason}; given up`);
    return { kind: 'failed', reason };
  }

  #headers(known: Validators | undefined): Record<string, string> {
    const headers: Record<string, string> = { 'user-agent': this.options.userAgent, accept: 'application/json' };
    if (known?.etag) headers['if-none-match'] = known.etag;
    if (known?.lastModified) headers['if-modified-since'] = known.lastModified;
    return headers;
  }

  async #settle(res: Response, url: string, dest: string | null): Promise<FetchOutcome> {
    if (res.status === 304 || res.status === 404 || res.status === 410) {
      await res.body?.cancel();
      if (res.status === 304) {
        this.counts.not_modified++;
        return { kind: 'not_modified' };
      }
      this.counts.not_found++;
      return { kind: 'not_found' };
    }
    if (dest === null) {
      await res.body?.cancel();
      this.counts.changed++;
      return { kind: 'changed' };
    }
    const bytes = await this.#save(res, url, dest);
    this.counts.downloaded++;
    this.counts.bytes += bytes;
    return {
      kind: 'downloaded',
      bytes,
      validators: { etag: res.headers.get('etag'), lastModified: res.headers.get('last-modified') },
    };
  }

  /** Streams the body into `dest`, refusing it past the limit (declared or counted); nothing is left on failure. */
  async #save(res: Response, url: string, dest: string): Promise<number> {
    const max = this.options.maxBytes;
    const tooLarge = (size: number) =>
      new TooLarge(`is ${size} bytes, over the limit of ${max} (CORPDATA_INGEST_MAX_JSON_BYTES)`);
    const declared = Number(res.headers.get('content-length') ?? Number.NaN);
    // Content-Length counts encoded bytes: only a plain body's can be held against the limit.
    if (res.headers.get('content-encoding') === null && declared > max) {
      await res.body?.cancel();
      throw tooLarge(declared);
    }
    let bytes = 0;
    const limit = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        done(bytes > max ? tooLarge(bytes) : null, chunk);
      },
    });
    if (res.body === null) throw new Error(`${url}: answered ${res.status} without a body`);
    try {
      await pipeline(Readable.fromWeb(res.body as unknown as WebReadableStream), limit, createWriteStream(dest));
    } catch (error) {
      await rm(dest, { force: true });
      throw error;
    }
    return bytes;
  }
}

/** A failed request's cause in a few words (fetch reports network faults as a TypeError with a cause). */
function describe(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return 'timed out';
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  if (cause?.code !== undefined) return `failed (${cause.code})`;
  return `failed (${error instanceof Error ? (cause?.message ?? error.message) : String(error)})`;
}
