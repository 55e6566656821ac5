import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../../test/support/dialects.js';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database.js';
import { connect, type Db } from './connect.js';
import { type FixedStep, fixedTransaction, manyRows, numbered, type Rows } from './fixed-transaction.js';

describe('fixed statements', () => {
  it('number ? placeholders for PostgreSQL and repeat a one-row insert tuple', () => {
    expect(numbered('update t set a = a - ? where id = ? and a >= ?')).toBe('update t set a = a - $1 where id = $2 and a >= $3');
    expect(manyRows('insert into t (a, b) values (?, ?)', 3)).toBe('insert into t (a, b) values (?, ?), (?, ?), (?, ?)');
    expect(() => manyRows('update t set a = ?', 2)).toThrow();
  });
});

describe.each(dialects())('fixedTransaction (%s)', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    db = connect(database.config);
    await sql`create table fixed_t (id integer primary key, v text not null)`.execute(db.kysely);
  });
  afterAll(async () => {
    await db.close();
    await database.drop();
  });
  const count = async () => Number((await sql<{ n: number }>`select count(*) as n from fixed_t`.execute(db.kysely)).rows[0]?.n);

  it('runs the steps in order, hands each its rows, and inserts many rows with one step', async () => {
    const run = fixedTransaction(db);
    const result = await run(function* (): Generator<FixedStep, string, Rows> {
      yield {
        text: 'insert into fixed_t (id, v) values (?, ?)',
        rows: [
          [1, 'a'],
          [2, 'b'],
          [3, 'c'],
        ],
      };
      yield { text: 'insert into fixed_t (id, v) values (?, ?)', rows: [] };
      const updated = yield { text: 'update fixed_t set v = ? where id = ? returning v', params: ['z', 2] };
      const none = yield { text: 'delete from fixed_t where id = ?', params: [99] };
      return `${String(updated[0]?.v)} ${none.length}`;
    });
    expect(result).toBe('z 0');
    expect(await count()).toBe(3);
  });

  it('rolls everything back when a step or the logic throws', async () => {
    const run = fixedTransaction(db);
    const before = await count();
    await expect(
      run(function* (): Generator<FixedStep, void, Rows> {
        yield { text: 'insert into fixed_t (id, v) values (?, ?)', params: [10, 'x'] };
        yield { text: 'insert into fixed_t (id, v) values (?, ?)', params: [10, 'duplicate'] };
      }),
    ).rejects.toThrow();
    await expect(
      run(function* (): Generator<FixedStep, void, Rows> {
        yield { text: 'insert into fixed_t (id, v) values (?, ?)', params: [11, 'x'] };
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await count()).toBe(before);
  });

  it('never joins a Kysely transaction in flight: each commits or rolls back on its own', async () => {
    const run = fixedTransaction(db);
    const held = signal();
    const begun = signal();
    const other = db.kysely.transaction().execute(async (trx) => {
      await sql`insert into fixed_t (id, v) values (20, 'other')`.execute(trx);
      begun.fire();
      await held.promise;
      throw new Error('other rolls back');
    });
    await begun.promise;
    const mine = run(function* (): Generator<FixedStep, void, Rows> {
      yield { text: 'insert into fixed_t (id, v) values (?, ?)', params: [21, 'mine'] };
    });
    held.fire();
    await expect(other).rejects.toThrow('other rolls back');
    await mine;
    const ids = await sql<{ id: number }>`select id from fixed_t where id in (20, 21)`.execute(db.kysely);
    expect(ids.rows.map((r) => Number(r.id))).toEqual([21]);
  });

  it('commits at once while the connection is held outside a transaction (an import reading its input)', async () => {
    const run = fixedTransaction(db);
    const held = signal();
    const holding = signal();
    const reader = db.kysely.connection().execute(async (conn) => {
      await sql`select count(*) from fixed_t`.execute(conn);
      holding.fire();
      await held.promise;
    });
    await holding.promise;
    const mine = run(function* (): Generator<FixedStep, void, Rows> {
      yield { text: 'insert into fixed_t (id, v) values (?, ?)', params: [30, 'at once'] };
    }).then(() => 'committed');
    const waited = new Promise((resolve) => setTimeout(() => resolve('waited for the connection'), 2_000));
    expect(await Promise.race([mine, waited])).toBe('committed');
    held.fire();
    await reader;
    const ids = await sql<{ id: number }>`select id from fixed_t where id = 30`.execute(db.kysely);
    expect(ids.rows).toHaveLength(1);
  });
});

/** A promise and the function that resolves it. */
function signal(): { promise: Promise<void>; fire(): void } {
  let fire = () => {};
  const promise = new Promise<void>((resolve) => {
    fire = resolve;
  });
  return { promise, fire };
}
