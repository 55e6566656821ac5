import { type Kysely, type RawBuilder, sql } from 'kysely';

/** A table of data points, found by its columns, and how its points' values are fingerprinted. */
export interface PointTable {
  readonly name: string;
  /** SQL of one row's value as text (unqualified columns): equal fingerprints, the same figure. */
  readonly fingerprint: RawBuilder<string>;
}

const KEY = ['point_id', 'company_id', 'document_id', 'reporting_period'];

const text = (column: string) => sql<string>`coalesce(cast(${sql.ref(column)} as text), '')`;

/**
 * Every table of data points: those with a point id, company, document and period (each dataset's
 * own, whatever its name: the money figure tables, emissions, one a test composes). Found from the
 * schema, so events (design §20.3) follow a new dataset without a line here. A point's value is
 * what of `scope`, `value`, `original_value` (its USD value when it has none) and `original_ccy`
 * the table holds; its USD value alone moves with FX rates, which is no new figure.
 */
export async function pointTables<DB>(db: Kysely<DB>): Promise<PointTable[]> {
  const tables = await db.introspection.getTables();
  return (
    tables
      // The events table names points but holds none.
      .filter((t) => !t.isView && t.name !== 'events' && KEY.every((k) => t.columns.some((c) => c.name === k)))
      .map((t) => {
        const has = (c: string) => t.columns.some((x) => x.name === c);
        const parts: RawBuilder<string>[] = [];
        if (has('scope')) parts.push(text('scope'));
        if (has('value')) parts.push(text('value'));
        if (has('original_value') && has('value_usd'))
          parts.push(sql<string>`coalesce(cast(original_value as text), cast(value_usd as text), '')`);
        if (has('original_ccy')) parts.push(text('original_ccy'));
        const fingerprint = parts.length === 0 ? sql<string>`''` : sql<string>`${sql.join(parts, sql` || '|' || `)}`;
        return { name: t.name, fingerprint };
      })
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  );
}
