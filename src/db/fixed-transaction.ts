import { CompiledQuery } from 'kysely';
import type { Db } from './connect.js';

/** The rows a statement answered (its RETURNING clause); none for a statement without one. */
export type Rows = readonly Record<string, unknown>[];

/**
 * One statement of a fixed transaction, written once in portable SQL with `?` placeholders: either
 * run once with `params`, or, for a one-row `insert … values (?, …)`, once for each of `rows`.
 */
export type FixedStep =
  | { readonly text: string; readonly params: readonly unknown[] }
  | { readonly text: string; readonly rows: readonly (readonly unknown[])[] };

/**
 * A transaction's logic as a generator: it yields each statement and receives its rows, knowing
 * neither the dialect nor whether the statements run synchronously. Called anew for every attempt.
 */
export type FixedWork<T> = () => Generator<FixedStep, T, Rows>;

/** Runs a {@link FixedWork} in one transaction of its own; committed when the promise resolves. */
export type FixedTransaction = <T>(work: FixedWork<T>) => Promise<T>;

/**
 * The billed path's way to the database: building a query with Kysely's builder costs more than
 * running it on SQLite, and each of Kysely's statements is several promise hops. Statements are
 * prepared (SQLite, through the connection's statement cache) or rewritten (PostgreSQL) once per
 * text.
 *
 * - SQLite: the whole transaction runs synchronously in one better-sqlite3 transaction. Nothing
 *   can interleave with it, so it runs at once unless a Kysely transaction is open on the
 *   connection (awaiting between its statements): then it waits for Kysely's connection, so it
 *   never nests into that transaction. A one-row insert is one prepared statement run per row
 *   (measured faster in service than one multi-row insert of a batch's rows).
 * - PostgreSQL: one Kysely transaction, one round trip per statement; a one-row insert given
 *   several rows becomes one multi-row insert (its text made once per row count).
 */
export function fixedTransaction(db: Db): FixedTransaction {
  return db.dialect === 'sqlite' ? sqliteTransaction(db) : postgresTransaction(db);
}

function sqliteTransaction(db: Extract<Db, { dialect: 'sqlite' }>): FixedTransaction {
  const exec = (step: FixedStep): Rows => {
    const s = db.prepare(step.text);
    if ('rows' in step) {
      for (const row of step.rows) s.run(...row);
      return [];
    }
    if (s.reader) return s.all(...step.params) as Rows;
    s.run(...step.params);
    return [];
  };
  const inTransaction = db.sqlite.transaction((work: FixedWork<unknown>): unknown => {
    const steps = work();
    let next = steps.next();
    while (!next.done) next = steps.next(exec(next.value));
    return next.value;
  });
  const run = <T>(work: FixedWork<T>): T => inTransaction.immediate(work) as T;
  return async <T>(work: FixedWork<T>) => {
    if (!db.sqlite.inTransaction) return run(work);
    return db.kysely.connection().execute(async () => run(work));
  };
}

function postgresTransaction(db: Db): FixedTransaction {
  const one = textCache(numbered);
  const many = textCache((text, count) => numbered(manyRows(text, count)));
  const compiled = (step: FixedStep): CompiledQuery<Record<string, unknown>> =>
    'rows' in step
      ? CompiledQuery.raw(many(step.text, step.rows.length), step.rows.flat() as unknown[])
      : CompiledQuery.raw(one(step.text, 1), step.params as unknown[]);
  return (work) =>
    db.kysely.transaction().execute(async (trx) => {
      const steps = work();
      let next = steps.next();
      while (!next.done) {
        const step = next.value;
        const rows = 'rows' in step && step.rows.length === 0 ? [] : (await trx.executeQuery(compiled(step))).rows;
        next = steps.next(rows);
      }
      return next.value;
    });
}

/**
 * One statement that is a whole transaction by itself (on PostgreSQL, a call of a server-side
 * function doing the transaction's work), in portable SQL with `?` placeholders: run outside any
 * explicit transaction, so it commits on its own, in one round trip; prepared once per connection
 * under `name`. Rejected if the connection breaks: the statement's work is then whole or absent.
 */
export function fixedStatement(
  db: Extract<Db, { dialect: 'postgres' }>,
  name: string,
  text: string,
): (params: readonly unknown[]) => Promise<Rows> {
  const query = { name, text: numbered(text) };
  return async (params) => (await db.pool.query<Record<string, unknown>>({ ...query, values: params as unknown[] })).rows;
}

/** `make` of a statement's text (and a row count), made once per text and count (a bounded cache). */
function textCache(make: (text: string, count: number) => string): (text: string, count: number) => string {
  const texts = new Map<string, string>();
  return (text, count) => {
    const key = `${count} ${text}`;
    let made = texts.get(key);
    if (made === undefined) {
      made = make(text, count);
      if (texts.size >= 1000) texts.clear();
      texts.set(key, made);
    }
    return made;
  };
}

/** PostgreSQL numbers its placeholders: `?` becomes `$1`, `$2`, …. */
export function numbered(text: string): string {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
}

/** A one-row `insert … values (?, …)` as an insert of `count` rows. */
export function manyRows(text: string, count: number): string {
  const at = text.lastIndexOf('values (');
  if (at < 0 || !text.endsWith(')')) throw new Error(`not a one-row insert: ${text}`);
  const tuple = text.slice(at + 'values '.length);
  return `${text.slice(0, at)}values ${Array.from({ length: count }, () => tuple).join(', ')}`;
}
