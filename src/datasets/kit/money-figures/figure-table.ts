import type { FigureTableName } from '../../../db/schema.js';

/**
 * A figure table aliased `p`, as the kit's joins name it. Every figure table has the same columns
 * (`FigurePointTable`), so a query over any of them is typed as it is written.
 */
export const figureTableAsP = (table: FigureTableName): `${FigureTableName} as p` => `${table} as p`;
