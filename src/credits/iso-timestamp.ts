/** The second last formatted and its text up to the milliseconds ("2026-11-24T23:05:01."). */
let memoSecond = Number.NaN;
let memoPrefix = '';

/**
 * `new Date(ms).toISOString()`, for the timestamp of every billed call: formatting a date is a
 * noticeable part of a call's cost, and calls within one second share all but the milliseconds.
 * A pure function: the one-entry memo above only saves the formatting.
 */
export function isoTimestamp(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== memoSecond) {
    memoPrefix = new Date(second * 1000).toISOString().slice(0, 20);
    memoSecond = second;
  }
  const millis = ms - second * 1000;
  return `${memoPrefix}${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`;
}
