/**
 * The period rules every filings source shares (design §10.2, §10.4, §14.2): which periods are a
 * fiscal year, and which reporting period a fiscal year belongs to.
 */

const DAY_MS = 86_400_000;
const utc = (date: string): number => Date.parse(`${date}T00:00:00Z`);

/** The day before the same date `months` later: the last day of a period of whole months. */
function endOfMonths(start: string, months: number): number {
  const d = new Date(utc(start));
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d.getTime() - DAY_MS;
}

/**
 * True for a fiscal year: 52 or 53 weeks (364 or 371 days, both ends included) or 12 calendar
 * months. Quarters, half years and the odd stub period of a fiscal-year change are not.
 */
export function isAnnualPeriod(start: string, end: string): boolean {
  let ends = annual.get(start);
  const known = ends?.get(end);
  if (known !== undefined) return known;
  if (ends === undefined) {
    // Bounded: a filer's facts share a few hundred periods; a run over many filers starts afresh.
    if (annual.size >= MAX_REMEMBERED_STARTS) annual.clear();
    ends = new Map();
    annual.set(start, ends);
  }
  const days = (utc(end) - utc(start)) / DAY_MS + 1;
  const is = days === 364 || days === 371 || utc(end) === endOfMonths(start, 12);
  ends.set(end, is);
  return is;
}

/**
 * The answers given so far, by start and end: every fact of a filer asks again for its period (a
 * filer's hundreds of thousands of facts share a few hundred), and the date arithmetic is the
 * costly part of reading them.
 */
const annual = new Map<string, Map<string, boolean>>();
const MAX_REMEMBERED_STARTS = 10_000;

/**
 * The calendar year in which the fiscal year ends; one ending on or before 7 January counts to the
 * year before (a 52/53-week year that ran a few days over). Never a source's `fy`: a 10-K reports
 * its comparatives under its own `fy`.
 */
export function reportingPeriodOf(end: string): number {
  const year = Number(end.slice(0, 4));
  return end.slice(5, 7) === '01' && Number(end.slice(8, 10)) <= 7 ? year - 1 : year;
}

const DATE_RE = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;
export function isIsoDate(v: string): boolean {
  if (validDates.has(v)) return true;
  const valid = DATE_RE.test(v) && !Number.isNaN(utc(v));
  if (valid) {
    // Bounded like the periods: a reader asks of the same few thousand dates for every fact.
    if (validDates.size >= MAX_REMEMBERED_DATES) validDates.clear();
    validDates.add(v);
  }
  return valid;
}

/** The dates found valid so far: every fact of a filing brings three, of a few thousand in all. */
const validDates = new Set<string>();
const MAX_REMEMBERED_DATES = 100_000;
