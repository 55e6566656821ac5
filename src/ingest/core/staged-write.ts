import { type Kysely, sql } from 'kysely';
import { withBulkSession } from '../../db/bulk-session.js';
import type { Database } from '../../db/schema.js';
import { bumpVersion, readVersions } from '../../db/versions.js';
import { applyStage } from './apply-stage.js';
import type { DatasetBundle } from './dataset-bundle.js';
import { ImportError, type ImportIssue } from './issues.js';
import { type Rates, rateKey } from './rates.js';
import { renormalize } from './renormalize.js';
import { createStage, dropStage, indexStage, type StageDb, type StageTables, StageWriter, stageOtherCiks } from './stage.js';
import { checkStage } from './stage-checks.js';
import { markServed, writeFigureEvents, writeFilingEvents } from './write-events.js';

/** What a write is busy with: reading (and staging) its input, checking the whole, writing it. */
export type ImportPhase = 'reading' | 'checking' | 'applying';

/** Stop reading after this many problems: the operator has enough to fix. */
export const MAX_ISSUES = 200;

/**
 * One source's reading: it streams its rows into the stage (converting figures with `rates`,
 * which a bundle's fx_rates.csv may extend as it is read) and returns the problems it met and
 * what it counted. `conn` is the stage's connection, for reading what the database already holds.
 */
export type StageFill<T> = (
  stage: StageDb,
  rates: Rates,
  conn: Kysely<Database>,
) => Promise<{ issues: ImportIssue[]; result: T }>;

export interface StagedWriteOptions {
  /** Called as each phase begins; the write waits for a returned promise before going on. */
  onPhase?: (phase: ImportPhase) => void | Promise<void>;
  /** Orders the problems for the operator (by file, then line). */
  sortIssues?: (issues: ImportIssue[]) => ImportIssue[];
  /** What the operator should do when another write overtook this one. */
  rerun?: string;
  /**
   * Further stages beside the core one (each dataset's own bundle file): created with it, checked
   * after it, applied in the same transaction, dropped with it, so the write stays whole or nothing.
   */
  extraStages?: readonly ExtraStage[];
}

/** A stage table of its own, filled by the source's reading (a dataset's bundle file). */
export type ExtraStage = Pick<DatasetBundle, 'stageTable' | 'createStage' | 'check' | 'apply' | 'figureTable' | 'usdStep'>;

async function loadRates(db: Kysely<Database>): Promise<Rates> {
  const rows = await db.selectFrom('fx_rates').select(['currency', 'year', 'usd_per_unit', 'source']).execute();
  return new Map(rows.map((r) => [rateKey(r.currency, r.year), { usdPerUnit: r.usd_per_unit, source: r.source }]));
}

/**
 * The one way data enters the database, whatever its source (a bundle, SEC filings): rows stream
 * into temporary tables, are checked as a whole, and only input without a single problem is
 * applied, in one transaction; otherwise {@link ImportError} lists the problems and nothing is
 * written. Applying is an upsert keyed by stable ids, so the same input twice changes nothing.
 *
 * Reading and checking take no write lock, so a running server keeps charging meanwhile (on
 * SQLite a long write transaction would stall every other writer); only applying is one write
 * transaction. Should another write commit in between, this one is refused rather than applied on
 * checks that no longer hold. `label` names the input in that refusal.
 */
export async function stagedWrite<T>(
  db: Kysely<Database>,
  label: string,
  fill: StageFill<T>,
  options: StagedWriteOptions = {},
): Promise<T & { renormalized: number }> {
  const extras = options.extraStages ?? [];
  // One connection throughout: temporary tables belong to the connection that made them.
  return db.connection().execute((conn) =>
    withBulkSession(conn, async () => {
      try {
        const startVersion = (await readVersions(conn)).data;
        const rates = await loadRates(conn);
        const previousRates = new Map(rates);
        const stage = await createStage(conn);
        for (const extra of extras) await extra.createStage(conn);
        await options.onPhase?.('reading');
        const { issues, result } = await fill(stage, rates, conn);
        if (issues.length === 0) {
          await options.onPhase?.('checking');
          await stageRates(stage, rates);
          await stageOtherCiks(stage);
          await indexStage(stage);
          issues.push(...(await checkStage(stage)));
          for (const extra of extras) issues.push(...(await extra.check(conn)));
        }
        if (issues.length > 0) {
          const sorted = options.sortIssues?.(issues) ?? issues;
          throw new ImportError(sorted.slice(0, MAX_ISSUES));
        }
        await options.onPhase?.('applying');
        const renormalized = await conn.transaction().execute(async (trx) => {
          // A write first, so SQLite takes the write lock now rather than failing to upgrade later.
          await bumpVersion(trx, 'data');
          if ((await readVersions(trx)).data !== startVersion + 1) {
            throw new ImportError([
              {
                file: label,
                line: 0,
                message: `another import changed the data while this one was checked: ${options.rerun ?? 'run it again'}`,
              },
            ]);
          }
          // The events of the change are written with it (design §20.3): an outbox, whole or nothing too.
          const at = new Date().toISOString();
          await writeFilingEvents(trx, at);
          await applyStage(trx.withTables<StageTables>());
          await markServed(trx, at);
          for (const extra of extras) await extra.apply(trx);
          await writeFigureEvents(trx, at);
          return renormalize(
            trx,
            previousRates,
            rates,
            extras.flatMap((e) => (e.figureTable === undefined ? [] : [{ table: e.figureTable, step: e.usdStep ?? 1 }])),
          );
        });
        return { ...result, renormalized };
      } finally {
        await dropStage(conn);
        for (const extra of extras) await sql`drop table if exists ${sql.table(extra.stageTable)}`.execute(conn);
      }
    }),
  );
}

/** The rates figures were converted with, so applying them stores each figure's rate beside it. */
async function stageRates(db: StageDb, rates: Rates): Promise<void> {
  const writer = new StageWriter(db, 'stage_rates');
  for (const [key, rate] of rates) {
    const [currency = '', year = ''] = key.split(':');
    await writer.add([currency, Number(year), rate.usdPerUnit, rate.source, 0]);
  }
  await writer.flush();
}
