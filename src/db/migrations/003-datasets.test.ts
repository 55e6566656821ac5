import { describe, expect, it } from 'vitest';
import { SUBSCRIPTIONS } from '../../../test/support/datasets.js';
import { dialects } from '../../../test/support/dialects.js';
import { freshDatabase } from '../../../test/support/test-database.js';
import { findAccount } from '../../accounts/accounts.js';
import * as initial from './001-initial.js';
import * as datasets from './003-datasets.js';

describe.each(dialects())('migration 003-datasets on a database in use (%s)', (dialect) => {
  const t = freshDatabase(dialect);

  it('turns old purchases into revenues purchases and the single subscription into a set', async () => {
    const k = t.db.kysely;
    await initial.up(k as never, dialect);
    const at = '2025-01-01T00:00:00.000Z';
    const account = (id: string, subscription: string) => ({
      account_id: id,
      email: `${id}@example.com`,
      balance: 0,
      subscription,
      password_hash: null,
      created_at: at,
    });
    await k
      .insertInto('accounts')
      .values([account('a-subscribed', 'revenues'), account('b-none', 'none')] as never)
      .execute();
    await k
      .insertInto('purchases')
      .values([
        { account_id: 'a-subscribed', company_id: 'c1', reporting_period: 2023, created_at: at },
        { account_id: 'b-none', company_id: 'c2', reporting_period: 2024, created_at: at },
      ] as never)
      .execute();

    await datasets.up(k as never, dialect);

    const purchases = await k.selectFrom('purchases').selectAll().orderBy('account_id').execute();
    expect(purchases).toEqual([
      { account_id: 'a-subscribed', dataset: 'revenues', company_id: 'c1', reporting_period: 2023, created_at: at },
      { account_id: 'b-none', dataset: 'revenues', company_id: 'c2', reporting_period: 2024, created_at: at },
    ]);
    expect(await findAccount(k, 'a-subscribed@example.com', SUBSCRIPTIONS)).toMatchObject({
      subscription: 'revenues',
      subscriptions: ['revenues'],
    });
    expect(await findAccount(k, 'b-none@example.com', SUBSCRIPTIONS)).toMatchObject({ subscription: 'none', subscriptions: [] });
    // The new key lets one company-period be bought once per dataset.
    await k
      .insertInto('purchases')
      .values({ account_id: 'a-subscribed', dataset: 'ghg-emissions', company_id: 'c1', reporting_period: 2023, created_at: at })
      .execute();
    await expect(
      k
        .insertInto('purchases')
        .values({
          account_id: 'a-subscribed',
          dataset: 'ghg-emissions',
          company_id: 'c1',
          reporting_period: 2023,
          created_at: at,
        })
        .execute(),
    ).rejects.toThrow();
  });
});
