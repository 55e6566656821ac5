import { isAnnualPeriod, reportingPeriodOf } from '../../filings/periods.js';

/**
 * Periods as the OIM (xBRL-JSON) writes them: an instant `2025-01-01T00:00:00`, or a duration
 * `2024-01-01T00:00:00/2025-01-01T00:00:00` whose end is exclusive. A date-only end of an XBRL
 * context (31 December 2024) becomes the next day's midnight, so that duration is the calendar
 * year 2024 and its inclusive end is 2024-12-31.
 */
export type OimPeriod =
  | { kind: 'instant'; date: string }
  | {
      kind: 'duration';
      /** First day of the period. */
      start: string;
      /** Last day of the period (inclusive): the day before a midnight end. */
      end: string;
      /** 52/53 weeks or 12 months (design §10.2). */
      annual: boolean;
      /** design §10.4 applied to the inclusive end. */
      reportingPeriod: number;
    };

const DATETIME_RE = /^([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})?$/;
const DAY_MS = 86_400_000;

/** A datetime as its day (UTC, `YYYY-MM-DD`) and whether it is that day's first instant (midnight). */
function parseDateTime(text: string): { day: number; midnight: boolean } | undefined {
  const m = DATETIME_RE.exec(text);
  if (m === null) return undefined;
  const [, y, mo, d, h, mi, s, frac] = m;
  const day = Date.UTC(Number(y), Number(mo) - 1, Number(d));
  const date = new Date(day);
  // Date.UTC rolls 30 February over into March: a day that moved was not a date.
  if (date.getUTCDate() !== Number(d) || date.getUTCMonth() !== Number(mo) - 1) return undefined;
  const time = `${h}:${mi}:${s}`;
  const zeroFraction = frac === undefined || /^\.0+$/.test(frac);
  // xs:dateTime allows 24:00:00, the midnight that ends the day: the next day's first instant.
  if (time === '24:00:00' && zeroFraction) return { day: day + DAY_MS, midnight: true };
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return undefined;
  return { day, midnight: time === '00:00:00' && zeroFraction };
}

const iso = (day: number): string => new Date(day).toISOString().slice(0, 10);

/** The period `text` names, or undefined when it is not an OIM period. */
export function parseOimPeriod(text: string): OimPeriod | undefined {
  const slash = text.indexOf('/');
  if (slash < 0) {
    const at = parseDateTime(text);
    // An instant at midnight is the end of the day before (a balance sheet date).
    return at === undefined ? undefined : { kind: 'instant', date: iso(at.midnight ? at.day - DAY_MS : at.day) };
  }
  const from = parseDateTime(text.slice(0, slash));
  const to = parseDateTime(text.slice(slash + 1));
  if (from === undefined || to === undefined) return undefined;
  const start = iso(from.day);
  const endDay = to.midnight ? to.day - DAY_MS : to.day;
  const end = iso(endDay);
  // An empty or reversed duration is no fiscal year, but not a malformed period either.
  const annual = endDay >= from.day && isAnnualPeriod(start, end);
  return { kind: 'duration', start, end, annual, reportingPeriod: reportingPeriodOf(end) };
}
