import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SUBSCRIPTIONS } from '../../test/support/datasets.js';
import { dialects } from '../../test/support/dialects.js';
import { freshDatabase } from '../../test/support/test-database.js';
import { createAccount } from '../accounts/accounts.js';
import { Biller, type ChargeRequest } from './charge.js';
import { ledgerSum } from './ledger.js';

/** One part of a call: a company-period bought (25, or 1 if bought before) or a 204 (1). */
const partArb = fc.record({
  company: fc.constantFrom('c0', 'c1', 'c2'),
  period: fc.integer({ min: 2022, max: 2024 }),
  data: fc.boolean(),
});

describe.each(dialects())('all-or-nothing charges (%s)', (dialect) => {
  const t = freshDatabase(dialect, { migrated: true });

  it('charges every part as a single call would, in order, or nothing at all, for any calls and balance', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 120 }),
        fc.array(fc.array(partArb, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 5 }),
        async (opening, calls) => {
          n += 1;
          const biller = new Biller(t.db);
          const account = await createAccount(
            t.db.kysely,
            {
              email: `all${n}-${Date.now()}@example.com`,
              credits: opening,
              now: new Date(),
            },
            SUBSCRIPTIONS,
          );
          const id = account.account_id;
          let balance = opening;
          const bought = new Set<string>();
          for (const [c, parts] of calls.entries()) {
            const requests = parts.map(
              (p): ChargeRequest => ({
                accountId: id,
                keyId: null,
                endpoint: 'revenues/batch',
                price: p.data ? 25 : 1,
                ...(p.data
                  ? { purchase: { dataset: 'revenues', companyId: p.company, period: p.period, repeatPrice: 1 } }
                  : { subject: { companyId: p.company, period: p.period } }),
                requestId: `r${n}-${c}`,
                at: new Date().toISOString(),
              }),
            );
            // The model: each part priced in order, purchases made earlier in the same call counting.
            const seen = new Set(bought);
            let cost = 0;
            for (const p of parts) {
              const key = `${p.company}/${p.period}`;
              cost += p.data && !seen.has(key) ? 25 : 1;
              if (p.data) seen.add(key);
            }
            const result = await biller.chargeAll(requests);
            expect(result.cost).toBe(cost);
            if (cost <= balance) {
              expect(result).toEqual({ ok: true, cost, balance: balance - cost });
              balance -= cost;
              for (const key of seen) bought.add(key);
            } else {
              expect(result).toEqual({ ok: false, cost, balance });
            }
          }
          expect(await ledgerSum(t.db.kysely, id)).toBe(balance);
          const row = await t.db.kysely
            .selectFrom('accounts')
            .select('balance')
            .where('account_id', '=', id)
            .executeTakeFirstOrThrow();
          expect(Number(row.balance)).toBe(balance);
          const purchases = await t.db.kysely
            .selectFrom('purchases')
            .select(['company_id', 'reporting_period'])
            .where('account_id', '=', id)
            .execute();
          expect(new Set(purchases.map((p) => `${p.company_id}/${p.reporting_period}`))).toEqual(bought);
        },
      ),
      { numRuns: 40 },
    );
  }, 120_000);
});
