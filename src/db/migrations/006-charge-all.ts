import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../connect.js';

/**
 * PostgreSQL: `charge_all`, the all-or-nothing charge of one call that buys several
 * company-periods (a dataset's history or batch): `charge_batch` (migration 005) run inside a
 * block of its own, whose work is undone when any of its calls was not charged. Same arguments,
 * same rows: each call's outcome, cost and balance as `charge_batch` priced it, so that a refusal
 * can say what the call would have cost; `last_entry` is null when the block was undone. One
 * statement, one round trip, one transaction; the locks are `charge_batch`'s, in its global order.
 *
 * SQLite has no server-side functions: it runs `chargeBatch` (credits/charge-batch.ts) in a
 * transaction that rolls back instead (credits/charge-all.ts).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`
create or replace function charge_all(
  p_account text[], p_key text[], p_endpoint text[], p_price bigint[],
  p_dataset text[], p_company text[], p_period integer[], p_repeat_price bigint[],
  p_subject_company text[], p_subject_period integer[], p_request text[], p_at text[], p_touch boolean[],
  p_first integer[], p_buys integer[], p_accounts text[]
) returns table (outcome smallint, cost bigint, balance bigint, last_entry bigint)
language plpgsql as $fn$
declare
  v_outcome smallint[];
  v_cost bigint[];
  v_balance bigint[];
  v_last bigint;
begin
  begin
    select array_agg(c.outcome order by c.ord), array_agg(c.cost order by c.ord), array_agg(c.balance order by c.ord),
      max(c.last_entry)
    into v_outcome, v_cost, v_balance, v_last
    from charge_batch(p_account, p_key, p_endpoint, p_price, p_dataset, p_company, p_period, p_repeat_price,
      p_subject_company, p_subject_period, p_request, p_at, p_touch, p_first, p_buys, p_accounts)
      with ordinality as c(outcome, cost, balance, last_entry, ord);
    if exists (select 1 from unnest(v_outcome) as o(v) where o.v <> 1) then
      -- Undoes the block's work (purchases, debits, ledger lines); the variables keep their values.
      raise exception 'charge_all: not every call was charged' using errcode = 'CD402';
    end if;
  exception when sqlstate 'CD402' then
    v_last := null;
  end;
  return query
  select v_outcome[s.i], v_cost[s.i], v_balance[s.i], v_last
  from generate_series(1, coalesce(array_length(v_outcome, 1), 0)) as s(i)
  order by s.i;
end
$fn$`.execute(db);
}
