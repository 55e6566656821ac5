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
 * prepared (SQLite, through the connection's statement cache) or rewritten (PostgreSQL) once per text.
 *
 * - SQLite: the whole transaction runs synchronously in one better-sqlite3 transaction, while
 *   holding Kysely's connection, so it never interleaves with (or nests into) a Kysely transaction
 *   in flight on the same connection. A one-row insert is one prepared statement run per row.
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
  return <T>(work: FixedWork<T>) => db.kysely.connection().execute(async () => inTransaction.immediate(work) as T);
}

function postgresTransaction(db: Db): FixedTransaction {
  const texts = new Map<string, string>();
  const compiled = (step: FixedStep): CompiledQuery<Record<string, unknown>> => {
    if (!('rows' in step)) return CompiledQuery.raw(numbered(step.text), step.params as unknown[]);
    const key = `${step.rows.length} ${step.text}`;
    let text = texts.get(key);
    if (text === undefined) {
      text = numbered(manyRows(step.text, step.rows.length));
      if (texts.size >= 1000) texts.clear();
      texts.set(key, text);
    }
    return CompiledQuery.raw(text, step.rows.flat() as unknown[]);
  };
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
