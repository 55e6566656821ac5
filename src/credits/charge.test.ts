import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SUBSCRIPTIONS } from '../../test/support/datasets.js';
import { dialects } from '../../test/support/dialects.js';
import { freshDatabase } from '../../test/support/test-database.js';
import { createAccount } from '../accounts/accounts.js';
import { Biller } from './charge.js';
import { grantCredits, ledgerSum } from './ledger.js';

type Op =
  | { kind: 'grant'; credits: number }
  | { kind: 'buy'; dataset: string; company: number; period: number }
  | { kind: 'flat'; price: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('grant' as const), credits: fc.integer({ min: 1, max: 60 }) }),
  fc.record({
    kind: fc.constant('buy' as const),
    dataset: fc.constantFrom('revenues', 'ghg-emissions'),
    company: fc.integer({ min: 0, max: 2 }),
    period: fc.integer({ min: 2022, max: 2024 }),
  }),
  fc.record({ kind: fc.constant('flat' as const), price: fc.constantFrom(1, 100) }),
);

describe.each(dialects())('ledger invariants (%s)', (dialect) => {
  const t = freshDatabase(dialect, { migrated: true });

  it('keeps balance = ledger sum ≥ 0 and charges 25 once per dataset and company-period, for any run of operations', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 80 }),
        fc.array(fc.array(opArb, { minLength: 1, maxLength: 4 }), { maxLength: 8 }),
        async (opening, rounds) => {
          n += 1;
          const k = t.db.kysely;
          const biller = new Biller(t.db);
          const account = await createAccount(
            k,
            { email: `p${n}-${Date.now()}@example.com`, credits: opening, now: new Date() },
            SUBSCRIPTIONS,
          );
          const id = account.account_id;
          let expected = opening;
          const bought = new Set<string>();
          for (const round of rounds) {
            // Each round's operations run concurrently; the model replays them in commit order.
            const results = await Promise.all(
              round.map(async (op) => {
                const at = new Date().toISOString();
                if (op.kind === 'grant')
                  return { op, balance: await grantCredits(k, id, op.credits, at), cost: -op.credits, ok: true };
                const base = { accountId: id, keyId: null, endpoint: 'test', requestId: 'r', at };
                const r =
                  op.kind === 'buy'
                    ? await biller.charge({
                        ...base,
                        price: 25,
                        purchase: { dataset: op.dataset, companyId: `c${op.company}`, period: op.period, repeatPrice: 1 },
                      })
                    : await biller.charge({ ...base, price: op.price });
                return { op, balance: r.balance, cost: r.cost, ok: r.ok };
              }),
            );
            const costsByKey = new Map<string, number[]>();
            for (const r of results) {
              if (!r.ok) continue;
              expected -= r.cost;
              if (r.op.kind === 'buy') {
                const key = `${r.op.dataset}:${r.op.company}:${r.op.period}`;
                costsByKey.set(key, [...(costsByKey.get(key) ?? []), r.cost]);
              }
            }
            // Concurrent buys of one company-period: at most one pays 25, and only if never bought.
            for (const [key, costs] of costsByKey) {
              const firsts = costs.filter((c) => c === 25).length;
              expect(firsts).toBe(bought.has(key) ? 0 : 1);
              expect(costs.filter((c) => c !== 25 && c !== 1)).toEqual([]);
              bought.add(key);
            }
            const row = await k.selectFrom('accounts').select('balance').where('account_id', '=', id).executeTakeFirstOrThrow();
            expect(Number(row.balance)).toBe(expected);
            expect(Number(row.balance)).toBeGreaterThanOrEqual(0);
            expect(await ledgerSum(k, id)).toBe(Number(row.balance));
          }
          const purchases = await k
            .selectFrom('purchases')
            .select(['company_id', 'reporting_period'])
            .where('account_id', '=', id)
            .execute();
          expect(purchases.length).toBe(bought.size);
        },
      ),
      { numRuns: 40 },
    );
  });
});
