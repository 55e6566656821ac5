import { SUB_UNITS } from './currencies.js';

/** An exact decimal: value = digits / 10^scale. Rates are kept as strings and never as floats. */
interface Decimal {
  readonly digits: bigint;
  readonly scale: number;
}

const DECIMAL_RE = /^(0|[1-9][0-9]*)(?:\.([0-9]+))?$/;

/** Parses a positive plain decimal like "0.00660632"; undefined if it is not one. */
export function parseRate(text: string): Decimal | undefined {
  const m = DECIMAL_RE.exec(text);
  if (m === null) return undefined;
  const fraction = m[2] ?? '';
  const digits = BigInt((m[1] ?? '') + fraction);
  if (digits === 0n) return undefined;
  return { digits, scale: fraction.length };
}

/** Divides with rounding half away from zero. */
function divideRounded(numerator: bigint, denominator: bigint): bigint {
  const negative = numerator < 0n !== denominator < 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const q = (2n * n + d) / (2n * d);
  return negative ? -q : q;
}

/** The currency whose rate applies, and by how much the figure is divided first (ZAC → ZAR / 100). */
export function rateCurrency(currency: string): { currency: string; divisor: bigint } {
  const sub = SUB_UNITS[currency];
  return sub === undefined ? { currency, divisor: 1n } : { currency: sub.parent, divisor: sub.divisor };
}

/**
 * `round(original × usd_per_unit)`, half away from zero, computed exactly. `usdPerUnit` is the rate
 * of `rateCurrency(currency)`; USD figures pass through unchanged. With a `step`, the result is
 * rounded to a multiple of it (a per-share value in millionths to 4 decimals: step 100), a USD
 * figure too. Throws RangeError when the result is not a safe integer.
 */
export function toUsd(original: number, currency: string, usdPerUnit: string, step = 1): number {
  if (!Number.isSafeInteger(original)) throw new RangeError('original value must be a safe integer');
  if (currency === 'USD' && step === 1) return original;
  const rate = currency === 'USD' ? { digits: 1n, scale: 0 } : parseRate(usdPerUnit);
  if (rate === undefined) throw new RangeError(`"${usdPerUnit}" is not a positive decimal rate`);
  const { divisor } = rateCurrency(currency);
  const unit = BigInt(step);
  const usd = divideRounded(BigInt(original) * rate.digits, 10n ** BigInt(rate.scale) * divisor * unit) * unit;
  const result = Number(usd);
  if (!Number.isSafeInteger(result)) throw new RangeError('USD value is beyond the safe integer range');
  return result;
}
