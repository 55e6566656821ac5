import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LINE_ITEM_DATASETS } from '../../datasets/line-items/line-item-dataset.js';
import { revenues } from '../../datasets/revenues/revenues-dataset.js';
import { conceptRank, conceptsOf, guardConceptsOf, guardOf } from '../core/figure-spec.js';
import { isAnnualForm } from '../sources/sec/rules.js';
import {
  chooseConcept,
  type FiledFact,
  isRoundedFrom,
  type SelectionRules,
  selectFigures,
  selectFiguresAndConfirmations,
  selectionRules,
} from './select-figures.js';

const revenueFigures = revenues.figures ?? expect.unreachable('revenues reads its figures from filings');
const REVENUE_CONCEPTS = conceptsOf(revenueFigures);

const ENDS = ['2020-12-31', '2021-12-31', '2022-12-31'];
const fact = fc.record({
  concept: fc.constantFrom(...REVENUE_CONCEPTS, 'us-gaap:SalesRevenueGoodsNet'),
  end: fc.constantFrom(...ENDS),
  quarter: fc.boolean(),
  value: fc.constantFrom(100, 101, 102),
  unit: fc.constantFrom('USD', 'USD', 'USD', 'shares'),
  filing: fc.integer({ min: 1, max: 6 }),
  form: fc.constantFrom('10-K', '10-K/A', '10-Q', '10-KT', '20-F'),
});
type Raw = { concept: string; end: string; quarter: boolean; value: number; unit: string; filing: number; form: string };
const toFact = (g: Raw): FiledFact => {
  const year = Number(g.end.slice(0, 4));
  return {
    concept: g.concept,
    start: g.quarter ? `${year}-10-01` : `${year}-01-01`,
    end: g.end,
    value: g.value,
    unit: g.unit,
    accession: `0000000001-2${g.filing}-00000${g.filing}`,
    form: g.form,
    filed: `202${g.filing}-02-15`,
  };
};
const isCurrency = (u: string) => u === 'USD';
const revenueRules: SelectionRules = { rank: conceptRank(revenueFigures), isCurrency, isAnnualForm };

describe('selectFigures', () => {
  it('keeps per period end only changes of value, each from an annual report, and adds nothing when run again', () => {
    fc.assert(
      fc.property(fc.array(fact, { maxLength: 40 }), (raw) => {
        const facts = raw.map(toFact);
        const figures = selectFigures(facts, [], revenueRules, () => undefined);
        for (const f of figures) {
          expect(['10-K', '10-K/A', '20-F']).toContain(f.fact.form);
          expect(f.fact.start?.slice(5)).toBe('01-01');
          expect(f.fact.unit).toBe('USD');
          expect(REVENUE_CONCEPTS).toContain(f.fact.concept);
        }
        for (const end of ENDS) {
          const kept = figures.filter((f) => f.fact.end === end);
          kept.forEach((f, i) => {
            expect(f.restatement).toBe(i > 0);
            if (i > 0) expect(f.fact.value).not.toBe(kept[i - 1]?.fact.value);
            if (i > 0) expect(f.fact.filed >= (kept[i - 1]?.fact.filed ?? '')).toBe(true);
          });
        }
        const stored = figures.map((f) => ({
          accession: f.fact.accession,
          filed: f.fact.filed,
          end: f.fact.end,
          value: f.fact.value,
          currency: f.fact.unit,
        }));
        expect(selectFigures(facts, stored, revenueRules, () => undefined)).toEqual([]);
      }),
    );
  });

  it('reads a filing-period from its most preferred concept, never a goods-only one', () => {
    const base = {
      start: '2020-01-01',
      end: '2020-12-31',
      unit: 'USD',
      accession: '0000000001-21-000001',
      form: '10-K',
      filed: '2021-02-01',
    };
    const figures = selectFigures(
      [
        { ...base, concept: 'us-gaap:SalesRevenueGoodsNet', value: 60 },
        { ...base, concept: 'us-gaap:SalesRevenueNet', value: 90 },
        { ...base, concept: 'us-gaap:Revenues', value: 100 },
      ],
      [],
      revenueRules,
      () => undefined,
    );
    expect(figures.map((f) => [f.fact.concept, f.fact.value, f.reportingPeriod])).toEqual([['us-gaap:Revenues', 100, 2020]]);
  });
});

describe('a later value rounded from an earlier one (design §10.6)', () => {
  it('is the earlier value at the later value’s precision, up to millions; an equal or a different value is not', () => {
    expect(isRoundedFrom(9_030_008_000, 9_030_000_000)).toBe(true);
    expect(isRoundedFrom(9_030_508_000, 9_031_000_000)).toBe(true);
    expect(isRoundedFrom(9_030_008_000, 9_030_008_000)).toBe(false);
    expect(isRoundedFrom(9_030_008_000, 9_040_000_000)).toBe(false);
    expect(isRoundedFrom(9_030_000_000, 9_030_008_000)).toBe(false);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 ** 12 }), fc.integer({ min: 1, max: 6 }), (n, digits) => {
        const unit = 10 ** digits;
        const rounded = Math.round(n / unit) * unit;
        if (rounded !== n && rounded !== 0) expect(isRoundedFrom(n, rounded)).toBe(true);
      }),
    );
  });

  it('keeps the precise figure, names the rounding filing as confirming it, and lists the other concepts', () => {
    const base = { start: '2017-12-02', end: '2018-11-30', unit: 'USD', form: '10-K' };
    const { figures, confirmations } = selectFiguresAndConfirmations(
      [
        { ...base, concept: 'us-gaap:Revenues', value: 9_030_008_000, accession: '0000796343-19-000006', filed: '2019-01-25' },
        {
          ...base,
          concept: 'us-gaap:SalesRevenueNet',
          value: 9_000_000_000,
          accession: '0000796343-19-000006',
          filed: '2019-01-25',
        },
        { ...base, concept: 'us-gaap:Revenues', value: 9_030_000_000, accession: '0000796343-21-000004', filed: '2021-01-15' },
      ],
      [],
      revenueRules,
      () => undefined,
    );
    expect(figures.map((f) => [f.fact.value, f.candidates])).toEqual([
      [9_030_008_000, [{ concept: 'us-gaap:SalesRevenueNet', value: 9_000_000_000 }]],
    ]);
    expect(confirmations.map((c) => [c.accession, c.by.accession])).toEqual([['0000796343-19-000006', '0000796343-21-000004']]);
  });
});

describe('the same rules for every figure spec', () => {
  const POOL = ['x:A', 'x:B', 'x:C', 'x:D', 'y:E', 'y:F'];
  /** A spec's concepts: some of the pool in some order. */
  const specConcepts = fc.shuffledSubarray(POOL, { minLength: 1 }).chain((s) => fc.shuffledSubarray(s, { minLength: s.length }));
  const anyFact = fc.record({
    concept: fc.constantFrom(...POOL),
    end: fc.constantFrom(...ENDS),
    quarter: fc.boolean(),
    value: fc.constantFrom(-2_500_000, -2_000_000, -1, 0, 7, 2_000_000),
    unit: fc.constantFrom('USD', 'USD', 'EUR', 'pure'),
    filing: fc.integer({ min: 1, max: 5 }),
    form: fc.constantFrom('10-K', '10-K/A', '20-F', '10-Q', 'AR'),
  });
  const rulesOf = (concepts: readonly string[]): SelectionRules => {
    const rank = new Map(concepts.map((c, i) => [c, i]));
    return { rank: (c) => rank.get(c), isCurrency: (u) => u === 'USD' || u === 'EUR', isAnnualForm };
  };

  it('reads each filing-period from the spec’s most preferred concept present, the others its candidates in order', () => {
    fc.assert(
      fc.property(specConcepts, fc.array(anyFact, { maxLength: 40 }), (concepts, raw) => {
        const facts = raw.map(toFact);
        const rules = rulesOf(concepts);
        const eligible = facts.filter(
          (f) =>
            concepts.includes(f.concept) && isAnnualForm(f.form) && f.start?.slice(5) === '01-01' && rules.isCurrency(f.unit),
        );
        for (const { fact, candidates } of selectFigures(facts, [], rules, () => undefined)) {
          expect(concepts).toContain(fact.concept);
          const same = eligible.filter((f) => f.accession === fact.accession && f.end === fact.end);
          const best = Math.min(...same.map((f) => concepts.indexOf(f.concept)));
          expect(concepts.indexOf(fact.concept)).toBe(best);
          const ranks = candidates.map((c) => concepts.indexOf(c.concept));
          expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
          expect(ranks.every((r) => r > best)).toBe(true);
        }
      }),
    );
  });

  it('gives a spec the same figures whatever other specs’ facts the filer holds, negative values included', () => {
    fc.assert(
      fc.property(specConcepts, fc.array(anyFact, { maxLength: 40 }), (concepts, raw) => {
        const facts = raw.map(toFact);
        const rules = rulesOf(concepts);
        const own = facts.filter((f) => concepts.includes(f.concept));
        const all = selectFiguresAndConfirmations(facts, [], rules, () => undefined);
        expect(all).toEqual(selectFiguresAndConfirmations(own, [], rules, () => undefined));
        // What was kept, stored, makes the same facts add nothing: restatements and roundings hold for losses too.
        const stored = all.figures.map((f) => ({
          accession: f.fact.accession,
          filed: f.fact.filed,
          end: f.fact.end,
          value: f.fact.value,
          currency: f.fact.unit,
        }));
        expect(selectFigures(facts, stored, rules, () => undefined)).toEqual([]);
      }),
    );
  });

  it('counts a loss rounded by a later filing as a confirmation, not a restatement', () => {
    const base = { concept: 'us-gaap:NetIncomeLoss', start: '2019-01-01', end: '2019-12-31', unit: 'USD', form: '10-K' };
    const { figures, confirmations } = selectFiguresAndConfirmations(
      [
        { ...base, value: -636_123_000, accession: '0000012927-20-000014', filed: '2020-01-31' },
        { ...base, value: -636_000_000, accession: '0000012927-21-000011', filed: '2021-02-01' },
      ],
      [],
      rulesOf(['us-gaap:NetIncomeLoss', 'us-gaap:ProfitLoss']),
      () => undefined,
    );
    expect(figures.map((f) => [f.fact.value, f.restatement])).toEqual([[-636_123_000, false]]);
    expect(confirmations.map((c) => c.by.accession)).toEqual(['0000012927-21-000011']);
  });
});

describe('a filing without a filed date (an ESEF report no index lists)', () => {
  const esef = { concept: 'ifrs-full:Revenue', start: '2021-04-01', end: '2022-03-31', unit: 'USD', form: '10-K' };
  const periods = new Map([
    ['dated-2022', 2022],
    ['undated-2023', 2023],
  ]);
  const rules: SelectionRules = { ...revenueRules, filingPeriod: (accession) => periods.get(accession) };

  it('stands after the filings published in the year it reports on: its different value restates theirs', () => {
    const dated = { ...esef, value: 302_632_000, accession: 'dated-2022', filed: '2022-08-02' };
    const undated = { ...esef, value: 234_694_000, accession: 'undated-2023', filed: '' };
    for (const order of [
      [dated, undated],
      [undated, dated],
    ]) {
      const figures = selectFigures(order, [], rules, () => undefined);
      expect(figures.map((f) => [f.fact.accession, f.restatement])).toEqual([
        ['dated-2022', false],
        ['undated-2023', true],
      ]);
    }
  });

  it('is ordered the same when stored: by the period its document reports on', () => {
    const stored = [
      { accession: 'undated-2023', filed: '', filingPeriod: 2023, end: esef.end, value: 234_694_000, currency: 'USD' },
    ];
    const skipped: string[] = [];
    const figures = selectFigures(
      [{ ...esef, value: 302_632_000, accession: 'dated-2022', filed: '2022-08-02' }],
      stored,
      rules,
      (r) => skipped.push(r),
    );
    // The dated report came first: its figure is the first reported, the stored undated one a restatement of it.
    expect(figures.map((f) => [f.fact.accession, f.restatement])).toEqual([['dated-2022', false]]);
    expect(skipped).toEqual([]);
  });

  it('comes before a report published in the year after its year of disclosure', () => {
    const undated = { ...esef, value: 234_694_000, accession: 'undated-2023', filed: '' };
    const later = { ...esef, value: 234_000_001, accession: 'dated-2025', filed: '2025-01-10' };
    const figures = selectFigures([later, undated], [], rules, () => undefined);
    expect(figures.map((f) => [f.fact.accession, f.restatement])).toEqual([
      ['undated-2023', false],
      ['dated-2025', true],
    ]);
  });
});

describe("the statements' arithmetic (design §18.4)", () => {
  const guarded: SelectionRules = { ...revenueRules, guard: guardOf(revenueFigures) };
  const filing =
    (accession: string, filed: string, start: string, end: string) =>
    (concept: string, value: number): FiledFact => ({
      concept,
      start,
      end,
      value,
      unit: 'USD',
      accession,
      form: '10-K',
      filed,
    });
  // General Mills' 10-K for the year ended 28 May 2023, as tagged in its companyfacts.
  const gis = filing('0001193125-23-181770', '2023-06-29', '2022-05-30', '2023-05-28');
  const gisFacts = [
    gis('us-gaap:Revenues', 1_957_400_000),
    gis('us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax', 20_094_200_000),
    gis('us-gaap:CostOfGoodsAndServicesSold', 13_548_400_000),
    gis('us-gaap:OperatingIncomeLoss', 3_433_800_000),
  ];

  it("passes over a sub-line under the filing's cost of revenue, and names it and the bounds", () => {
    const skipped: string[] = [];
    const [figure, ...rest] = selectFigures(gisFacts, [], guarded, (r) => skipped.push(r));
    expect(rest).toEqual([]);
    expect(figure?.fact.concept).toBe('us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax');
    expect(figure?.fact.value).toBe(20_094_200_000);
    expect(figure?.candidates).toEqual([
      { concept: 'us-gaap:Revenues', value: 1_957_400_000 },
      { concept: 'us-gaap:CostOfGoodsAndServicesSold', value: 13_548_400_000 },
      { concept: 'us-gaap:OperatingIncomeLoss', value: 3_433_800_000 },
    ]);
    expect(skipped).toEqual(['below_filing_arithmetic']);
  });

  it('without a guard takes the first concept in the order, as before', () => {
    const [figure] = selectFigures(gisFacts, [], revenueRules, () => undefined);
    expect(figure?.fact.value).toBe(1_957_400_000);
  });

  it('passes over a zero beside a larger candidate (Eaton), with no bound tagged', () => {
    const etn = filing('0001551182-14-000008', '2014-02-27', '2013-01-01', '2013-12-31');
    const [figure] = selectFigures(
      [etn('us-gaap:Revenues', 0), etn('us-gaap:SalesRevenueNet', 22_046_000_000)],
      [],
      guarded,
      () => undefined,
    );
    expect(figure?.fact.concept).toBe('us-gaap:SalesRevenueNet');
    expect(figure?.fact.value).toBe(22_046_000_000);
  });

  it('keeps a lone candidate under its cost of revenue: a company may sell below cost (Royal Caribbean 2020)', () => {
    const rcl = filing('0000884887-21-000011', '2021-02-26', '2020-01-01', '2020-12-31');
    const [figure] = selectFigures(
      [
        rcl('us-gaap:Revenues', 2_208_805_000),
        rcl('us-gaap:CostOfRevenue', 2_765_108_000),
        rcl('us-gaap:OperatingIncomeLoss', -4_613_636_000),
      ],
      [],
      guarded,
      () => undefined,
    );
    expect(figure?.fact.value).toBe(2_208_805_000);
    expect(figure?.candidates).toEqual([]);
  });

  it('never reads a bound as a figure, and a bound of another filing or period bounds nothing', () => {
    const a = filing('0000000001-23-000001', '2023-02-01', '2022-01-01', '2022-12-31');
    const b = filing('0000000001-24-000001', '2024-02-01', '2022-01-01', '2022-12-31');
    expect(selectFigures([a('us-gaap:CostOfRevenue', 5)], [], guarded, () => undefined)).toEqual([]);
    const [figure] = selectFigures(
      [a('us-gaap:Revenues', 10), a('us-gaap:SalesRevenueNet', 20), b('us-gaap:CostOfRevenue', 15)],
      [],
      guarded,
      () => undefined,
    );
    expect(figure?.fact.value).toBe(10);
  });

  it('chooses, for any candidates and bounds, the first in the order that the arithmetic does not pass over', () => {
    const concepts = conceptsOf(revenueFigures).slice(0, 4);
    const bounds = guardConceptsOf(revenueFigures).filter((c) => c.startsWith('us-gaap:'));
    const f = filing('0000000001-23-000001', '2023-02-01', '2022-01-01', '2022-12-31');
    const value = fc.integer({ min: -5, max: 30 });
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.constantFrom(...concepts), { minLength: 1 }),
        fc.array(value, { minLength: 4, maxLength: 4 }),
        fc.array(fc.tuple(fc.constantFrom(...bounds), value), { maxLength: 3 }),
        (present, values, boundFacts) => {
          const group = present.map((c, i) => f(c, values[i] ?? 0));
          const held = boundFacts.map(([c, v]) => f(c, v));
          const rank = conceptRank(revenueFigures);
          const { chosen, passed } = chooseConcept(group, held, rank);
          const max = Math.max(...group.map((g) => g.value));
          const floor = Math.max(...held.map((h) => h.value));
          // The largest is never passed over; so a lone candidate is always kept.
          expect(passed.some((p) => p.value === max)).toBe(false);
          for (const p of passed) expect(p.value === 0 || p.value < floor).toBe(true);
          for (const p of passed) expect(rank(p.concept) ?? 99).toBeLessThan(rank(chosen.concept) ?? 99);
          // Every candidate before the chosen one was passed over; none after it.
          for (const g of group) {
            const before = (rank(g.concept) ?? 99) < (rank(chosen.concept) ?? 99);
            expect(passed.includes(g)).toBe(before);
          }
        },
      ),
    );
  });
});

describe('companions (design §18.5)', () => {
  const spec = LINE_ITEM_DATASETS.find((d) => d.name === 'gross-profit')?.figures;
  it("stores the filing's cost of revenue of the same period after the candidates, and never chooses by it", () => {
    if (spec === undefined) throw new Error('gross profit reads filings');
    const rules = selectionRules(spec, (u) => u === 'USD', isAnnualForm);
    const at = (concept: string, value: number, start = '2022-05-30', accession = 'a1'): FiledFact => ({
      concept,
      start,
      end: '2023-05-28',
      value,
      unit: 'USD',
      accession,
      form: '10-K',
      filed: '2023-06-29',
    });
    const [figure, ...rest] = selectFigures(
      [
        at('us-gaap:GrossProfit', 6_546_000_000),
        at('us-gaap:CostOfGoodsAndServicesSold', 13_548_400_000),
        at('us-gaap:CostOfGoodsAndServicesSold', 1, '2023-02-27'),
        at('us-gaap:CostOfRevenue', 99_000_000_000, '2022-05-30', 'a0'),
      ],
      [],
      rules,
      () => undefined,
    );
    expect(rest).toEqual([]);
    expect(figure?.fact.value).toBe(6_546_000_000);
    expect(figure?.candidates).toEqual([{ concept: 'us-gaap:CostOfGoodsAndServicesSold', value: 13_548_400_000 }]);
  });
});
