/**
 * A figure table as Kysely's types know it: every one has exactly `revenue_points`' columns, so
 * queries are written once against that shape and run on the dataset's own table.
 */
export function figureTable(table: string): 'revenue_points' {
  return table as 'revenue_points';
}

/** The same table aliased `p`, as the kit's joins name it. */
export function figureTableAsP(table: string): 'revenue_points as p' {
  return `${table} as p` as 'revenue_points as p';
}
