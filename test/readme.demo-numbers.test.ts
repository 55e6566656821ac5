import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
/** The README's words on one line, so that a sentence wrapped anywhere still matches. */
const README = readFileSync(`${ROOT}README.md`, 'utf8').replace(/\s+/g, ' ');
/** The summary the demo's generator writes with the bundle (CI checks both are its output). */
const REPORT = readFileSync(`${ROOT}demo/REPORT.txt`, 'utf8');

const number = (s: string | undefined): number => Number((s ?? 'NaN').replaceAll(',', ''));

function numbers(text: string, pattern: RegExp, what: string): number[] {
  const match = pattern.exec(text);
  if (match === null) throw new Error(`${what}: ${pattern} matches nothing`);
  return match.slice(1).map(number);
}

/** Each number the README states about the demo, and the line of demo/REPORT.txt that states it. */
const CLAIMS: Array<[string, RegExp, RegExp]> = [
  ['companies', /It covers ([\d,]+) companies/, /^companies (\d+)$/m],
  ['listings', /companies with ([\d,]+) listings/, /^listings (\d+)$/m],
  ['exchanges', /listings on (\d+) exchanges/, /^exchanges (\d+)$/m],
  ['countries', /exchanges in (\d+) countries/, /^countries (\d+)$/m],
  ['documents', /([\d,]+) source documents/, /^documents (\d+)$/m],
  ['revenue data points', /([\d,]+) revenue data points of ([\d,]+) companies/, /^data points (\d+) \(of (\d+) companies\)$/m],
  ['currencies', /companies in (\d+) currencies/, /^currencies of data points (\d+):/m],
  ['FX rates', /([\d,]+) yearly FX rates/, /^fx rates (\d+)$/m],
  [
    'SEC filings',
    /([\d,]+) data points of ([\d,]+) companies come straight from ([\d,]+) SEC filings/,
    /^filed: (\d+) data points of (\d+) companies from (\d+) SEC filings$/m,
  ],
  [
    'main documents',
    /([\d,]+) of those filings link their main document/,
    /^filings: (\d+) of \d+ filings linked to their main document/m,
  ],
  [
    'ESEF',
    /([\d,]+) data points of (\d+) European companies \([^)]*\) come from (\d+) ESEF annual reports/,
    /^esef: (\d+) data points of (\d+) companies from (\d+) ESEF reports/m,
  ],
  [
    'merges and namesakes',
    /the ([\d,]+) merges and the ([\d,]+) namesakes kept apart/,
    /^companies merged into another listing's company (\d+); same-named companies kept apart (\d+)$/m,
  ],
];

describe("the README's numbers about the demo", () => {
  it.each(CLAIMS)('%s are those of demo/REPORT.txt', (what, readme, report) => {
    expect(numbers(README, readme, `README.md, ${what}`)).toEqual(numbers(REPORT, report, `demo/REPORT.txt, ${what}`));
  });

  it("lists the currencies of the report's data points", () => {
    const listed = /currencies \(([A-Z, ]+)\)/.exec(README)?.[1]?.split(', ');
    const reported = /^currencies of data points \d+: ([A-Z ]+)$/m.exec(REPORT)?.[1]?.split(' ');
    expect(reported).toBeDefined();
    expect(listed).toEqual(reported);
  });
});
