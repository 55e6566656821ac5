import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { corpdata } from './support/cli.js';
import { dialects } from './support/dialects.js';
import { createTestDatabase } from './support/test-database.js';

const REPORT = fileURLToPath(new URL('../demo/REPORT.txt', import.meta.url));

interface Audit {
  findings: number;
  by_check: Record<string, number>;
  items: Array<{
    check: string;
    company_id: string;
    company: string;
    period: number | null;
    document_id: string | null;
    reason: string;
  }>;
}

/** `bin/corpdata check-data` (design §6): findings as one JSON object, exit 3 when there are any. */
describe.each(dialects())('bin/corpdata check-data (%s)', (dialect) => {
  it('exits 0 with no findings on an empty database', async () => {
    const database = await createTestDatabase(dialect);
    const env = { CORPDATA_DATABASE: database.url, CORPDATA_DEMO: 'off' };
    expect((await corpdata(['migrate'], env)).code).toBe(0);
    const r = await corpdata(['check-data'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json<Audit>()).toMatchObject({ findings: 0, items: [] });
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
  });
});
