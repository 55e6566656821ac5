import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { revenueFigures } from '../../datasets/revenues/revenue-figures.js';
import { conceptRank, conceptsOf } from '../core/figure-spec.js';
import { isAnnualForm } from '../sources/sec/rules.js';
import {
  type FiledFact,
  isRoundedFrom,
  type SelectionRules,
  selectFigures,
  selectFiguresAndConfirmations,
} from './select-figures.js';

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

describe('a later value rounded from an earlier one (DESIGN §10.6)', () => {
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
