import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SUBSCRIPTIONS } from '../../test/support/datasets.js';
import { dialects } from '../../test/support/dialects.js';
import { freshDatabase } from '../../test/support/test-database.js';
import { createAccount } from '../accounts/accounts.js';
import { AdjustmentError, adjustCredits, checkReason, MAX_REASON_LENGTH, parseAdjustment } from './adjust-credits.js';
import { Biller } from './charge.js';
import { grantCredits, ledgerSum } from './ledger.js';

describe('the N of credits adjust', () => {
  it('reads every whole number but 0, with its sign', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }).filter((n) => n !== 0),
        (n) => {
          expect(parseAdjustment(String(n))).toBe(n);
          if (n > 0) expect(parseAdjustment(`+${n}`)).toBe(n);
        },
      ),
    );
  });

  it('refuses 0, fractions, words, exponents and numbers beyond the safe integers, saying why', () => {
    for (const text of ['0', '-0', '+0', '00']) expect(() => parseAdjustment(text)).toThrow(/must not be 0/);
    for (const text of ['1.5', '-1.5', 'abc', '', ' ', '1e3', '0x10', '--5', '5-', 'Infinity', '9007199254740993']) {
      expect(() => parseAdjustment(text), text).toThrow(/whole number of credits/);
    }
    fc.assert(
      fc.property(fc.string(), (text) => {
        fc.pre(!/^\s*[+-]?[0-9]+\s*$/.test(text));
        expect(() => parseAdjustment(text)).toThrow(AdjustmentError);
      }),
    );
  });

  it('needs a reason of 1 to 500 characters, kept trimmed', () => {
    expect(checkReason('  refund of a failed batch ')).toBe('refund of a failed batch');
    expect(() => checkReason('')).toThrow(/--reason must say why/);
    expect(() => checkReason(' \t\n ')).toThrow(/--reason must say why/);
    expect(checkReason('x'.repeat(MAX_REASON_LENGTH))).toHaveLength(MAX_REASON_LENGTH);
    expect(() => checkReason('x'.repeat(MAX_REASON_LENGTH + 1))).toThrow(/at most 500 characters/);
  });
});

type Op =
  | { kind: 'grant'; credits: number }
  | { kind: 'adjust'; amount: number }
  | { kind: 'charge'; price: number }
  | { kind: 'buy'; company: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('grant' as const), credits: fc.integer({ min: 1, max: 60 }) }),
  fc.record({
    kind: fc.constant('adjust' as const),
    amount: fc.integer({ min: -80, max: 60 }).filter((n) => n !== 0),
  }),
  fc.record({ kind: fc.constant('charge' as const), price: fc.constantFrom(1, 100) }),
  fc.record({ kind: fc.constant('buy' as const), company: fc.integer({ min: 0, max: 2 }) }),
);

describe.each(dialects())('credits adjust in the ledger (%s)', (dialect) => {
  const t = freshDatabase(dialect, { migrated: true });
  let n = 0;
  const account = async (credits: number) => {
    n += 1;
    const email = `adjust${n}-${Date.now()}@example.com`;
    return (await createAccount(t.db.kysely, { email, credits, now: new Date() }, SUBSCRIPTIONS)).account_id;
  };
  const linesOf = (id: string) =>
    t.db.kysely
      .selectFrom('ledger')
      .select(['amount', 'balance_after', 'kind', 'detail'])
      .where('account_id', '=', id)
      .orderBy('entry_id')
      .execute();

  it('writes one adjustment line with its reason, either sign, and refuses one below zero changing nothing', async () => {
    const id = await account(100);
    const at = new Date().toISOString();
    expect(await adjustCredits(t.db.kysely, { accountId: id, amount: -100, reason: ' wrong opening grant ', at })).toBe(0);
    expect(await adjustCredits(t.db.kysely, { accountId: id, amount: 7, reason: 'goodwill', at })).toBe(7);
    await expect(adjustCredits(t.db.kysely, { accountId: id, amount: -8, reason: 'too much', at })).rejects.toThrow(
      'adjusting by -8 would take the balance of 7 below zero; nothing changed',
    );
    await expect(adjustCredits(t.db.kysely, { accountId: id, amount: 5, reason: '  ', at })).rejects.toThrow(AdjustmentError);
    await expect(adjustCredits(t.db.kysely, { accountId: id, amount: 0, reason: 'nothing', at })).rejects.toThrow(
      AdjustmentError,
    );
    await expect(
      adjustCredits(t.db.kysely, { accountId: '00000000-0000-4000-8000-00000000dead', amount: 5, reason: 'x', at }),
    ).rejects.toThrow('no account 00000000-0000-4000-8000-00000000dead');
    expect((await linesOf(id)).map((l) => ({ ...l, amount: Number(l.amount), balance_after: Number(l.balance_after) }))).toEqual([
      { amount: 100, balance_after: 100, kind: 'grant', detail: null },
      { amount: -100, balance_after: 0, kind: 'adjustment', detail: 'wrong opening grant' },
      { amount: 7, balance_after: 7, kind: 'adjustment', detail: 'goodwill' },
    ]);
    expect(await ledgerSum(t.db.kysely, id)).toBe(7);
  });

  it('keeps balance = ledger sum ≥ 0 for any run of grants, adjustments and charges, concurrent ones included', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 80 }),
        fc.array(fc.array(opArb, { minLength: 1, maxLength: 4 }), { maxLength: 6 }),
        async (opening, rounds) => {
          const k = t.db.kysely;
          const biller = new Biller(t.db);
          const id = await account(opening);
          let expected = opening;
          let lines = opening > 0 ? 1 : 0;
          for (const round of rounds) {
            // Each round's operations run at once; whatever order they commit in, the sums must agree.
            const changes = await Promise.all(
              round.map(async (op): Promise<number | null> => {
                const at = new Date().toISOString();
                if (op.kind === 'grant') {
                  await grantCredits(k, id, op.credits, at);
                  return op.credits;
                }
                if (op.kind === 'adjust') {
                  try {
                    await adjustCredits(k, { accountId: id, amount: op.amount, reason: 'property', at });
                    return op.amount;
                  } catch (error) {
                    if (!(error instanceof AdjustmentError)) throw error;
                    expect(op.amount).toBeLessThan(0);
                    return null;
                  }
                }
                const base = { accountId: id, keyId: null, endpoint: 'test', requestId: 'r', at };
                const r =
                  op.kind === 'buy'
                    ? await biller.charge({
                        ...base,
                        price: 25,
                        purchase: { dataset: 'revenues', companyId: `c${op.company}`, period: 2024, repeatPrice: 1 },
                      })
                    : await biller.charge({ ...base, price: op.price });
                return r.ok ? -r.cost : null;
              }),
            );
            for (const change of changes) {
              if (change === null) continue;
              expected += change;
              lines += 1;
            }
            const row = await k.selectFrom('accounts').select('balance').where('account_id', '=', id).executeTakeFirstOrThrow();
            expect(Number(row.balance)).toBe(expected);
            expect(Number(row.balance)).toBeGreaterThanOrEqual(0);
            expect(await ledgerSum(k, id)).toBe(expected);
            // A refused adjustment or charge left no line; every line's balance is never negative.
            const written = await linesOf(id);
            expect(written).toHaveLength(lines);
            expect(written.every((l) => Number(l.balance_after) >= 0)).toBe(true);
          }
        },
      ),
      { numRuns: 30 },
    );
  });
});
