import { isIP } from 'node:net';
/**
 * The one configuration object of a corpdata process, parsed once from the environment at start
 * and frozen. Everything else receives it; nothing reads `process.env` on its own.
 */
export type DatabaseConfig =
  | { readonly kind: 'sqlite'; readonly path: string }
  | { readonly kind: 'postgres'; readonly url: string };

export interface Config<S = unknown> {
  readonly database: DatabaseConfig;
  /** JWT signing secret; when absent the database keeps a generated one. */
  readonly secret: string | undefined;
  /**
   * Base of every `traceability_source_url`, without a trailing slash. Unset, it is
   * `http://localhost:{PORT}`, and the served app uses the port it actually bound (PORT=0 included).
   */
  readonly publicUrl: string;
  /** True when CORPDATA_PUBLIC_URL was not given, so the bound port decides {@link publicUrl}. */
  readonly publicUrlFromPort: boolean;
  /**
   * Requests allowed per account, all its keys and its console searches together (or per client
   * address, without its port, for requests without a valid key); null: no limit.
   */
  readonly rateLimit: RateLimit | null;
  /** Live (neither revoked nor expired) API keys one account may hold; making another is refused. */
  readonly keysPerAccount: number;
  /** Seed a fresh database with the demo bundle. */
  readonly demo: boolean;
  readonly port: number;
  readonly host: string;
  /** How often an instance looks for imports and revocations made elsewhere. */
  readonly syncIntervalMs: number;
  readonly logLevel: string;
  /** PostgreSQL pool size and per-statement timeout. */
  readonly poolSize: number;
  readonly statementTimeoutMs: number;
  /**
   * Which reverse proxies may name the client in `X-Forwarded-For` (their hop count, or their
   * addresses and CIDR ranges); false: the client is the peer of the TCP connection. Sign-in
   * throttling counts per client, so behind a load balancer this must be set.
   */
  readonly trustProxy: number | readonly string[] | false;
  /**
   * A request whose headers and body have not fully arrived within this time is answered 408 and
   * closed, so a client trickling bytes cannot hold a connection (and its memory) for ever.
   */
  readonly requestTimeoutMs: number;
  /**
   * Idle keep-alive connections close after this. Longer than the usual load balancer idle
   * timeout (60 s), so the balancer, not us, closes first and never reuses a closing connection.
   */
  readonly keepAliveTimeoutMs: number;
  /** Open connections one instance accepts; further ones are closed at once. */
  readonly maxConnections: number;
  /** The largest console form body (sign-in, key names): 413 beyond it. */
  readonly formBodyLimitBytes: number;
  /** How much of an input file `ingest` reads before refusing it (design §10). */
  readonly ingest: IngestLimits;
  /** Where `sync` fetches from, as whom, and how it paces itself (design §15). */
  readonly sync: SyncConfig;
  /** What each plug-in handed to {@link loadConfig} read of the environment, by its name (the sources'). */
  readonly sections: ReadonlyMap<string, S>;
  /** Days events are kept (design §20.3); older ones are pruned. */
  readonly eventRetentionDays: number;
  /** How webhooks are delivered, and where they may go (design §20.4, §20.5). */
  readonly webhooks: WebhookConfig;
}

/** Settings of webhook delivery (design §20.4, §20.5). */
export interface WebhookConfig {
  /** `http://` endpoints accepted too (development); otherwise `https://` only. */
  readonly allowHttp: boolean;
  /**
   * Hosts, addresses and CIDR ranges an endpoint may reach although private, loopback,
   * link-local or the metadata address; matched on the name given and on each resolved address.
   */
  readonly allowHosts: readonly string[];
  /** The first retry's delay; each further one doubles it (with jitter), up to 10 h. */
  readonly retryBaseMs: number;
  /** Tries of one delivery before the endpoint is marked failing. */
  readonly tries: number;
  /** An answer later than this is a failed try. */
  readonly timeoutMs: number;
  /** Whether `serve` delivers too (beside `bin/corpdata deliver`), and how often it looks for work. */
  readonly serveDelivers: boolean;
  readonly pollMs: number;
}

/** Settings of `bin/corpdata sync` that every source's sync shares; read by nothing else. */
export interface SyncConfig {
  /** The first retry's delay; each further try doubles it (with jitter), unless the server says longer. */
  readonly retryBaseMs: number;
  /** Filers fetched before their files are ingested in one transaction and recorded as synced. */
  readonly batchSize: number;
  /**
   * The longest one file may take, all its tries and waits together, however slowly its bytes
   * come: past it the file is given up (counted as `over_budget`) and the sync goes on.
   */
  readonly fileBudgetMs: number;
  /** The longest one sync may fetch for: past it the sync stops fetching, ingests what it has and ends. */
  readonly runBudgetMs: number;
}

/** The environment as the config reads it. */
export type Env = Readonly<Record<string, string | undefined>>;

/**
 * A part of the configuration that a plug-in reads from the environment itself: a source's own
 * variables (`CORPDATA_SEC_BASE_URL`, `CORPDATA_ESEF_USER_AGENT`), parsed when the config is loaded
 * with the plug-ins, and kept under the plug-in's name. Only `sync` loads the sources' sections, so a
 * malformed variable is refused when a sync starts (of any source), before it fetches anything.
 * The composition root hands the plug-ins to {@link loadConfig}; the config knows none of them.
 */
export interface ConfigSection<T> {
  readonly name: string;
  /** Reads the section's variables; throws {@link ConfigError} naming a malformed one. */
  configure(env: Env): T;
}

/**
 * Sizes past which `ingest` refuses a file or zip entry, so that a damaged or hostile input (a
 * zip bomb, a file of one endless line) ends in a one-line refusal, not in exhausted memory.
 * Inputs are streamed, so these bound how long a run reads, and what a single value may hold.
 */
export interface IngestLimits {
  /** A JSON file or zip entry (companyfacts, tickers), counted in inflated bytes. */
  readonly maxJsonBytes: number;
  /** One line of a data set's sub.txt or num.txt. */
  readonly maxLineBytes: number;
  /** A data set's sub.txt or num.txt as a whole, counted in inflated bytes. */
  readonly maxFsdsEntryBytes: number;
}

const MIB = 1024 * 1024;

/**
 * SEC's largest companyfacts JSON is about 50 MB and a quarter's num.txt about 500 MB; these leave
 * a wide margin over both while keeping a refusal quick.
 */
export const DEFAULT_INGEST_LIMITS: IngestLimits = Object.freeze({
  maxJsonBytes: 256 * MIB,
  maxLineBytes: MIB,
  maxFsdsEntryBytes: 4096 * MIB,
});

/** The largest limit a variable accepts (1 TiB): far beyond any input, and exact as a number. */
const MAX_INGEST_LIMIT = 1024 * 1024 * MIB;

/** A token bucket of `requests` tokens, refilled at `requests` per `windowSeconds`. */
export interface RateLimit {
  readonly requests: number;
  readonly windowSeconds: number;
}

/**
 * The production default: 100 requests a second per account is far above any honest client's need and
 * still keeps one client from taking a whole instance (a billed call costs about 1 ms of it).
 */
export const DEFAULT_RATE_LIMIT = '100/s';

/** Enough keys for every program and environment of one customer; more only multiply its attack surface. */
export const DEFAULT_KEYS_PER_ACCOUNT = 20;

export class ConfigError extends Error {}

function parseRateLimit(value: string | undefined): RateLimit | null {
  const raw = value === undefined || value === '' ? DEFAULT_RATE_LIMIT : value;
  if (raw === 'off') return null;
  const match = /^([0-9]{1,9})\/(s|min)$/.exec(raw);
  const requests = Number(match?.[1] ?? 0);
  if (match === null || requests < 1) {
    throw new ConfigError('CORPDATA_RATE_LIMIT must be N/s, N/min (N at least 1) or off');
  }
  return Object.freeze({ requests, windowSeconds: match[2] === 's' ? 1 : 60 });
}

function parseDatabase(value: string | undefined): DatabaseConfig {
  const raw = value === undefined || value === '' ? 'sqlite:./data/corpdata.db' : value;
  if (raw.startsWith('sqlite:')) {
    const path = raw.slice('sqlite:'.length);
    if (path === '') throw new ConfigError('CORPDATA_DATABASE: sqlite: needs a file path, e.g. sqlite:./data/corpdata.db');
    return { kind: 'sqlite', path };
  }
  if (raw.startsWith('postgres://') || raw.startsWith('postgresql://')) {
    parsePostgresHosts(raw);
    return { kind: 'postgres', url: raw };
  }
  throw new ConfigError(`CORPDATA_DATABASE must start with sqlite: or postgres:// (got "${raw.split(':')[0]}:…")`);
}

/** One server of a PostgreSQL URL's host list. */
export interface PostgresHost {
  readonly host: string;
  readonly port: number;
}

/** A PostgreSQL URL naming several servers (or asking for a writable one), as libpq writes it. */
export interface PostgresHosts {
  /** The servers, in the URL's order (an IPv6 address without its brackets): the writable one among them is used. */
  readonly hosts: readonly PostgresHost[];
  /** `read-write`: the server accepts writes; `primary`: it is not in recovery (design §21.1). */
  readonly targetSessionAttrs: 'read-write' | 'primary';
  /** For each server, its URL alone, without `target_session_attrs`: the driver reads the rest of it. */
  readonly urls: readonly string[];
}

const DEFAULT_PG_PORT = 5432;
const HOST_NAME = /^[A-Za-z0-9._~%-]+$/;
const HOST_V6 = /^\[[0-9A-Fa-f:.]+(%[A-Za-z0-9._~-]+)?\]$/;

function parseHostSpec(spec: string): PostgresHost {
  const v6 = /^(\[[^\]]*\])(?::([^:]*))?$/.exec(spec);
  const [host, port] = v6 === null ? spec.split(':', 3) : [v6[1], v6[2]];
  if (v6 === null && spec.split(':').length > 2) {
    throw new ConfigError(`CORPDATA_DATABASE: host "${spec}" is not host:port (write an IPv6 address in brackets)`);
  }
  if (host === undefined || host === '') throw new ConfigError('CORPDATA_DATABASE: an entry of the host list names no host');
  if (!(v6 === null ? HOST_NAME : HOST_V6).test(host)) throw new ConfigError(`CORPDATA_DATABASE: "${host}" is not a host name`);
  const name = v6 === null ? host : host.slice(1, -1);
  if (port === undefined || port === '') return { host: name, port: DEFAULT_PG_PORT };
  const n = Number(port);
  if (!/^[0-9]{1,5}$/.test(port) || n < 1 || n > 65535) {
    throw new ConfigError(`CORPDATA_DATABASE: port "${port}" of ${host} must be a number from 1 to 65535`);
  }
  return { host: name, port: n };
}

/** `host:port`, an IPv6 address in brackets, as in a URL. */
export function hostName(h: PostgresHost): string {
  return `${h.host.includes(':') ? `[${h.host}]` : h.host}:${h.port}`;
}

/**
 * Reads the host list of a `postgres://` URL as libpq writes it: `postgres://user:pass@h1:5432,h2:5433/db?
 * target_session_attrs=read-write` (design §21.1). Null for a URL of one server that asks for no
 * writable one: the driver takes it as it is. Several servers need `target_session_attrs=read-write`
 * (or `primary`): the product writes, so it must find the one that accepts writes. Throws
 * {@link ConfigError} naming what is wrong.
 */
export function parsePostgresHosts(url: string): PostgresHosts | null {
  const scheme = /^postgres(?:ql)?:\/\//.exec(url)?.[0];
  if (scheme === undefined) throw new ConfigError('CORPDATA_DATABASE must start with postgres:// or postgresql://');
  const rest = url.slice(scheme.length);
  const end = rest.search(/[/?#]/);
  const authority = end < 0 ? rest : rest.slice(0, end);
  const tail = end < 0 ? '' : rest.slice(end);
  const at = authority.lastIndexOf('@');
  const userinfo = authority.slice(0, at + 1);
  const list = authority.slice(at + 1);
  const query = tail.indexOf('?');
  const params = new URLSearchParams(query < 0 ? '' : tail.slice(query + 1).split('#')[0]);
  const attrs = params.get('target_session_attrs');
  const several = list.includes(',');
  if (!several && attrs === null) return null;
  const hosts = list.split(',').map(parseHostSpec);
  if (attrs !== 'read-write' && attrs !== 'primary') {
    throw new ConfigError(
      `CORPDATA_DATABASE: ${several ? 'a URL of several servers needs' : 'target_session_attrs must be'} target_session_attrs=read-write (or primary), since corpdata writes${attrs === null ? '' : ` (got "${attrs}")`}`,
    );
  }
  params.delete('target_session_attrs');
  const path = query < 0 ? tail : tail.slice(0, query);
  const search = params.toString();
  return {
    hosts,
    targetSessionAttrs: attrs,
    urls: hosts.map((h) => `${scheme}${userinfo}${hostName(h)}${path}${search === '' ? '' : `?${search}`}`),
  };
}

function parseInteger(name: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined || value === '') return fallback;
  if (!/^[0-9]+$/.test(value)) throw new ConfigError(`${name} must be a whole number`);
  const n = Number(value);
  if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}`);
  return n;
}

/** An http(s) base URL without its trailing slash; undefined when the variable is unset or empty. */
export function parseBaseUrl(name: string, value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^https?:\/\/[^/]+/.test(value)) throw new ConfigError(`${name} must be an http(s) URL`);
  return value.replace(/\/+$/, '');
}

function parseSwitch(name: string, value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  if (value === 'on') return true;
  if (value === 'off') return false;
  throw new ConfigError(`${name} must be on or off`);
}

function parseTrustProxy(value: string | undefined): Config['trustProxy'] {
  if (value === undefined || value === '' || value === 'off') return false;
  if (/^[0-9]+$/.test(value)) return parseInteger('CORPDATA_TRUST_PROXY', value, 0, 1, 10);
  const addresses = value.split(',').map((a) => a.trim());
  if (!addresses.every(isProxyRange)) {
    throw new ConfigError(
      'CORPDATA_TRUST_PROXY must be a hop count (1-10) or a comma-separated list of proxy addresses or CIDR ranges ' +
        '(at least /8 for IPv4, /32 for IPv6)',
    );
  }
  return Object.freeze(addresses);
}

/**
 * An address or a CIDR range narrow enough to name proxies. "Trust everyone" (0.0.0.0/0, ::/0)
 * would let any client choose its own address and slip past the sign-in throttle.
 */
function isProxyRange(entry: string): boolean {
  const [address = '', prefix, extra] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  if (!/^[0-9]{1,3}$/.test(prefix)) return false;
  const bits = Number(prefix);
  return version === 4 ? bits >= 8 && bits <= 32 : bits >= 32 && bits <= 128;
}

/**
 * Reads the environment into a frozen {@link Config}, with each of `sections` reading its own part;
 * throws {@link ConfigError} naming the variable.
 */
export function loadConfig<S = never>(env: Env = process.env, sections: readonly ConfigSection<S>[] = []): Config<S> {
  const port = parseInteger('PORT', env.PORT, 8080, 0, 65535);
  const publicUrlFromPort = env.CORPDATA_PUBLIC_URL === undefined || env.CORPDATA_PUBLIC_URL === '';
  const publicUrl = publicUrlFromPort ? `http://localhost:${port}` : (env.CORPDATA_PUBLIC_URL ?? '').replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]+/.test(publicUrl)) throw new ConfigError('CORPDATA_PUBLIC_URL must be an http(s) URL');
  const secret = env.CORPDATA_SECRET === '' ? undefined : env.CORPDATA_SECRET;
  return Object.freeze({
    database: Object.freeze(parseDatabase(env.CORPDATA_DATABASE)),
    secret,
    publicUrl,
    publicUrlFromPort,
    rateLimit: parseRateLimit(env.CORPDATA_RATE_LIMIT),
    keysPerAccount: parseInteger('CORPDATA_KEYS_PER_ACCOUNT', env.CORPDATA_KEYS_PER_ACCOUNT, DEFAULT_KEYS_PER_ACCOUNT, 1, 10_000),
    demo: parseSwitch('CORPDATA_DEMO', env.CORPDATA_DEMO, true),
    port,
    host: env.HOST === undefined || env.HOST === '' ? '0.0.0.0' : env.HOST,
    syncIntervalMs: parseInteger('CORPDATA_SYNC_INTERVAL_MS', env.CORPDATA_SYNC_INTERVAL_MS, 250, 10, 60_000),
    logLevel: env.LOG_LEVEL === undefined || env.LOG_LEVEL === '' ? 'info' : env.LOG_LEVEL,
    poolSize: parseInteger('CORPDATA_POOL_SIZE', env.CORPDATA_POOL_SIZE, 10, 1, 1000),
    statementTimeoutMs: parseInteger('CORPDATA_STATEMENT_TIMEOUT_MS', env.CORPDATA_STATEMENT_TIMEOUT_MS, 5000, 100, 600_000),
    trustProxy: parseTrustProxy(env.CORPDATA_TRUST_PROXY),
    requestTimeoutMs: parseInteger('CORPDATA_REQUEST_TIMEOUT_MS', env.CORPDATA_REQUEST_TIMEOUT_MS, 30_000, 100, 600_000),
    keepAliveTimeoutMs: parseInteger('CORPDATA_KEEP_ALIVE_TIMEOUT_MS', env.CORPDATA_KEEP_ALIVE_TIMEOUT_MS, 72_000, 100, 600_000),
    maxConnections: parseInteger('CORPDATA_MAX_CONNECTIONS', env.CORPDATA_MAX_CONNECTIONS, 10_000, 1, 1_000_000),
    formBodyLimitBytes: parseInteger(
      'CORPDATA_FORM_BODY_LIMIT_BYTES',
      env.CORPDATA_FORM_BODY_LIMIT_BYTES,
      16 * 1024,
      1024,
      1024 * 1024,
    ),
    ingest: Object.freeze({
      maxJsonBytes: parseInteger(
        'CORPDATA_INGEST_MAX_JSON_BYTES',
        env.CORPDATA_INGEST_MAX_JSON_BYTES,
        DEFAULT_INGEST_LIMITS.maxJsonBytes,
        1024,
        MAX_INGEST_LIMIT,
      ),
      maxLineBytes: parseInteger(
        'CORPDATA_INGEST_MAX_LINE_BYTES',
        env.CORPDATA_INGEST_MAX_LINE_BYTES,
        DEFAULT_INGEST_LIMITS.maxLineBytes,
        1024,
        // A line is decoded to one string; V8 strings end at about 512 MiB.
        256 * MIB,
      ),
      maxFsdsEntryBytes: parseInteger(
        'CORPDATA_INGEST_MAX_FSDS_ENTRY_BYTES',
        env.CORPDATA_INGEST_MAX_FSDS_ENTRY_BYTES,
        DEFAULT_INGEST_LIMITS.maxFsdsEntryBytes,
        1024,
        MAX_INGEST_LIMIT,
      ),
    }),
    sync: Object.freeze({
      retryBaseMs: parseInteger('CORPDATA_SYNC_RETRY_BASE_MS', env.CORPDATA_SYNC_RETRY_BASE_MS, 1000, 1, 60_000),
      batchSize: parseInteger('CORPDATA_SYNC_BATCH', env.CORPDATA_SYNC_BATCH, 100, 1, 10_000),
      fileBudgetMs: parseInteger('CORPDATA_SYNC_FILE_BUDGET_MS', env.CORPDATA_SYNC_FILE_BUDGET_MS, 900_000, 1000, 86_400_000),
      runBudgetMs: parseInteger('CORPDATA_SYNC_RUN_BUDGET_MS', env.CORPDATA_SYNC_RUN_BUDGET_MS, 21_600_000, 1000, 604_800_000),
    }),
    sections: new Map(sections.map((section) => [section.name, section.configure(env)])),
    eventRetentionDays: parseInteger('CORPDATA_EVENT_RETENTION_DAYS', env.CORPDATA_EVENT_RETENTION_DAYS, 90, 1, 36_500),
    webhooks: Object.freeze({
      allowHttp: parseSwitch('CORPDATA_WEBHOOK_ALLOW_HTTP', env.CORPDATA_WEBHOOK_ALLOW_HTTP, false),
      allowHosts: Object.freeze(
        (env.CORPDATA_WEBHOOK_ALLOW_HOSTS ?? '')
          .split(',')
          .map((h) => h.trim().toLowerCase())
          .filter((h) => h !== ''),
      ),
      retryBaseMs: parseInteger('CORPDATA_WEBHOOK_RETRY_BASE_MS', env.CORPDATA_WEBHOOK_RETRY_BASE_MS, 5000, 1, 3_600_000),
      tries: parseInteger('CORPDATA_WEBHOOK_TRIES', env.CORPDATA_WEBHOOK_TRIES, 8, 1, 100),
      timeoutMs: parseInteger('CORPDATA_WEBHOOK_TIMEOUT_MS', env.CORPDATA_WEBHOOK_TIMEOUT_MS, 10_000, 100, 60_000),
      serveDelivers: parseSwitch('CORPDATA_WEBHOOK_SERVE_DELIVERS', env.CORPDATA_WEBHOOK_SERVE_DELIVERS, true),
      pollMs: parseInteger('CORPDATA_WEBHOOK_POLL_MS', env.CORPDATA_WEBHOOK_POLL_MS, 1000, 10, 600_000),
    }),
  });
}
