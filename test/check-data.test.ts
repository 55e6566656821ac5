import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { corpdata } from './support/cli.js';
import { dialects } from './support/dialects.js';
import { createTestDatabase } from './support/test-database.js';

const REPORT = fileURLToPath(new URL('../demo/REPORT.txt', import.meta.url));
const STATEMENTS = fileURLToPath(new URL('./fixtures/statements-bundle', import.meta.url));

interface Finding {
  check: string;
  company_id: string;
  company: string;
  period: number | null;
  document_id: string | null;
  reason: string;
}

interface Audit {
  findings: number;
  by_check: Record<string, number>;
  items: Finding[];
  accepted: number;
  accepted_items: Finding[];
  passed_over: Record<string, number>;
}

/** `bin/corpdata check-data` (design §6): findings as one JSON object, exit 3 when there are any. */
describe.each(dialects())('bin/corpdata check-data (%s)', (dialect) => {
  it('exits 0 with no findings on an empty database', async () => {
    const database = await createTestDatabase(dialect);
    const env = { CORPDATA_DATABASE: database.url, CORPDATA_DEMO: 'off' };
    expect((await corpdata(['migrate'], env)).code).toBe(0);
    const r = await corpdata(['check-data'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json<Audit>()).toMatchObject({ findings: 0, items: [], passed_over: { revenues: 0 } });
  });

  it('exits 3 on the demo, whose every finding REPORT.txt explains', async () => {
    const database = await createTestDatabase(dialect);
    const env = { CORPDATA_DATABASE: database.url };
    expect((await corpdata(['migrate'], env)).code).toBe(0);
    const r = await corpdata(['check-data'], env);
    expect(r.code, r.stderr).toBe(3);
    const audit = r.json<Audit>();
    expect(audit.findings).toBe(audit.items.length);
    expect(audit.findings).toBeGreaterThan(0);
    for (const f of audit.items) {
      expect(Object.keys(audit.by_check)).toContain(f.check);
      expect(f.company).not.toBe('');
    }
    // One company per entity: no two companies of one country share a normalized name.
    expect(audit.by_check.same_name_and_country).toBe(0);
    expect(audit.by_check.document_of_another_company).toBe(0);
    expect(audit.by_check.document_without_figure).toBe(0);
    // The revenue candidates the statements' arithmetic passed over (design §18.4): in the demo, one
    // in each figure whose candidates list the bounds it was held against.
    const guarded = readFileSync(REPORT.replace('REPORT.txt', 'bundle/revenues.csv'), 'utf8')
      .split('\n')
      .filter((l) =>
        /(us-gaap:CostOf|us-gaap:OperatingIncomeLoss=|ifrs-full:CostOfSales=|ifrs-full:ProfitLossFromOperatingActivities=)/.test(
          l,
        ),
      );
    expect(guarded.length).toBeGreaterThan(0);
    expect(audit.passed_over).toEqual({ revenues: guarded.length });
    const explained = readFileSync(REPORT, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('check-data: '));
    expect(explained).toHaveLength(audit.findings);
    for (const f of audit.items) {
      const at = `check-data: ${f.check}: ${f.company}${f.period === null ? '' : ` ${f.period}`}${f.document_id === null ? '' : ` (document ${f.document_id})`}: ${f.reason}: `;
      expect(
        explained.some((l) => l.startsWith(at)),
        at,
      ).toBe(true);
    }
  }, 120_000); // seeding the demo and auditing it: slow on a loaded machine

  it('cross-checks the statements (design §18.5): each arithmetic 0.6% off and revenue under a tenth of net income, 0.4% off passes', async () => {
    const database = await createTestDatabase(dialect);
    const env = { CORPDATA_DATABASE: database.url, CORPDATA_DEMO: 'off' };
    const dir = mkdtempSync(join(tmpdir(), 'corpdata-statements-'));
    try {
      expect((await corpdata(['migrate'], env)).code).toBe(0);
      const imported = await corpdata(['import', STATEMENTS], env);
      expect(imported.code, imported.stderr).toBe(0);
      const r = await corpdata(['check-data'], env);
      expect(r.code, r.stderr).toBe(3);
      const audit = r.json<Audit>();
      const at = { company_id: '00000000-0000-4000-8000-0000000000a1', company: 'Statements Test Corp', period: 2023 };
      const document_id = '10000000-0000-4000-8000-0000000000a2';
      expect(audit.items).toEqual([
        {
          check: 'gross_profit_arithmetic',
          ...at,
          document_id,
          reason:
            "revenue 1000000 − gross profit 400000 = 600000, the filing's us-gaap:CostOfRevenue 603600 (off by more than 0.5%)",
        },
        {
          check: 'balance_sheet_arithmetic',
          ...at,
          document_id,
          reason: 'total assets 1000000, total liabilities 600000 + equity 394000 = 994000 (off by more than 0.5%)',
        },
        {
          check: 'revenue_under_net_income',
          ...at,
          document_id,
          reason: `revenue 1000000 USD under a tenth of net income -10000001 USD (document ${document_id})`,
        },
      ]);
      expect(audit.by_check).toMatchObject({
        gross_profit_arithmetic: 1,
        balance_sheet_arithmetic: 1,
        revenue_under_net_income: 1,
      });

      // One reviewed: the other two still fail the command.
      const reviewed = join(dir, 'reviewed.json');
      writeFileSync(reviewed, JSON.stringify({ items: audit.items.filter((f) => f.check === 'balance_sheet_arithmetic') }));
      const again = await corpdata(['check-data', '--accept', reviewed], env);
      expect(again.code, again.stderr).toBe(3);
      const report = again.json<Audit>();
      expect(report.items.map((f) => f.check)).toEqual(['gross_profit_arithmetic', 'revenue_under_net_income']);
      expect(report).toMatchObject({ findings: 2, accepted: 1 });
      expect(report.accepted_items.map((f) => f.check)).toEqual(['balance_sheet_arithmetic']);
      expect(report.by_check.balance_sheet_arithmetic).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await database.drop();
    }
  }, 120_000);

  it('with --accept FILE fails only on findings the file does not hold, counting the accepted apart', async () => {
    const database = await createTestDatabase(dialect);
    const env = { CORPDATA_DATABASE: database.url };
    const dir = mkdtempSync(join(tmpdir(), 'corpdata-accept-'));
    try {
      expect((await corpdata(['migrate'], env)).code).toBe(0);
      const fresh = await corpdata(['check-data'], env);
      expect(fresh.code, fresh.stderr).toBe(3);
      const all = fresh.json<Audit>();
      expect(all).toMatchObject({ accepted: 0, accepted_items: [] });
      // The report is the accept format: an operator writes it, reviews it, and hands it back.
      const reviewed = join(dir, 'reviewed.json');
      writeFileSync(reviewed, fresh.stdout);
      const accepted = await corpdata(['check-data', '--accept', reviewed], env);
      expect(accepted.code, accepted.stderr).toBe(0);
      expect(accepted.json<Audit>()).toEqual({
        findings: 0,
        by_check: Object.fromEntries(Object.keys(all.by_check).map((c) => [c, 0])),
        items: [],
        accepted: all.findings,
        accepted_items: all.items,
        passed_over: all.passed_over,
      });

      // A new finding: a processed document no figure cites.
      const [first] = all.items;
      if (first === undefined) throw new Error('the demo has findings');
      const bundle = join(dir, 'bundle');
      const documentId = '7e57acce-0000-4000-8000-000000000001';
      mkdirSync(bundle);
      writeFileSync(
        join(bundle, 'documents.csv'),
        `document_id,company_id,title,source_url,published_on,reporting_period,status\n${documentId},${first.company_id},Unused report,https://example.com/unused.pdf,2025-03-01,2024,processed\n`,
      );
      const imported = await corpdata(['import', bundle], env);
      expect(imported.code, imported.stderr).toBe(0);
      const again = await corpdata(['check-data', '--accept', reviewed], env);
      expect(again.code, again.stderr).toBe(3);
      const report = again.json<Audit>();
      expect(report.items).toEqual([
        {
          check: 'document_without_figure',
          company_id: first.company_id,
          company: first.company,
          period: null,
          document_id: documentId,
          reason: 'no figure cites this document',
        },
      ]);
      expect(report).toMatchObject({ findings: 1, accepted: all.findings, accepted_items: all.items });
      expect(report.by_check.document_without_figure).toBe(1);
      // A report written with --accept accepts both its lists: the new finding, reviewed, passes too.
      const reviewedAgain = join(dir, 'reviewed-again.json');
      writeFileSync(reviewedAgain, again.stdout);
      const passes = await corpdata(['check-data', '--accept', reviewedAgain], env);
      expect(passes.code, passes.stderr).toBe(0);
      expect(passes.json<Audit>()).toMatchObject({ findings: 0, accepted: all.findings + 1 });

      // An accept file that cannot be read is a failure of the command (1), not a finding (3).
      const bad = (name: string, text: string) => {
        const file = join(dir, name);
        writeFileSync(file, text);
        return file;
      };
      for (const [file, said] of [
        [join(dir, 'missing.json'), /cannot read .*missing\.json \(ENOENT\)/],
        [bad('not-json.json', '{"items": ['), /not-json\.json is not JSON/],
        [bad('list.json', '[]'), /list\.json must be a JSON object with "items"/],
        [bad('no-items.json', '{"findings": 0}'), /no-items\.json: "items" must be a list of findings/],
        [
          bad('bad-check.json', JSON.stringify({ items: [{ ...first, check: 'revenue_typo' }] })),
          /bad-check\.json: items\[0\]: check must be one of/,
        ],
        [
          bad('bad-period.json', JSON.stringify({ items: [first, { ...first, period: '2024' }] })),
          /bad-period\.json: items\[1\]: period must be a year or null/,
        ],
      ] as const) {
        const r = await corpdata(['check-data', '--accept', file], env);
        expect([r.code, r.stdout], file).toEqual([1, '']);
        expect(r.stderr, file).toMatch(/^corpdata: [^\n]+\n$/);
        expect(r.stderr, file).toMatch(said);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await database.drop();
    }
  }, 300_000);
});
