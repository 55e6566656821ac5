import { describe, expect, it } from 'vitest';
import { asPrinted, classifyRow, namedReports, pickTotal, reportFor, type YearValue } from './ghg-totals.js';

/** A row's value for a year as `pickTotal` sees it, from the labels the sheet gives. */
const row = (metric: string, submetric: string, boundary: string, value: string, n: number): YearValue => {
  const kind = classifyRow(metric, submetric, boundary);
  if (kind === undefined) throw new Error(`${metric} ${submetric} ${boundary}: no scope`);
  return { role: kind.role, value, row: n, label: `${submetric} / ${boundary}` };
};

describe('reading os-climate rows: totals only (rows of the 20230106 sample, as the sheet labels them)', () => {
  it('takes the row labelled total over the unlabelled one and every sub-line (Atlassian FY2020 Scope 1: 275 t)', () => {
    expect(
      pickTotal([row('s1', '', '', '187', 2517), row('s1', 'Diesel', '', '88', 2518), row('s1', 'total', '', '275', 2519)]),
    ).toEqual({ ok: true, value: '275', row: 2519 });
  });

  it('takes the total boundary, never a business line (Exelon 2020 Scope 1: 479 kt, not customer-driven 0)', () => {
    expect(
      pickTotal([
        row('s1', '', 'customer-driven', '0', 614),
        row('s1', '', 'operations-driven', '479', 616),
        row('s1', '', 'total', '479', 619),
      ]),
    ).toEqual({ ok: true, value: '479', row: 619 });
  });

  it('leaves a scope with sub-lines only out, with its reason (Duke 2018 Scope 1: fugitive CH4 and SF6)', () => {
    expect(pickTotal([row('s1', 'fugitive ch4', '', '160', 446), row('s1', 'fugitive sf6', '', '305', 447)])).toEqual({
      ok: false,
      reason: 'no total row, only sub-lines (fugitive ch4 / ; fugitive sf6 / )',
    });
  });

  it('reads a Scope 3 total under any label a source gives a total, never a category', () => {
    for (const label of [
      'combined',
      'Total',
      'total',
      'all',
      'Sum total from above categories',
      'Total (on the website source)',
    ]) {
      expect(classifyRow('s3', label, ''), label).toEqual({ scope: '3', role: 'total' });
    }
    for (const [label, boundary] of [
      ['1', ''],
      ['Purchased goods and services', ''],
      ['combined', 'biogenic'],
      ['combined', '3, 6, 11'],
    ]) {
      expect(classifyRow('s3', label ?? '', boundary ?? ''), label).toEqual({ scope: '3', role: 'sub' });
    }
  });

  it('reads Scope 2 as location- or market-based only when the row says which', () => {
    expect(classifyRow('s2', 'location-based', '')).toEqual({ scope: '2-location', role: 'total' });
    expect(classifyRow('s2', 'Market-Based', '')).toEqual({ scope: '2-market', role: 'total' });
    expect(classifyRow('s2', 'location', 'customer-driven')).toEqual({ scope: '2-location', role: 'sub' });
    expect(classifyRow('s2', 'Location based-Purchased electricity', '')).toBeUndefined();
    expect(classifyRow('s2', '', '')).toBeUndefined();
    expect(classifyRow('s1s2', 'location', '')).toBeUndefined();
  });

  it('serves nothing when two total rows disagree', () => {
    const pick = pickTotal([
      row('s3', 'Total (in this calculation)', '', '10', 1),
      row('s3', 'Total (on the website source)', '', '12', 2),
    ]);
    expect(pick).toMatchObject({ ok: false });
  });
});

describe('a value as the report prints it', () => {
  it('drops the binary-float digits a spreadsheet keeps', () => {
    expect(asPrinted('139.19999999999999')).toBe('139.200000000000');
    expect(asPrinted('2.2999999999999998')).toBe('2.30000000000000');
    expect(asPrinted('299119')).toBe('299119');
  });
});

describe('the report Carbon Gap names for a year', () => {
  it("cites the 2020 report for 2020 figures, never the 2019 one (PepsiCo's row)", () => {
    const reports = namedReports(
      '2019, page 49 https://www.pepsico.com/docs/album/esg-topics-policies/2020-cdp-climate-response.pdf?sfvrsn=2df611c8_8 ; 2020, page 1 https://www.pepsico.com/docs/album/esg-topics-policies/apex_independent_assurance_statements.pdf?sfvrsn=b129ba58_10',
      'PepsiCo',
    );
    expect(reportFor(reports, '1')).toEqual({
      title: 'PepsiCo 2020 report (www.pepsico.com)',
      url: 'https://www.pepsico.com/docs/album/esg-topics-policies/apex_independent_assurance_statements.pdf?sfvrsn=b129ba58_10',
      page: 'p. 1',
    });
  });

  it('keeps a titled report of the year with its page, and a year whose report is a local file has none', () => {
    const reports = namedReports(
      '2019 Environmental, Social & Governance Performance Data Summary, page 11 file:///C:/Users/muham/Downloads/ESGData2019_R26_Final.pdf ; 2020 Independent Reasonable and Limited Assurance Statement, page 5 https://about.bankofamerica.com/content/dam/about/pdfs/2020_Assurance_Statement_ISAE_3000_Final.pdf',
      'Bank of America',
    );
    expect(reportFor(reports, '1')).toEqual({
      title: '2020 Independent Reasonable and Limited Assurance Statement',
      url: 'https://about.bankofamerica.com/content/dam/about/pdfs/2020_Assurance_Statement_ISAE_3000_Final.pdf',
      page: 'p. 5',
    });
    expect(reports.get('2019|')).toMatchObject({ missing: expect.stringContaining('local file') });
  });

  it('takes a Scope 3 report apart, and a single report for 2020', () => {
    const cisco = namedReports(
      'https://www.cisco.com/c/m/en_us/about/csr/esg-hub/environment/scope-1-2-ghg-emissions.html ; scope 3 https://www.cisco.com/c/m/en_us/about/csr/esg-hub/environment/scope-3-ghg-emissions.html',
      'Cisco Systems',
    );
    expect(reportFor(cisco, '1')).toMatchObject({ url: expect.stringContaining('scope-1-2') });
    expect(reportFor(cisco, '3')).toMatchObject({ url: expect.stringContaining('scope-3') });
    const single = namedReports('2020 Environmental Social & Governance Report, page 32 https://example.com/esg.pdf', 'JPMorgan');
    expect(reportFor(single, '1')).toEqual({
      title: '2020 Environmental Social & Governance Report',
      url: 'https://example.com/esg.pdf',
      page: 'p. 32',
    });
  });
});
