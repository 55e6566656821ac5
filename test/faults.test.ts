import { describe, expect, inject, it } from 'vitest';
import { createAccount } from '../src/accounts/accounts.js';
import { createKey } from '../src/auth/api-keys.js';
import { connect } from '../src/db/connect.js';
import { migrate } from '../src/db/migrate.js';
import { importBundle } from '../src/ingest/sources/bundle/import-bundle.js';
import { runFaults } from '../src/tools/faults.js';
import { type ScratchDatabase, TOOL_SECRET } from '../src/tools/scratch-database.js';
import { BUNDLES, SUBSCRIPTIONS } from './support/datasets.js';
import { dialects } from './support/dialects.js';
import { FIXTURE_BUNDLE } from './support/test-app.js';
import { createTestDatabase } from './support/test-database.js';

/** The short version of `npm run faults` (docs/hardening.md has the full-size runs). */
const SECONDS = Number(process.env.CORPDATA_FAULTS_SECONDS ?? 12);

describe.each(dialects())('billing under faults (%s)', (dialect) => {
  it(`stays exact for ${SECONDS} s of billed load while instances are SIGKILLed and restarted${dialect === 'postgres' ? ' and connections cut' : ''}`, async () => {
    const database = await createTestDatabase(dialect);
    const db = connect(database.config);
    await migrate(db);
    await importBundle(db.kysely, FIXTURE_BUNDLE, BUNDLES);
    let n = 0;
    const scratch: ScratchDatabase = {
      url: database.url,
      config: database.config,
      db,
      adminUrl: dialect === 'postgres' ? (process.env.CORPDATA_TEST_PG_URL ?? inject('pgUrl')) : null,
      account: async (credits) => {
        n += 1;
        const a = await createAccount(db.kysely, { email: `faults${n}@example.com`, credits, now: new Date() }, SUBSCRIPTIONS);
        const k = await createKey(db.kysely, { accountId: a.account_id, name: 'f', secret: TOOL_SECRET, now: new Date() });
        return { accountId: a.account_id, key: k.api_key };
      },
      examples: async () => ({}),
      remove: async () => undefined,
    };
    try {
      const report = await runFaults({
        dialect,
        scratch,
        requests: 1_000_000,
        seconds: SECONDS,
        instances: dialect === 'postgres' ? 3 : 1,
        connections: 24,
        killEveryMs: 2500,
        cutEveryMs: 1500,
        seed: 7,
      });
      expect(report.discrepancies).toEqual([]);
      expect(report.crashes).toBe(0);
      expect(report.kills).toBeGreaterThan(0);
      expect(report.restarts).toBe(report.kills);
      if (dialect === 'postgres') expect(report.disconnects).toBeGreaterThan(0);
      for (const status of ['200', '204', '402', '404']) expect(report.byStatus[status] ?? 0, status).toBeGreaterThan(0);
      expect(report.charges).toBeGreaterThan(0);
    } finally {
      await db.close();
      await database.drop();
    }
  }, 120_000);
});
