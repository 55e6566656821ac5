import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseOimPeriod } from './oim-period.js';

const DAY_MS = 86_400_000;
const iso = (t: number) => new Date(t).toISOString().slice(0, 10);
const day = fc.integer({ min: Date.UTC(2000, 0, 1) / DAY_MS, max: Date.UTC(2030, 11, 31) / DAY_MS }).map((d) => d * DAY_MS);

describe('OIM periods', () => {
  it('reads the exclusive end of a duration as the day before (the calendar year 2024)', () => {
    expect(parseOimPeriod('2024-01-01T00:00:00/2025-01-01T00:00:00')).toEqual({
      kind: 'duration',
      start: '2024-01-01',
      end: '2024-12-31',
      annual: true,
      reportingPeriod: 2024,
    });
  });

  it('counts fiscal years ending in January, March and June to the year they end in', () => {
    // Inditex: 1 February 2024 to 31 January 2025 is fiscal 2024 in its own words, 2025 by design §10.4.
    expect(parseOimPeriod('2024-02-01T00:00:00/2025-02-01T00:00:00')).toMatchObject({
      end: '2025-01-31',
      annual: true,
      reportingPeriod: 2025,
    });
    expect(parseOimPeriod('2021-04-01T00:00:00/2022-04-01T00:00:00')).toMatchObject({
      end: '2022-03-31',
      annual: true,
      reportingPeriod: 2022,
    });
    expect(parseOimPeriod('2023-07-01T00:00:00/2024-07-01T00:00:00')).toMatchObject({
      end: '2024-06-30',
      annual: true,
      reportingPeriod: 2024,
    });
    // A 52-week year ending 2 January 2022 belongs to 2021.
    expect(parseOimPeriod('2021-01-04T00:00:00/2022-01-03T00:00:00')).toMatchObject({
      end: '2022-01-02',
      annual: true,
      reportingPeriod: 2021,
    });
  });

  it('reads 24:00:00, time zones and a non-midnight end as xs:dateTime means them', () => {
    expect(parseOimPeriod('2024-01-01T00:00:00/2024-12-31T24:00:00')).toMatchObject({
      start: '2024-01-01',
      end: '2024-12-31',
      annual: true,
    });
    expect(parseOimPeriod('2024-01-01T00:00:00Z/2025-01-01T00:00:00Z')).toMatchObject({ end: '2024-12-31', annual: true });
    expect(parseOimPeriod('2024-01-01T00:00:00/2024-12-31T23:59:59')).toMatchObject({ end: '2024-12-31', annual: true });
  });

  it('takes half years and instants as not annual, and a balance sheet instant as the day it closes', () => {
    expect(parseOimPeriod('2024-01-01T00:00:00/2024-07-01T00:00:00')).toMatchObject({ end: '2024-06-30', annual: false });
    expect(parseOimPeriod('2025-01-01T00:00:00')).toEqual({ kind: 'instant', date: '2024-12-31' });
    expect(parseOimPeriod('2024-01-01T00:00:00/2024-01-01T00:00:00')).toMatchObject({ annual: false });
  });

  it('refuses what is not an OIM period', () => {
    for (const bad of ['', '2024', '2024-01-01', '2024-02-30T00:00:00', '2024-01-01T00:00:00/', 'x/y', '2024-01-01T25:00:00']) {
      expect(parseOimPeriod(bad), bad).toBeUndefined();
    }
  });

  it('makes every midnight-to-midnight year of any start annual, ending the day before', () => {
    fc.assert(
      fc.property(day, (start) => {
        const s = new Date(start);
        const next = Date.UTC(s.getUTCFullYear() + 1, s.getUTCMonth(), s.getUTCDate());
        // A start on 29 February has no anniversary; Date.UTC rolls it to 1 March.
        fc.pre(new Date(next).getUTCDate() === s.getUTCDate());
        const p = parseOimPeriod(`${iso(start)}T00:00:00/${iso(next)}T00:00:00`);
        expect(p).toMatchObject({ kind: 'duration', start: iso(start), end: iso(next - DAY_MS), annual: true });
      }),
    );
    fc.assert(
      fc.property(day, fc.constantFrom(364, 371), (start, days) => {
        const p = parseOimPeriod(`${iso(start)}T00:00:00/${iso(start + days * DAY_MS)}T00:00:00`);
        expect(p).toMatchObject({ annual: true, end: iso(start + (days - 1) * DAY_MS) });
      }),
    );
  });
});
