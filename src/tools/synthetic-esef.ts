import { once } from 'node:events';
import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { random, serial, withLeiCheckDigits } from './synthetic-ids.js';

export interface EsefOptions {
  reports: number;
  seed: number;
}

export interface EsefSummary {
  reports: number;
  facts: number;
  bytes: number;
  index_pages: number;
}

/** The LEI of synthetic filer `n` (1-based): a prefix no real LEI issuer uses, valid check digits. */
export const syntheticEsefLei = (n: number): string => withLeiCheckDigits(`ZZZZ00${serial(n, 12)}`);

const COUNTRIES = ['ES', 'FR', 'DE', 'IT', 'NL', 'GB', 'SE', 'FI', 'BE', 'PL'];
const CURRENCY: Record<string, string> = { GB: 'GBP', SE: 'SEK', PL: 'PLN' };
const LANGUAGE: Record<string, string> = { ES: 'es', FR: 'fr', DE: 'de', IT: 'it', NL: 'nl', SE: 'sv', FI: 'fi', PL: 'pl' };
/** Fiscal years end in December mostly, else January (retail), March, June or September. */
const YEAR_ENDS: ReadonlyArray<[number, number]> = [
  [12, 31],
  [12, 31],
  [12, 31],
  [12, 31],
  [1, 31],
  [3, 31],
  [6, 30],
  [9, 30],
];
const MONETARY = [
  'Revenue',
  'RevenueFromContractsWithCustomers',
  'CostOfSales',
  'GrossProfit',
  'DistributionCosts',
  'AdministrativeExpense',
  'OtherIncome',
  'OtherExpenseByFunction',
  'ProfitLossFromOperatingActivities',
  'FinanceIncome',
  'FinanceCosts',
  'ProfitLossBeforeTax',
  'IncomeTaxExpenseContinuingOperations',
  'ProfitLoss',
  'ProfitLossAttributableToOwnersOfParent',
  'ProfitLossAttributableToNoncontrollingInterests',
  'OtherComprehensiveIncome',
  'ComprehensiveIncome',
  'DepreciationAndAmortisationExpense',
  'EmployeeBenefitsExpense',
  'CashFlowsFromUsedInOperatingActivities',
  'CashFlowsFromUsedInInvestingActivities',
  'CashFlowsFromUsedInFinancingActivities',
  'PurchaseOfPropertyPlantAndEquipmentClassifiedAsInvestingActivities',
  'DividendsPaidClassifiedAsFinancingActivities',
];
const INSTANTS = [
  'Assets',
  'NoncurrentAssets',
  'CurrentAssets',
  'PropertyPlantAndEquipment',
  'IntangibleAssetsOtherThanGoodwill',
  'Goodwill',
  'Inventories',
  'TradeAndOtherCurrentReceivables',
  'CashAndCashEquivalents',
  'Equity',
  'IssuedCapital',
  'RetainedEarnings',
  'Liabilities',
  'NoncurrentLiabilities',
  'CurrentLiabilities',
  'TradeAndOtherCurrentPayables',
  'Borrowings',
  'LeaseLiabilities',
  'ProvisionsForEmployeeBenefits',
  'DeferredTaxLiabilities',
];
const AXES: ReadonlyArray<[string, string[]]> = [
  [
    'ifrs-full:ComponentsOfEquityAxis',
    [
      'IssuedCapitalMember',
      'SharePremiumMember',
      'RetainedEarningsMember',
      'OtherReservesMember',
      'NoncontrollingInterestsMember',
    ],
  ],
  ['ifrs-full:SegmentsAxis', ['ReportableSegmentsMember', 'OperatingSegmentsMember', 'MaterialReconcilingItemsMember']],
  ['ifrs-full:ClassesOfPropertyPlantAndEquipmentAxis', ['LandAndBuildingsMember', 'MachineryMember', 'VehiclesMember']],
  ['ifrs-full:GeographicalAreasAxis', ['CountryOfDomicileMember', 'ForeignCountriesMember']],
];
const TEXT_BLOCKS = [
  'DisclosureOfRevenueExplanatory',
  'DisclosureOfSegmentsExplanatory',
  'DisclosureOfPropertyPlantAndEquipmentExplanatory',
  'DisclosureOfIntangibleAssetsExplanatory',
  'DisclosureOfFinancialInstrumentsExplanatory',
  'DisclosureOfIncomeTaxExplanatory',
  'DisclosureOfLeasesExplanatory',
  'DisclosureOfProvisionsExplanatory',
  'DisclosureOfRelatedPartyExplanatory',
  'DisclosureOfEventsAfterReportingPeriodExplanatory',
  'DescriptionOfAccountingPolicyForRevenueRecognitionExplanatory',
  'DisclosureOfSummaryOfSignificantAccountingPoliciesExplanatory',
];
const WORDS = (
  'the group recognises revenue when control of goods or services transfers to the customer at an amount ' +
  'that reflects the consideration to which it expects to be entitled in exchange for those goods or services ' +
  'property plant and equipment is stated at cost less accumulated depreciation and impairment losses ' +
  'the directors consider that the carrying amounts approximate their fair values at the reporting date'
).split(' ');

const pad2 = (n: number) => String(n).padStart(2, '0');
const day = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d)).toISOString().slice(0, 10);
const at = (date: string) => `${date}T00:00:00`;

/** A note's text as ESEF block-tags it: escaped XHTML with paragraphs and a table. */
function textBlock(rnd: () => number, bytes: number): string {
  const parts: string[] = ['<div xmlns="http://www.w3.org/1999/xhtml" class="note">'];
  let size = parts[0]?.length ?? 0;
  while (size < bytes) {
    let p = '<p style="font-family:Arial;font-size:9pt">';
    for (let i = 0; i < 40; i++) p += `${WORDS[Math.floor(rnd() * WORDS.length)]} `;
    p += '</p>';
    if (rnd() < 0.25) {
      p += '<table><tr><th>2024</th><th>2023</th></tr>';
      for (let r = 0; r < 4; r++) p += `<tr><td>${Math.floor(rnd() * 1e6)}</td><td>${Math.floor(rnd() * 1e6)}</td></tr>`;
      p += '</table>';
    }
    parts.push(p);
    size += p.length;
  }
  parts.push('</div>');
  return parts.join('');
}

/**
 * One report, written as filings.xbrl.org writes xBRL-JSON (one-space indent, `fact-N` ids,
 * canonical values with `.0`, OIM exclusive period ends): 1,100 to 8,500 facts over the year and
 * the year before, about a third on an axis, the income statement's totals tagged again in the
 * equity statement and the notes (duplicates), and a block-tagged note for each text concept, so
 * that block-tagged notes make up about three quarters of the bytes; 0.5 to 11 MB each.
 */
function report(n: number, seed: number): { json: string; facts: number; lei: string; country: string; end: string } {
  const rnd = random(seed * 1_000_003 + n);
  const lei = syntheticEsefLei(n);
  const country = COUNTRIES[Math.floor(rnd() * COUNTRIES.length)] ?? 'ES';
  const currency = CURRENCY[country] ?? 'EUR';
  const language = LANGUAGE[country] ?? 'en';
  const [endMonth, endDay] = YEAR_ENDS[Math.floor(rnd() * YEAR_ENDS.length)] ?? [12, 31];
  const endYear = endMonth === 1 ? 2025 : 2024;
  // The OIM end is the day after the last day; the start the day after the year before's end.
  const next = (y: number) => day(y, endMonth, endDay + 1);
  const current = `${at(next(endYear - 1))}/${at(next(endYear))}`;
  const prior = `${at(next(endYear - 2))}/${at(next(endYear - 1))}`;
  const instants = [at(next(endYear)), at(next(endYear - 1))];
  const entity = `scheme:${lei}`;
  const size = 0.4 + rnd() * 2.6;
  const base = Math.round(1e7 + rnd() * 3e10);
  const facts: string[] = [];
  let id = 0;
  const fact = (concept: string, period: string, value: string, extra: Record<string, string> = {}, numeric = true) => {
    const dims: Record<string, string> = { concept, entity, period, ...extra };
    if (numeric) dims.unit = `iso4217:${currency}`;
    else dims.language = language;
    const body: Record<string, unknown> = numeric ? { value, decimals: -3, dimensions: dims } : { value, dimensions: dims };
    facts.push(`  "fact-${++id}": ${JSON.stringify(body, null, 1).replace(/\n/g, '\n  ')}`);
  };
  const amount = (scale: number) => `${Math.round((base * scale * (0.5 + rnd())) / 1000) * 1000}.0`;
  // One value per concept and period: the notes repeat the statements' figures, never change them.
  const values = new Map<string, string>();
  const figure = (c: string, p: number) => {
    const key = `${c} ${p}`;
    const held = values.get(key);
    if (held !== undefined) return held;
    const v = c === 'Revenue' ? `${Math.round(base * (p === 0 ? 1.07 : 1))}.0` : amount(0.1);
    values.set(key, v);
    return v;
  };
  fact('ifrs-full:NameOfReportingEntityOrOtherMeansOfIdentification', current, `Synthetic Filer ${n} S.A.`, {}, false);
  const rounds = Math.max(1, Math.round(size * 25));
  for (let r = 0; r < rounds; r++) {
    for (const [p, period] of [current, prior].entries()) {
      for (const c of MONETARY) {
        // Round 0 is the income statement; later rounds repeat its totals (equity statement, notes).
        if (r === 0 || c === 'Revenue' || c === 'ProfitLoss' || rnd() < 0.3) fact(`ifrs-full:${c}`, period, figure(c, p));
        const [axis, members] = AXES[Math.floor(rnd() * AXES.length)] ?? AXES[0] ?? ['', []];
        if (rnd() < 0.55)
          fact(`ifrs-full:${c}`, period, amount(0.02), { [axis]: `ifrs-full:${members[Math.floor(rnd() * members.length)]}` });
      }
    }
    for (const instant of instants) {
      for (const c of INSTANTS) {
        fact(`ifrs-full:${c}`, instant, amount(0.5));
        if (rnd() < 0.5)
          fact(`ifrs-full:${c}`, instant, amount(0.05), {
            'ifrs-full:ComponentsOfEquityAxis': 'ifrs-full:RetainedEarningsMember',
          });
      }
    }
    for (const t of TEXT_BLOCKS) {
      if (rnd() < 0.6) fact(`ifrs-full:${t}`, current, textBlock(rnd, Math.floor(1500 + rnd() * 9000 * size)), {}, false);
    }
  }
  const documentInfo = {
    documentType: 'https://xbrl.org/2021/xbrl-json',
    features: { 'xbrl:canonicalValues': true },
    namespaces: {
      'ifrs-full': 'https://xbrl.ifrs.org/taxonomy/2023-03-23/ifrs-full',
      iso4217: 'http://www.xbrl.org/2003/iso4217',
      scheme: 'http://standards.iso.org/iso/17442',
      xbrl: 'https://xbrl.org/2021',
      xbrli: 'http://www.xbrl.org/2003/instance',
    },
    taxonomy: [`https://synthetic.example/xbrl/${lei}-${day(endYear, endMonth, endDay)}.xsd`],
  };
  const json = `{\n "documentInfo": ${JSON.stringify(documentInfo, null, 1).replace(/\n/g, '\n ')},\n "facts": {\n${facts.join(',\n')}\n }\n}`;
  return { json, facts: id, lei, country, end: day(endYear, endMonth, endDay) };
}

/** Filings per index page, as `page[size]=100` asks of filings.xbrl.org. */
const PAGE = 100;

/**
 * Writes `reports` synthetic xBRL-JSON reports into `dir/reports/` (`{LEI}-{period end}-{lang}.json`)
 * and the filings.xbrl.org index pages that list them into `dir/index/` (`include=entity`,
 * `links.next`), deterministic for a seed.
 */
export async function writeSyntheticEsef(dir: string, options: EsefOptions): Promise<EsefSummary> {
  const reports = join(dir, 'reports');
  const index = join(dir, 'index');
  mkdirSync(reports, { recursive: true });
  mkdirSync(index, { recursive: true });
  const summary: EsefSummary = { reports: 0, facts: 0, bytes: 0, index_pages: 0 };
  let page: { data: unknown[]; included: unknown[] } = { data: [], included: [] };
  const pages = Math.ceil(options.reports / PAGE);
  const flush = () => {
    summary.index_pages++;
    const n = summary.index_pages;
    const url = (k: number) => `https://filings.xbrl.org/api/filings?page%5Bsize%5D=${PAGE}&include=entity&page%5Bnumber%5D=${k}`;
    const links: Record<string, string> = { self: url(n), first: url(1), last: url(pages) };
    if (n < pages) links.next = url(n + 1);
    const body = { ...page, links, meta: { count: options.reports }, jsonapi: { version: '1.0' } };
    writeFileSync(join(index, `page-${String(n).padStart(5, '0')}.json`), JSON.stringify(body));
    page = { data: [], included: [] };
  };
  for (let n = 1; n <= options.reports; n++) {
    const r = report(n, options.seed);
    const lang = LANGUAGE[r.country] ?? 'en';
    const name = `${r.lei}-${r.end}-${lang}`;
    const out = createWriteStream(join(reports, `${name}.json`));
    out.end(r.json);
    await once(out, 'finish');
    summary.reports++;
    summary.facts += r.facts;
    summary.bytes += Buffer.byteLength(r.json);
    const root = `/${r.lei}/${r.end}/ESEF/${r.country}/0`;
    page.data.push({
      type: 'filing',
      id: String(n),
      attributes: {
        fxo_id: `${r.lei}-${r.end}-ESEF-${r.country}-0`,
        country: r.country,
        period_end: r.end,
        date_added: `2025-0${1 + (n % 9)}-${pad2(1 + (n % 28))} 12:00:00.000000`,
        processed: `2025-0${1 + (n % 9)}-${pad2(1 + (n % 28))} 12:30:00.000000`,
        json_url: `${root}/${name}.json`,
        package_url: `${root}/${name}.zip`,
        report_url: `${root}/${name}/reports/${name}.xhtml`,
        viewer_url: `${root}/${name}/reports/ixbrlviewer.html`,
        error_count: 0,
        warning_count: 0,
        inconsistency_count: 0,
      },
      relationships: { entity: { links: { related: `/api/entities/${r.lei}` }, data: { type: 'entity', id: String(n) } } },
      links: { self: `/api/filings/${n}` },
    });
    page.included.push({ type: 'entity', id: String(n), attributes: { identifier: r.lei, name: `SYNTHETIC FILER ${n} SA` } });
    if (page.data.length === PAGE) flush();
  }
  if (page.data.length > 0) flush();
  return summary;
}
