/**
 * 1 / `unitsPerUsd` as a plain decimal string with `digits` significant digits, rounded half up,
 * computed with integers so the result never depends on floating point.
 */
export function invertRate(unitsPerUsd: string, digits = 12): string {
  const m = /^([0-9]+)(?:\.([0-9]+))?$/.exec(unitsPerUsd.trim());
  if (m === null) throw new Error(`"${unitsPerUsd}" is not a positive decimal`);
  const fraction = m[2] ?? '';
  const denominator = BigInt((m[1] ?? '') + fraction);
  if (denominator === 0n) throw new Error('rate is zero');
  // 1/x = 10^s / D; scale by 10^e so the quotient has `digits` digits.
  const s = fraction.length;
  let e = 0;
  while (10n ** BigInt(s + e) / denominator < 10n ** BigInt(digits - 1)) e++;
  while (10n ** BigInt(s + e) / denominator >= 10n ** BigInt(digits)) e--;
  const numerator = 10n ** BigInt(s + e + 1);
  const q = (numerator / denominator + 5n) / 10n;
  const text = q.toString();
  if (e <= 0) return (q * 10n ** BigInt(-e)).toString();
  const padded = text.padStart(e + 1, '0');
  const out = `${padded.slice(0, padded.length - e)}.${padded.slice(padded.length - e)}`;
  return out.replace(/0+$/, '').replace(/\.$/, '');
}
