import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { binDir } from '../scratch/throwaway-postgres.js';

const ACCOUNT = 'pgbench-debit';

/**
 * The floor a billed call is compared with on PostgreSQL: pgbench on the same server, each
 * transaction one guarded debit of one account's row (a statement of its own, prepared), with
 * `clients` connections all debiting that one row. Returns transactions per second.
 */
export async function pgbenchDebit(databaseUrl: string, clients: number, seconds: number): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `insert into accounts (account_id, email, balance, subscription, created_at)
       values ($1, $2, 1000000000000, 'revenues', $3) on conflict (account_id) do nothing`,
      [ACCOUNT, `${ACCOUNT}@example.com`, new Date().toISOString()],
    );
  } finally {
    await client.end();
  }
  const dir = mkdtempSync(join(tmpdir(), 'corpdata-pgbench-'));
  try {
    const script = join(dir, 'debit.sql');
    writeFileSync(script, `update accounts set balance = balance - 1 where account_id = '${ACCOUNT}' and balance >= 1;\n`);
    const args = ['-n', '-M', 'prepared', '-f', script, '-c', String(clients), '-j', String(Math.min(clients, 2))];
    const output = await new Promise<string>((resolve, reject) =>
      execFile(join(binDir(), 'pgbench'), [...args, '-T', String(seconds), databaseUrl], (error, stdout, stderr) =>
        error ? reject(new Error(`pgbench: ${stderr || error.message}`)) : resolve(stdout),
      ),
    );
    const tps = /tps = ([\d.]+)/.exec(output)?.[1];
    if (tps === undefined) throw new Error(`pgbench printed no tps: ${output}`);
    return Number(tps);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
