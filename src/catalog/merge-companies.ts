import { type Kysely, sql, type Transaction } from 'kysely';
import { pointTables } from '../db/point-tables.js';
import type { Database } from '../db/schema.js';
import { bumpVersion } from '../db/versions.js';

/** What `companies merge` moved, as it prints it. */
export interface MergeSummary {
  merged: string;
  into: string;
  listings: number;
  documents: number;
  figures: number;
  purchases: number;
  identifiers: number;
  event_id: number;
}

/** A company with every identifier it answers to, as `companies show` prints it. */
export interface CompanyShown {
  company_id: string;
  name: string;
  country: string | null;
  lei: string | null;
  cik: string | null;
  /** CIKs and LEIs that came with merged companies, and the ids those companies had. */
  other_ciks: string[];
  other_leis: string[];
  former_ids: string[];
  listings: { ticker: string; mic_code: string; isin: string | null; is_primary: boolean }[];
  documents: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The company a former company_id was merged into, if `key` is one. */
async function mergedInto(db: Kysely<Database>, key: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('company_identifiers')
    .select('company_id')
    .where('kind', '=', 'company_id')
    .where('value', '=', key)
    .executeTakeFirst();
  return row?.company_id;
}

async function requireCompany(db: Kysely<Database>, id: string, role: string) {
  const key = id.trim().toLowerCase();
  if (!UUID.test(key)) throw new Error(`${role} "${id}" is not a company_id (UUID)`);
  const row = await db.selectFrom('companies').selectAll().where('company_id', '=', key).executeTakeFirst();
  if (row !== undefined) return row;
  const holder = await mergedInto(db, key);
  throw new Error(
    holder === undefined
      ? `${role} ${key}: no such company`
      : `${role} ${key} was merged into ${holder} already: name that company instead`,
  );
}

/**
 * `companies merge FROM INTO` (design §19.4): one transaction moves FROM's listings, documents,
 * figures and purchases to INTO, gives INTO FROM's CIK, LEI and id as identifiers of its own (so
 * every lookup by them, and every purchase made under FROM, finds INTO), rewrites the webhook
 * watchlists that named FROM, deletes FROM, and writes a `company.merged` event; INTO keeps its
 * name, and takes FROM's country only where it has none. A listing of FROM stays a secondary one
 * where INTO has a primary.
 */
export async function mergeCompanies(db: Kysely<Database>, fromId: string, intoId: string, now: Date): Promise<MergeSummary> {
  const from = await requireCompany(db, fromId, 'FROM');
  const into = await requireCompany(db, intoId, 'INTO');
  if (from.company_id === into.company_id) throw new Error('FROM and INTO are the same company');
  const tables = await pointTables(db);
  return db.transaction().execute(async (trx) => {
    // A write first: SQLite takes the write lock now, not when a later statement would upgrade it.
    await bumpVersion(trx, 'data');
    const move = async (table: 'listings' | 'documents' | 'event_marks') =>
      Number(
        (
          await trx
            .updateTable(table)
            .set({ company_id: into.company_id })
            .where('company_id', '=', from.company_id)
            .executeTakeFirst()
        ).numUpdatedRows,
      );
    const intoHasPrimary =
      (await trx
        .selectFrom('listings')
        .select('ticker')
        .where('company_id', '=', into.company_id)
        .where('is_primary', '=', 1)
        .executeTakeFirst()) !== undefined;
    if (intoHasPrimary)
      await trx.updateTable('listings').set({ is_primary: 0 }).where('company_id', '=', from.company_id).execute();
    const listings = await move('listings');
    const documents = await move('documents');
    let figures = 0;
    for (const t of tables) {
      const r =
        await sql`update ${sql.table(t.name)} set company_id = ${into.company_id} where company_id = ${from.company_id}`.execute(
          trx,
        );
      figures += Number(r.numAffectedRows ?? 0);
    }
    await move('event_marks');
    const purchases = await movePurchases(trx, from.company_id, into.company_id);
    const identifiers = await moveIdentifiers(trx, from, into);
    await rewriteWatchlists(trx, from.company_id, into.company_id);
    await trx.deleteFrom('companies').where('company_id', '=', from.company_id).execute();
    if (into.country === null && from.country !== null) {
      await trx.updateTable('companies').set({ country: from.country }).where('company_id', '=', into.company_id).execute();
    }
    const event = await trx
      .insertInto('events')
      .values({
        type: 'company.merged',
        occurred_at: now.toISOString(),
        company_id: into.company_id,
        merged_company_id: from.company_id,
        points_table: null,
        reporting_period: null,
        document_id: null,
        point_id: null,
      })
      .returning('event_id')
      .executeTakeFirstOrThrow();
    return {
      merged: from.company_id,
      into: into.company_id,
      listings,
      documents,
      figures,
      purchases,
      identifiers,
      event_id: Number(event.event_id),
    };
  });
}

/** An account's purchase under FROM becomes one under INTO (unless it bought INTO's period too): still bought. */
async function movePurchases(trx: Transaction<Database>, from: string, into: string): Promise<number> {
  const moved = await sql`update purchases set company_id = ${into}
    where company_id = ${from} and not exists (
      select 1 from purchases p where p.account_id = purchases.account_id and p.dataset = purchases.dataset
        and p.company_id = ${into} and p.reporting_period = purchases.reporting_period)`.execute(trx);
  await trx.deleteFrom('purchases').where('company_id', '=', from).execute();
  return Number(moved.numAffectedRows ?? 0);
}

/**
 * FROM's id, CIK and LEI become INTO's identifiers, and so do those FROM held from earlier merges
 * (a chain of merges resolves in one step). An LEI moves into INTO's own column where INTO has none.
 */
async function moveIdentifiers(
  trx: Transaction<Database>,
  from: Database['companies'],
  into: Database['companies'],
): Promise<number> {
  await trx
    .updateTable('company_identifiers')
    .set({ company_id: into.company_id })
    .where('company_id', '=', from.company_id)
    .execute();
  // Unique in companies: FROM's row lets go of its LEI and CIK before INTO or an identifier takes them.
  await trx.updateTable('companies').set({ lei: null, cik: null }).where('company_id', '=', from.company_id).execute();
  const added: { kind: 'company_id' | 'cik' | 'lei'; value: string; company_id: string }[] = [
    { kind: 'company_id', value: from.company_id, company_id: into.company_id },
  ];
  if (from.cik !== null) {
    if (into.cik === null)
      await trx.updateTable('companies').set({ cik: from.cik }).where('company_id', '=', into.company_id).execute();
    else added.push({ kind: 'cik', value: from.cik, company_id: into.company_id });
  }
  if (from.lei !== null) {
    if (into.lei === null)
      await trx.updateTable('companies').set({ lei: from.lei }).where('company_id', '=', into.company_id).execute();
    else added.push({ kind: 'lei', value: from.lei, company_id: into.company_id });
  }
  await trx.insertInto('company_identifiers').values(added).execute();
  return added.length;
}

/** A webhook watching FROM watches INTO from now on (named once). */
async function rewriteWatchlists(trx: Transaction<Database>, from: string, into: string): Promise<void> {
  const rows = await trx
    .selectFrom('webhook_endpoints')
    .select(['endpoint_id', 'company_ids'])
    .where('company_ids', 'like', `%${from}%`)
    .execute();
  for (const r of rows) {
    const ids = (r.company_ids ?? '').split(',');
    if (!ids.includes(from)) continue;
    const next = [...new Set(ids.map((id) => (id === from ? into : id)))].join(',');
    await trx.updateTable('webhook_endpoints').set({ company_ids: next }).where('endpoint_id', '=', r.endpoint_id).execute();
  }
}

/** `companies show ID`: the company of ID (a former id finds the company it was merged into). */
export async function showCompany(db: Kysely<Database>, id: string): Promise<CompanyShown> {
  const key = id.trim().toLowerCase();
  const company = await db
    .selectFrom('companies')
    .selectAll()
    .where('company_id', '=', (await mergedInto(db, key)) ?? key)
    .executeTakeFirst();
  if (company === undefined) throw new Error(`${id}: no such company`);
  const [identifiers, listings, documents] = await Promise.all([
    db
      .selectFrom('company_identifiers')
      .select(['kind', 'value'])
      .where('company_id', '=', company.company_id)
      .orderBy('kind')
      .orderBy('value')
      .execute(),
    db
      .selectFrom('listings')
      .select(['ticker', 'mic_code', 'isin', 'is_primary'])
      .where('company_id', '=', company.company_id)
      .orderBy('is_primary', 'desc')
      .orderBy('added_seq')
      .execute(),
    db
      .selectFrom('documents')
      .select((e) => e.fn.countAll<number>().as('n'))
      .where('company_id', '=', company.company_id)
      .executeTakeFirst(),
  ]);
  const of = (kind: string) => identifiers.filter((i) => i.kind === kind).map((i) => i.value);
  return {
    company_id: company.company_id,
    name: company.name,
    country: company.country,
    lei: company.lei,
    cik: company.cik,
    other_ciks: of('cik'),
    other_leis: of('lei'),
    former_ids: of('company_id'),
    listings: listings.map((l) => ({
      ticker: l.ticker,
      mic_code: l.mic_code,
      isin: l.isin,
      is_primary: Number(l.is_primary) === 1,
    })),
    documents: Number(documents?.n ?? 0),
  };
}
