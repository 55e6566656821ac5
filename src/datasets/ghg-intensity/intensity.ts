/**
 * Emission intensity in tCO2e per USD million of revenue, rounded half away from zero to three
 * decimals: emissions ÷ (revenue ÷ 1,000,000). Exact integer arithmetic, so no binary fraction
 * decides a rounding. Undefined when the revenue is not positive.
 */
export function intensity(emissionsTonnes: number, revenueUsd: number): number | undefined {
  if (revenueUsd <= 0 || emissionsTonnes < 0) return undefined;
  const scaled = BigInt(emissionsTonnes) * 1_000_000_000n;
  const usd = BigInt(revenueUsd);
  const quotient = scaled / usd;
  const remainder = scaled % usd;
  const thousandths = remainder * 2n >= usd ? quotient + 1n : quotient;
  return Number(thousandths) / 1000;
}
