import pg from 'pg';
import { hostName, type PostgresHost, type PostgresHosts } from '../config.js';

/**
 * Thrown when no server of a multi-host URL accepts writes (all down, or the standby not yet
 * promoted): the database is unavailable for now, not broken (design §21.2).
 */
export class NoWritableServer extends Error {
  constructor(readonly tried: string) {
    super(`no writable PostgreSQL server among ${tried}`);
  }
}

const PROBE_TIMEOUT_MS = 2000;

type Callback = ((err: Error) => void) | ((err: null, c: pg.Client) => void);

/** Whether the server a client is connected to takes writes, as `target_session_attrs` asks. */
async function writable(client: pg.ClientBase, attrs: PostgresHosts['targetSessionAttrs']): Promise<boolean> {
  const { rows } = await client.query<{ recovery: boolean; read_only: string }>(
    "select pg_is_in_recovery() as recovery, current_setting('transaction_read_only') as read_only",
  );
  const row = rows[0];
  if (row === undefined) return false;
  return attrs === 'primary' ? !row.recovery : row.read_only === 'off';
}

/**
 * The writable server among a multi-host URL's (design §21.1), as libpq's
 * `target_session_attrs=read-write` finds it: each server in the URL's order is asked whether it
 * takes writes, and the first that does is kept until a connection to it is lost. Concurrent
 * connections share one search.
 */
export class WritableHost {
  #current: PostgresHost | undefined;
  #search: Promise<PostgresHost> | undefined;

  constructor(private readonly target: PostgresHosts) {}

  /** The server found last, or the one a new search finds; rejects with {@link NoWritableServer}. */
  find(): Promise<PostgresHost> {
    if (this.#current !== undefined) return Promise.resolve(this.#current);
    if (this.#search === undefined) {
      this.#search = this.#probe().finally(() => {
        this.#search = undefined;
      });
    }
    return this.#search;
  }

  /** A connection to `host` broke or found it read-only: the next connection searches again. */
  lost(host: PostgresHost): void {
    if (this.#current === host) this.#current = undefined;
  }

  async #probe(): Promise<PostgresHost> {
    const why: string[] = [];
    for (const [i, host] of this.target.hosts.entries()) {
      const connectionString = this.target.urls[i];
      const client = new pg.Client({ connectionString, connectionTimeoutMillis: PROBE_TIMEOUT_MS });
      // An error after the answer (the server going away) must not end the process.
      client.on('error', () => undefined);
      try {
        await client.connect();
        if (await writable(client, this.target.targetSessionAttrs)) {
          this.#current = host;
          return host;
        }
        why.push(`${hostName(host)}: read-only`);
      } catch (error) {
        why.push(`${hostName(host)}: ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        await client.end().catch(() => undefined);
      }
    }
    throw new NoWritableServer(why.join('; '));
  }

  /**
   * A pg client class for the pool: each new connection goes to the writable server, is checked
   * to take writes (the server may have changed role since it was found), and reports its loss.
   */
  clientClass(): new () => pg.Client {
    const chooser = this;
    const attrs = this.target.targetSessionAttrs;
    class WritableClient extends pg.Client {
      server: PostgresHost | undefined;

      override connect(): Promise<pg.Client>;
      override connect(callback: Callback): void;
      override connect(callback?: Callback): Promise<pg.Client> | undefined {
        const connected = this.#connectWritable();
        if (callback === undefined) return connected;
        // The pool passes one callback taking (error) or (null, client).
        const done = callback as (err: Error | null, client?: pg.Client) => void;
        connected.then(
          (client) => done(null, client),
          (error: Error) => done(error),
        );
        return undefined;
      }

      async #connectWritable(): Promise<pg.Client> {
        const server = await chooser.find();
        this.server = server;
        this.host = server.host;
        this.port = server.port;
        this.on('error', () => chooser.lost(server));
        try {
          await super.connect();
        } catch (error) {
          chooser.lost(server);
          throw error;
        }
        if (!(await writable(this, attrs).catch(() => false))) {
          chooser.lost(server);
          await this.end().catch(() => undefined);
          throw new NoWritableServer(`${hostName(server)} (now read-only)`);
        }
        return this;
      }
    }
    return WritableClient as unknown as new () => pg.Client;
  }
}
