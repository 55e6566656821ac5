import { describe, expect, it } from 'vitest';
import { figureChart, yearAxis } from './figure-chart.js';
import type { Figure } from './figures.js';

const figure = (period: number, value: number): Figure => ({
  period,
  series: 'Net Income',
  value,
  unit: 'USD',
  original: null,
  disclosedIn: period,
  disclosure: 'first',
  tracePath: `/trace/${period}`,
});

/** The bars' top and bottom edges, in drawing units (y grows downwards). */
function bars(svg: string): Array<{ top: number; bottom: number }> {
  return [...svg.matchAll(/<rect x="[\d.]+" y="([\d.]+)" width="[\d.]+" height="([\d.]+)"/g)].map((m) => ({
    top: Number(m[1]),
    bottom: Number(m[1]) + Number(m[2]),
  }));
}

/** The y of the axis label `0`. */
const zeroLine = (svg: string) =>
  Number(/<line x1="\d+" x2="\d+" y1="([\d.]+)" y2="[\d.]+"\/><text[^>]*>0<\/text>/.exec(svg)?.[1]);

describe('figure chart', () => {
  it('draws a profit above the zero line and a loss below it, each to scale', () => {
    const svg = String(figureChart('c', 'Net income', [figure(2019, 2_698_000_000), figure(2020, -1_685_000_000)]));
    const zero = zeroLine(svg);
    const [profit, loss] = bars(svg);
    expect(profit?.bottom).toBeCloseTo(zero, 0);
    expect(loss?.top).toBeCloseTo(zero, 0);
    const ratio = ((profit?.bottom ?? 0) - (profit?.top ?? 0)) / ((loss?.bottom ?? 0) - (loss?.top ?? 0));
    expect(ratio).toBeCloseTo(2_698 / 1_685, 1);
    expect(svg).toContain('-2B');
  });

  it('starts the axis at zero when every figure is positive, and ends it there when every one is a loss', () => {
    const up = String(figureChart('c', 'Revenue', [figure(2019, 100), figure(2020, 200)]));
    expect(bars(up).every((b) => b.bottom === zeroLine(up))).toBe(true);
    const down = String(figureChart('c', 'Net income', [figure(2019, -100), figure(2020, -200)]));
    expect(bars(down).every((b) => b.top === zeroLine(down))).toBe(true);
  });

  it('places a year in proportion to the year, so a gap between years shows', () => {
    const axis = yearAxis([2010, 2021, 2024], 50, 300);
    expect(axis.x(2021) - axis.x(2010)).toBeCloseTo(11 * axis.slot, 5);
    expect(axis.x(2024) - axis.x(2021)).toBeCloseTo(3 * axis.slot, 5);
    expect(axis.x(2010) - axis.slot / 2).toBeCloseTo(50, 5);
    expect(axis.x(2024) + axis.slot / 2).toBeCloseTo(350, 5);
  });

  it('draws one panel per series, each on its own scale: a scope a thousand times smaller is a bar of its own height', () => {
    const scope = (series: string, value: number) => ({ ...figure(2020, value), series, unit: 'tCO2e' });
    const svg = String(figureChart('c', 'GHG emissions', [scope('Scope 1', 47_430), scope('Scope 3', 22_550_000)]));
    expect(svg.match(/<svg /g)?.length).toBe(2);
    const [one, three] = bars(svg).map((b) => b.bottom - b.top);
    expect(one).toBeGreaterThan(100);
    expect(three).toBeGreaterThan(50);
  });
});
