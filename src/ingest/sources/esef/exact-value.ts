/**
 * Exact arithmetic on the numeric values of xBRL-JSON facts, which arrive as decimal strings
 * ("20935000000.0", "-3261000", "1.5E9"): never through a float, so a value of any size keeps
 * every digit until it is rounded once, to a whole unit.
 */

const DECIMAL_RE = /^([+-]?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]{1,4}))?$/;

/**
 * The value a decimal string means, rounded half away from zero to a whole unit (`"2.5"` → 3,
 * `"-2.5"` → -3), or to a whole 10^-places of one; undefined when the text is not a decimal number. `decimals` plays no part: it
 * tells the value's precision, never a scale to apply.
 */
export function wholeUnits(text: string, places = 0): bigint | undefined {
  const m = DECIMAL_RE.exec(text);
  if (m === null) return undefined;
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = m;
  if (whole === '' && fraction === '') return undefined;
  // Moving the decimal point by the exponent (and by `places`, for a value counted in
  // fractions of a unit) keeps every digit exact.
  const shift = Number(exponent) + places;
  let digits = whole + fraction;
  let point = whole.length + shift;
  if (point < 0) {
    digits = '0'.repeat(-point) + digits;
    point = 0;
  }
  if (point > digits.length) digits += '0'.repeat(point - digits.length);
  const integer = BigInt(digits.slice(0, point) || '0');
  const firstDropped = digits.charCodeAt(point);
  // Half away from zero: the magnitude goes up when the first dropped digit is 5 or more.
  const magnitude = firstDropped >= 0x35 && firstDropped <= 0x39 ? integer + 1n : integer;
  return sign === '-' ? -magnitude : magnitude;
}

/** A fact's `decimals`: digits of precision after the point (negative: before it), or exact. */
export type Decimals = number | 'INF';

const finer = (a: Decimals, b: Decimals): boolean => a === 'INF' || (b !== 'INF' && a > b);

/** True when `a` is stated more precisely than `b`: of two duplicates, the one to keep. */
export const morePrecise = (a: Decimals, b: Decimals): boolean => finer(a, b);
