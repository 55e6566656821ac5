import type { Kysely } from 'kysely';
import { type OfferedSubscriptions, requireAccount } from '../accounts/accounts.js';
import { listAccounts } from '../accounts/list-accounts.js';
import { listKeys } from '../console/keys-query.js';
import { adjustCredits, parseAdjustment } from '../credits/adjust-credits.js';
import type { Database } from '../db/schema.js';
import type { FigureSpec } from '../ingest/core/figure-spec.js';

/**
 * The operator's look-ups and corrections (design §6): `accounts list`, `keys list`, `credits
 * adjust`, `check-data [--accept FILE]`. Each returns the one JSON object the command prints; the
 * composition root (main.ts) opens the database and prints it.
 */

/** `accounts list`: every account, as `accounts show` prints one, with its creation time; oldest first. */
export async function accountsList(db: Kysely<Database>, offered: OfferedSubscriptions) {
  return { accounts: await listAccounts(db, offered) };
}

/**
 * `keys list E|ID`: the account's keys, newest first, with what the console shows of them — the
 * first characters of the signature, by which an account holder can tell which key is meant —
 * and never the key itself, which is not stored (design §6).
 */
export async function keysList(db: Kysely<Database>, who: string, offered: OfferedSubscriptions) {
  const account = await requireAccount(db, who, offered);
  const keys = await listKeys(db, account.account_id, new Date());
  return {
    account_id: account.account_id,
    email: account.email,
    keys: keys.map((k) => ({
      key_id: k.keyId,
      name: k.name,
      signature_prefix: k.displayPrefix,
      created_at: k.createdAt,
      last_used_at: k.lastUsedAt,
      expires_at: k.expiresAt,
      revoked_at: k.revokedAt,
      status: k.status,
    })),
  };
}

/**
 * `credits adjust E|ID N --reason TEXT`: one `adjustment` ledger line of N credits, either sign,
 * never below a zero balance. N is read before the account is looked up; adjustCredits holds N
 * and the reason to its rules before it writes, so a mistyped command changes nothing whatever it
 * names.
 */
export async function creditsAdjust(
  db: Kysely<Database>,
  input: { who: string; n: string; reason: string | undefined },
  offered: OfferedSubscriptions,
) {
  const amount = parseAdjustment(input.n);
  const account = await requireAccount(db, input.who, offered);
  const reason = input.reason ?? '';
  const balance = await adjustCredits(db, { accountId: account.account_id, amount, reason, at: new Date().toISOString() });
  return { account_id: account.account_id, adjusted: amount, balance };
}

/**
 * `check-data [--accept FILE]`: the audit's report, findings FILE accepts counted apart. `fresh`
 * says whether any finding is left unreviewed (the command then exits 3).
 */
export async function checkDataReport(db: Kysely<Database>, specs: readonly FigureSpec[], acceptFile: string | undefined) {
  const { checkData } = await import('../quality/check-data.js');
  const { auditReport } = await import('../quality/findings.js');
  const { readAcceptFile, splitAccepted } = await import('../quality/accepted-findings.js');
  // Read first: a bad accept file is refused before the audit's minutes of reading.
  const accepted = acceptFile === undefined ? new Set<string>() : await readAcceptFile(acceptFile);
  const { findings, passedOver } = await checkData(db, specs);
  const split = splitAccepted(findings, accepted);
  const report = { ...auditReport(split.fresh, split.accepted), passed_over: passedOver };
  return { report, fresh: split.fresh.length > 0 };
}
