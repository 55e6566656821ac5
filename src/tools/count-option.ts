/**
 * A generator's `--name N` option: a whole number of at least `min` (1 unless said), `fallback`
 * when it is not given; anything else is refused with the program's usage line.
 */
export function countOption(
  name: string,
  value: string | undefined,
  usage: string,
  options: { min?: number; fallback?: number } = {},
): number {
  const min = options.min ?? 1;
  if (value === undefined && options.fallback !== undefined) return options.fallback;
  if (value === undefined || !/^[0-9]+$/.test(value) || Number(value) < min || !Number.isSafeInteger(Number(value))) {
    throw new Error(`--${name} must be a whole number${min > 0 ? ` ≥ ${min}` : ''}\n${usage}`);
  }
  return Number(value);
}
