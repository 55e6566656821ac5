import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../connect.js';

/**
 * PostgreSQL: `charge_batch` debits an account whose calls of the batch are all affordable with one
 * guarded update (`balance >= total`), which locks the row and charges them all, instead of a
 * no-op update to lock the row followed by the debit: one statement, one new row version and one
 * WAL record fewer per account and batch. Only when that update finds no row (too few credits, or
 * no such account) does it lock the row and price the calls one by one as before (009), with the
 * same outcomes. Its settings are said again (a `create or replace` drops them): one generic plan
 * per statement (015). Measured on a throwaway server, one batch of ten repeat calls after another
 * on one connection: 0.64–0.73 ms of the server's CPU a batch against 0.72–0.74 ms, and 420–690
 * batches a second against 430–470 (docs/search-and-hot-path.md, "What a call costs").
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`
create or replace function charge_batch(
  p_account text[], p_key text[], p_endpoint text[], p_price bigint[],
  p_dataset text[], p_company text[], p_period integer[], p_repeat_price bigint[],
  p_subject_company text[], p_subject_period integer[], p_request text[], p_at text[], p_touch boolean[],
  p_first integer[], p_buys integer[], p_accounts text[], p_detail text[]
) returns table (outcome smallint, cost bigint, balance bigint, last_entry bigint)
language plpgsql
set plan_cache_mode = force_generic_plan
as $fn$
declare
  n constant integer := coalesce(array_length(p_account, 1), 0);
  v_cost bigint[] := p_price;
  v_bought boolean[] := array_fill(false, array[n]);
  v_voided boolean[] := array_fill(false, array[n]);
  v_balance bigint[] := array_fill(-1::bigint, array[n]);
  v_outcome smallint[] := array_fill(0::smallint, array[n]);
  v_account text;
  v_opening bigint;
  v_left bigint;
  v_locked boolean;
  v_debited bigint;
  v_total bigint;
  v_last_entry bigint;
  i integer;
  r record;
begin
  if n = 0 then
    return;
  end if;
  foreach i in array p_buys loop
    insert into purchases (account_id, dataset, company_id, reporting_period, created_at)
    values (p_account[i], p_dataset[i], p_company[i], p_period[i], p_at[i])
    on conflict (account_id, dataset, company_id, reporting_period) do nothing;
    v_bought[i] := found;
  end loop;
  for i in 1 .. n loop
    if p_dataset[i] is not null and not v_bought[i] then
      v_cost[i] := p_repeat_price[i];
    end if;
  end loop;
  foreach v_account in array p_accounts loop
    v_total := 0;
    for i in 1 .. n loop
      if p_account[i] = v_account then
        v_total := v_total + v_cost[i];
      end if;
    end loop;
    -- Every call of the account affordable (the usual case): one guarded debit locks its row and
    -- charges them all, each call's balance counted down from the balance before it.
    update accounts set balance = accounts.balance - v_total
    where account_id = v_account and accounts.balance >= v_total
    returning accounts.balance into v_debited;
    if found then
      v_left := v_debited + v_total;
      for i in 1 .. n loop
        continue when p_account[i] <> v_account;
        v_left := v_left - v_cost[i];
        v_outcome[i] := 1;
        v_balance[i] := v_left;
      end loop;
      continue;
    end if;
    -- Not all affordable, or no such account: a no-op write locks the row and reads its balance,
    -- and the calls are priced one by one in arrival order.
    update accounts set balance = accounts.balance where account_id = v_account returning accounts.balance into v_opening;
    v_locked := found;
    v_opening := coalesce(v_opening, 0);
    v_left := v_opening;
    for i in 1 .. n loop
      continue when p_account[i] <> v_account;
      if p_first[i] is not null and v_voided[p_first[i]] then
        v_outcome[i] := 2;
        continue;
      end if;
      if v_locked and v_left >= v_cost[i] then
        v_left := v_left - v_cost[i];
        v_outcome[i] := 1;
        v_balance[i] := v_left;
        continue;
      end if;
      v_balance[i] := v_left;
      if v_bought[i] then
        delete from purchases
        where account_id = v_account and dataset = p_dataset[i] and company_id = p_company[i]
          and reporting_period = p_period[i];
        v_voided[i] := true;
      end if;
    end loop;
    if v_opening - v_left > 0 then
      update accounts set balance = accounts.balance - (v_opening - v_left)
      where account_id = v_account and accounts.balance >= v_opening - v_left
      returning accounts.balance into v_debited;
      if v_debited is distinct from v_left then
        raise exception 'balance of % moved under its lock', v_account;
      end if;
    end if;
  end loop;
  with lines as (
    insert into ledger (account_id, amount, balance_after, kind, endpoint, key_id, company_id, reporting_period,
      request_id, created_at, detail)
    select p_account[s.i], -v_cost[s.i], v_balance[s.i], 'charge', p_endpoint[s.i], p_key[s.i], p_subject_company[s.i],
      p_subject_period[s.i], p_request[s.i], p_at[s.i], p_detail[s.i]
    from generate_series(1, n) as s(i)
    where v_outcome[s.i] = 1
    order by array_position(p_accounts, p_account[s.i]), s.i
    returning entry_id
  )
  select max(entry_id) into v_last_entry from lines;
  -- Each key's last use: the time of its last charged call that asks for it.
  if true = any(p_touch) then
    for r in
      select k.key_id, k.at from (
        select distinct on (p_key[s.i]) p_key[s.i] as key_id, p_at[s.i] as at
        from generate_series(1, n) as s(i)
        where p_key[s.i] is not null and coalesce(p_touch[s.i], false) and v_outcome[s.i] = 1
        order by p_key[s.i], s.i desc
      ) as k
      order by k.key_id collate "C"
    loop
      update api_keys set last_used_at = r.at where key_id = r.key_id;
    end loop;
  end if;
  return query select v_outcome[s.i], v_cost[s.i], v_balance[s.i], v_last_entry from generate_series(1, n) as s(i) order by s.i;
end
$fn$`.execute(db);
}
