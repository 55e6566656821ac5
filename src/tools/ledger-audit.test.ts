import { describe, expect, it } from 'vitest';
import { SUBSCRIPTIONS } from '../../test/support/datasets.js';
import { dialects } from '../../test/support/dialects.js';
import { freshDatabase } from '../../test/support/test-database.js';
import { createAccount } from '../accounts/accounts.js';
import { Biller, type ChargeRequest } from '../credits/charge.js';
import { auditLedger } from './ledger-audit.js';

describe.each(dialects())('the ledger audit of a run (%s)', (dialect) => {
  const t = freshDatabase(dialect, { migrated: true });

  async function funded(email: string) {
    const account = await createAccount(t.db.kysely, { email, credits: 1000, now: new Date() }, SUBSCRIPTIONS);
    return account.account_id;
  }
  const part = (accountId: string, requestId: string, endpoint: string, dataset: string): ChargeRequest => ({
    accountId,
    keyId: null,
    endpoint,
    price: 25,
    purchase: { dataset, companyId: 'c0', period: 2024, repeatPrice: 1 },
    requestId,
    at: new Date().toISOString(),
  });

  it('takes a statement call, one line per item under one request id, as one charge of several parts', async () => {
    const id = await funded(`audit-statement-${Date.now()}@example.com`);
    const result = await new Biller(t.db).chargeAll([
      part(id, 'statement-1', 'revenues/fundamentals', 'revenues'),
      part(id, 'statement-1', 'net-income/fundamentals', 'net-income'),
    ]);
    expect(result.ok).toBe(true);
    const report = await auditLedger(t.db.kysely, {
      byRequestId: new Map([['statement-1', { status: 200, cost: 50, balance: 950 }]]),
      unanswered: 0,
    });
    expect(report.discrepancies).toEqual([]);
    expect(report.multiPart).toBeGreaterThanOrEqual(1);
  });

  it('names a single call whose request id has two charges', async () => {
    const id = await funded(`audit-twice-${Date.now()}@example.com`);
    const biller = new Biller(t.db);
    await biller.chargeAll([part(id, 'single-1', 'revenues', 'revenues')]);
    await biller.chargeAll([{ ...part(id, 'single-1', 'revenues', 'revenues'), price: 1 }]);
    const report = await auditLedger(t.db.kysely, { byRequestId: new Map(), unanswered: 2 });
    expect(report.discrepancies).toContain('request single-1 charged twice');
  });
});
