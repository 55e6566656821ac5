import type { Config } from '../config.js';
import type { Dataset } from '../datasets/dataset.js';
import { bundlesOf } from '../datasets/dataset-list.js';
import { signingSecret } from '../db/migrate.js';
import { datasetTables } from '../events/event-record.js';
import { Deliverer, deliveryLoop } from '../webhooks/delivery.js';
import { SecretBox } from '../webhooks/signing.js';
import { openDatabase } from './open-database.js';

/**
 * `bin/corpdata deliver` (design §20.4): delivers webhooks until SIGTERM or SIGINT, then finishes
 * the round in hand (its deliveries sent and logged) and exits 0. Runs beside `serve` instances or
 * instead of them (`CORPDATA_WEBHOOK_SERVE_DELIVERS=off`).
 */
export async function deliver(config: Config, datasets: readonly Dataset[]): Promise<void> {
  const { db } = await openDatabase(config, bundlesOf(datasets));
  const secret = await signingSecret(db.kysely, config.secret);
  const report = (error: unknown) => process.stderr.write(`corpdata: ${(error as Error).message}\n`);
  const deliverer = new Deliverer({
    db: db.kysely,
    dialect: db.dialect,
    config: config.webhooks,
    box: new SecretBox(secret),
    byTable: datasetTables(datasets).byTable,
    onError: report,
  });
  const loop = deliveryLoop(deliverer, config.webhooks.pollMs, report);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await loop.stop();
    await db.close();
    process.stdout.write(`${JSON.stringify({ stopped: true })}\n`);
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}
