import { CompiledQuery } from 'kysely';
import type { Dialect } from './connect.js';

/**
 * A hot-path statement written once in portable SQL with `?` placeholders and compiled once per
 * dialect: building a query with Kysely's builder costs more than running it on SQLite, and a
 * billed call runs three. PostgreSQL numbers its placeholders, so `?` becomes `$1`, `$2`, ….
 */
export function fixedQuery<Row>(dialect: Dialect, text: string): (params: readonly unknown[]) => CompiledQuery<Row> {
  let n = 0;
  const sql = dialect === 'postgres' ? text.replace(/\?/g, () => `$${++n}`) : text;
  return (params) => CompiledQuery.raw(sql, params as unknown[]) as CompiledQuery<Row>;
}
