import { Command, InvalidArgumentError } from 'commander';
import { checkSubscriptions, createAccount, requireAccount, setSubscriptions } from '../accounts/accounts.js';
import { createKey, revokeKey } from '../auth/api-keys.js';
import { TEST_TOKEN } from '../auth/test-token.js';
import { loadConfig } from '../config.js';
import { grantCredits } from '../credits/ledger.js';
import { bundlesOf, figureSpecsOf, subscriptionsOf } from '../datasets/dataset-list.js';
import { DATASETS } from '../datasets/registry.js';
import { signingSecret } from '../db/migrate.js';
import { pruneEvents } from '../events/event-feed.js';
import { SOURCES } from '../ingest/registry.js';
import { ImportError } from '../ingest/sources/bundle/bundle-files.js';
import type { SyncSummary } from '../ingest/sources/source.js';
import { openDatabase } from './open-database.js';

/** The CLI composes the datasets as `buildApp` does: the subscriptions and bundle files come from them. */
const SUBSCRIPTIONS = subscriptionsOf(DATASETS);
const BUNDLES = bundlesOf(DATASETS);

/** The datasets whose figures are read from filings (design §10, §17): every filings ingest fills each of them. */
const FIGURE_SPECS = figureSpecsOf(DATASETS);

/** Every source's `ingest` commands (design §15), from the list of sources. */
const INGEST_COMMANDS = SOURCES.flatMap((s) => s.ingest);

/** The listing and audit commands, loaded on use. */
const operatorCommands = () => import('./operator-commands.js');

/** A failure to report on one stderr line with a non-zero exit. */
class CliError extends Error {}

function print(value: object): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

function wholeNumber(name: string, min: number) {
  return (value: string): number => {
    if (!/^[0-9]+$/.test(value) || !Number.isSafeInteger(Number(value)) || Number(value) < min) {
      throw new InvalidArgumentError(`${name} must be a whole number ≥ ${min}.`);
    }
    return Number(value);
  };
}

/**
 * Runs one command against the configured database and closes it afterwards. `bulk` lifts the
 * per-statement timeout (PostgreSQL): moving a million rows takes statements of many seconds.
 */
async function withDatabase<T>(
  run: (db: Awaited<ReturnType<typeof openDatabase>>) => Promise<T>,
  options: { bulk?: boolean } = {},
): Promise<T> {
  const config = loadConfig();
  const opened = await openDatabase(options.bulk === true ? { ...config, statementTimeoutMs: 0 } : config, BUNDLES);
  try {
    return await run(opened);
  } finally {
    await opened.db.close();
  }
}

/**
 * Runs a sync against the configured database; another sync holding it is not a failure but a
 * "try again later" (exit 75, design §15), told on stderr.
 */
async function withSyncDatabase(run: (db: Awaited<ReturnType<typeof openDatabase>>) => Promise<SyncSummary>): Promise<void> {
  const { SyncBusyError, SYNC_BUSY_EXIT, SYNC_UNAVAILABLE_EXIT, syncFailure } = await import('./run-sync.js');
  try {
    const summary = await withDatabase(run, { bulk: true });
    print(summary);
    // Printed all the same: the counts say what failed; the exit tells a scheduler it did.
    const failure = syncFailure(summary.requests);
    if (failure !== null) {
      process.stderr.write(`corpdata: ${failure}\n`);
      process.exitCode = SYNC_UNAVAILABLE_EXIT;
    }
  } catch (error) {
    if (!(error instanceof SyncBusyError)) throw error;
    process.stderr.write(`corpdata: ${error.message}\n`);
    process.exitCode = SYNC_BUSY_EXIT;
  }
}

const program = new Command()
  .name('corpdata')
  .description('Operator interface of corpdata. Every command prints one JSON object on success.')
  // A failure is one line on stderr (design §6); `--help` shows the usage.
  .configureOutput({ outputError: (line, write) => write(`corpdata: ${line.replace(/^error: /, '').trim()}\n`) });

program
  .command('serve')
  .description('Serve the HTTP API (PORT, default 8080; HOST, default 0.0.0.0).')
  // Loaded on use, like every command's heavier parts: each other command starts without the web app.
  .action(async () => (await import('./serve.js')).serve(loadConfig(), DATASETS));

program
  .command('migrate')
  .description('Create or upgrade the schema (a fresh database gets the demo data unless CORPDATA_DEMO=off).')
  .action(() => withDatabase(async ({ applied, seeded }) => print({ migrated: applied, seeded })));

program
  .command('import')
  .argument('<dir>', 'bundle folder')
  .description('Import a bundle, whole or not at all.')
  .action(async (dir: string) => {
    const { runImport } = await import('./run-import.js');
    await withDatabase(async ({ db }) => print(await runImport(db.kysely, dir, BUNDLES)), { bulk: true });
  });

program
  .command('export')
  .argument('<dir>', 'folder to write the bundle into')
  .description('Write the catalog and revenue data out as an import bundle.')
  .action(async (dir: string) => {
    const { exportBundle } = await import('../ingest/sources/bundle/export-bundle.js');
    await withDatabase(async ({ db }) => print(await exportBundle(db.kysely, dir, BUNDLES)), { bulk: true });
  });

program
  .command('ingest')
  .argument('<source>', INGEST_COMMANDS.map((c) => `${c.name} (${c.input})`).join(', '))
  .argument('<paths...>', 'input files or folders')
  .description(
    'Ingest the files of a source (filings, ticker files, indexes), whole or not at all; prints counts of what was added and skipped.',
  )
  .action(async (source: string, paths: string[]) => {
    const command = INGEST_COMMANDS.find((c) => c.name === source);
    if (command === undefined) {
      throw new InvalidArgumentError(`unknown source "${source}": use ${INGEST_COMMANDS.map((c) => c.name).join(', ')}`);
    }
    const { progress } = await import('./run-ingest.js');
    await withDatabase(
      async ({ db }) =>
        print(
          await command.run({
            db: db.kysely,
            paths,
            limits: loadConfig().ingest,
            specs: FIGURE_SPECS,
            progress: (what) => progress(source, what),
          }),
        ),
      { bulk: true },
    );
  });

const sync = program
  .command('sync')
  .description('Fetch what is new or changed at a source and ingest it (one sync per database at a time).');
for (const source of SOURCES) {
  if (source.sync === undefined) continue;
  const command = sync.command(source.name).description(source.sync.description);
  for (const option of source.sync.options) command.option(option.flags, option.description);
  command.action(async (opts: Record<string, unknown>) => {
    // Each source reads its own variables (CORPDATA_SEC_…), refusing a malformed one.
    const config = loadConfig(process.env, SOURCES);
    const prepare = config.sections.get(source.name)?.sync;
    if (prepare === undefined) throw new CliError(`source ${source.name} has no sync`);
    const job = await prepare(opts);
    // Loaded on use, like the syncs it runs.
    const { runSync } = await import('./run-sync.js');
    await withSyncDatabase(({ db }) => runSync(db.kysely, config, source.name, job, FIGURE_SPECS));
  });
}

program
  .command('check-data')
  .option('--accept <file>', 'a report of findings reviewed already (check-data > FILE writes one): only others make it exit 3')
  .description(
    'Audit the data: findings as JSON (same name and country, tenfold changes, concept switches, misattributed or unused documents); exit 3 when there are any not accepted.',
  )
  .action((opts: { accept?: string }) =>
    withDatabase(async ({ db }) => {
      const { report, fresh } = await (await operatorCommands()).checkDataReport(db.kysely, FIGURE_SPECS, opts.accept);
      print(report);
      // Findings are not a failure of the command: a distinct code lets a script tell them apart.
      if (fresh) process.exitCode = 3;
    }),
  );

program
  .command('backup')
  .argument('<file>', 'a new file to write the copy into')
  .description('Copy a live SQLite database (online backup); PostgreSQL: use pg_dump.')
  .action(async (file: string) => {
    const { backupDatabase } = await import('./backup.js');
    print(await backupDatabase(loadConfig().database, file));
  });

program
  .command('deliver')
  .description(
    'Deliver webhooks until SIGTERM (design §20.4); serve instances deliver too unless CORPDATA_WEBHOOK_SERVE_DELIVERS=off.',
  )
  .action(async () => {
    const { deliver } = await import('./deliver.js');
    await deliver(loadConfig(), DATASETS);
  });

program
  .command('prune-events')
  .option(
    '--days <n>',
    'keep the events of the last n days (default CORPDATA_EVENT_RETENTION_DAYS, 90)',
    wholeNumber('--days', 1),
  )
  .description('Delete events older than the retention period (design §20.3); prints how many.')
  .action((options: { days?: number }) =>
    withDatabase(async ({ db }) =>
      print({ pruned: await pruneEvents(db.kysely, new Date(), options.days ?? loadConfig().eventRetentionDays) }),
    ),
  );

const accounts = program.command('accounts').description('Manage accounts.');
accounts
  .command('create')
  .requiredOption('--email <email>', 'email address (unique)')
  .option('--credits <n>', 'opening credits', wholeNumber('--credits', 0), 0)
  .option('--password <password>', 'console password (at least 8 characters)')
  .option('--no-subscription', 'no subscription to any dataset')
  .option('--subscriptions <list>', `comma-separated subscriptions (${SUBSCRIPTIONS.join(', ')}; default: all)`)
  .action((opts: { email: string; credits: number; password?: string; subscription: boolean; subscriptions?: string }) =>
    withDatabase(async ({ db }) => {
      if (!opts.subscription && opts.subscriptions !== undefined) {
        throw new CliError('give either --no-subscription or --subscriptions, not both');
      }
      const subscriptions = !opts.subscription
        ? []
        : opts.subscriptions === undefined
          ? SUBSCRIPTIONS
          : opts.subscriptions
              .split(',')
              .map((s) => s.trim())
              .filter((s) => s !== '');
      const a = await createAccount(
        db.kysely,
        {
          email: opts.email,
          credits: opts.credits,
          ...(opts.password === undefined ? {} : { password: opts.password }),
          subscriptions,
          now: new Date(),
        },
        SUBSCRIPTIONS,
      );
      print({ account_id: a.account_id, email: a.email, balance: a.balance });
    }),
  );
/**
 * The LIST of `accounts subscribe|unsubscribe`: comma-separated, each name checked before anything
 * changes (an unknown one fails the whole command), in the one order answers use.
 */
function subscriptionList(list: string): string[] {
  const given = list
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (given.length === 0) throw new CliError(`LIST names no subscription: give one or more of ${SUBSCRIPTIONS.join(', ')}`);
  return checkSubscriptions(given, SUBSCRIPTIONS);
}

accounts
  .command('subscribe')
  .argument('<account>', 'email or account id')
  .argument('<list>', `comma-separated subscriptions to add (${SUBSCRIPTIONS.join(', ')})`)
  .description(
    'Give an account more subscriptions (those it holds stay; adding one held already changes nothing) and print it as `accounts show` does; running servers honour them within one sync interval.',
  )
  .action((who: string, list: string) =>
    withDatabase(async ({ db }) => {
      const account = await requireAccount(db.kysely, who, SUBSCRIPTIONS);
      await setSubscriptions(db.kysely, account.account_id, [...account.subscriptions, ...subscriptionList(list)], SUBSCRIPTIONS);
      print(await requireAccount(db.kysely, account.account_id, SUBSCRIPTIONS));
    }),
  );
accounts
  .command('unsubscribe')
  .argument('<account>', 'email or account id')
  .argument('<list>', `comma-separated subscriptions to remove (${SUBSCRIPTIONS.join(', ')})`)
  .description(
    'Take subscriptions from an account (removing one not held changes nothing) and print it as `accounts show` does; what it bought stays bought.',
  )
  .action((who: string, list: string) =>
    withDatabase(async ({ db }) => {
      const account = await requireAccount(db.kysely, who, SUBSCRIPTIONS);
      const removed = subscriptionList(list);
      await setSubscriptions(
        db.kysely,
        account.account_id,
        account.subscriptions.filter((s) => !removed.includes(s)),
        SUBSCRIPTIONS,
      );
      print(await requireAccount(db.kysely, account.account_id, SUBSCRIPTIONS));
    }),
  );
accounts
  .command('show')
  .argument('<account>', 'email or account id')
  .action((who: string) => withDatabase(async ({ db }) => print(await requireAccount(db.kysely, who, SUBSCRIPTIONS))));
accounts
  .command('list')
  .description('Every account as `accounts show` prints it, with its creation time; oldest first.')
  .action(() => withDatabase(async ({ db }) => print(await (await operatorCommands()).accountsList(db.kysely, SUBSCRIPTIONS))));

const credits = program.command('credits').description('Manage credits.');
credits
  .command('adjust')
  .argument('<account>', 'email or account id')
  .argument('<n>', 'credits to add, or to take with a minus sign (a whole number, not 0)')
  .requiredOption('--reason <text>', 'why: kept on the ledger line')
  .description('Correct a balance by N credits, never below 0: one ledger line with the reason.')
  .action((who: string, n: string, opts: { reason: string }) =>
    withDatabase(async ({ db }) =>
      print(await (await operatorCommands()).creditsAdjust(db.kysely, { who, n, reason: opts.reason }, SUBSCRIPTIONS)),
    ),
  );
credits
  .command('grant')
  .argument('<account>', 'email or account id')
  .argument('<n>', 'credits to add', wholeNumber('N', 1))
  .action((who: string, n: number) =>
    withDatabase(async ({ db }) => {
      const account = await requireAccount(db.kysely, who, SUBSCRIPTIONS);
      print({ balance: await grantCredits(db.kysely, account.account_id, n, new Date().toISOString()) });
    }),
  );

const keys = program.command('keys').description('Manage API keys.');
keys
  .command('create')
  .argument('<account>', 'email or account id')
  .option('--name <name>', 'a name to recognise the key by', 'default')
  .option('--expires-in <seconds>', 'expire the key after this many seconds', wholeNumber('--expires-in', 1))
  .action((who: string, opts: { name: string; expiresIn?: number }) =>
    withDatabase(async ({ db }) => {
      const account = await requireAccount(db.kysely, who, SUBSCRIPTIONS);
      const config = loadConfig();
      const secret = await signingSecret(db.kysely, config.secret);
      const key = await createKey(db.kysely, {
        accountId: account.account_id,
        name: opts.name,
        secret,
        now: new Date(),
        maxKeys: config.keysPerAccount,
        ...(opts.expiresIn === undefined ? {} : { expiresInSeconds: opts.expiresIn }),
      });
      print(key);
    }),
  );
keys
  .command('list')
  .argument('<account>', 'email or account id')
  .description("The account's keys, newest first: id, name, times, status; never the key itself.")
  .action((who: string) =>
    withDatabase(async ({ db }) => print(await (await operatorCommands()).keysList(db.kysely, who, SUBSCRIPTIONS))),
  );
keys
  .command('revoke')
  .argument('<key_id>', 'the key id (the JWT jti)')
  .action((keyId: string) =>
    withDatabase(async ({ db }) => {
      if (!(await revokeKey(db.kysely, keyId, new Date()))) throw new CliError(`no key ${keyId}`);
      print({ key_id: keyId, revoked: true });
    }),
  );

const companies = program.command('companies').description('Look into and merge companies (design §19.4).');
companies
  .command('show')
  .argument('<company_id>', 'a company_id, or one merged into another')
  .description('Print a company with its identifiers, former ids, listings and number of documents.')
  .action(async (id: string) => {
    const { showCompany } = await import('../catalog/merge-companies.js');
    await withDatabase(async ({ db }) => print(await showCompany(db.kysely, id)));
  });
companies
  .command('merge')
  .argument('<from>', 'the company_id that goes (it keeps resolving, to INTO)')
  .argument('<into>', 'the company_id that stays')
  .description(
    'Move the listings, identifiers, documents, figures and purchases of FROM into INTO in one transaction; FROM keeps resolving to INTO.',
  )
  .action(async (from: string, into: string) => {
    const { mergeCompanies } = await import('../catalog/merge-companies.js');
    await withDatabase(async ({ db }) => print(await mergeCompanies(db.kysely, from, into, new Date())));
  });

program
  .command('test-token')
  .description('Print the fixed test token (mock data, no charge).')
  .action(() => print({ test_token: TEST_TOKEN }));

/**
 * Reports a failure: an import refusal is its `file:line: what is wrong` lines alone (nothing was
 * written); any other failure, expected or not, is one line, never a stack trace.
 */
function fail(error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(error instanceof ImportError ? `${message}\n` : `corpdata: ${message.split('\n')[0]}\n`);
  process.exitCode = 1;
}

// A failure outside a command's promise (a stream's error event nobody awaited) ends the run the
// same way rather than with Node's stack trace. Not for `serve`: a crashed server's log wants the stack.
program.hook('preAction', (_program, command) => {
  if (command.name() === 'serve') return;
  for (const event of ['uncaughtException', 'unhandledRejection'] as const) {
    process.on(event, (error: unknown) => {
      fail(error);
      process.exit();
    });
  }
});

program.parseAsync(process.argv).catch(fail);
