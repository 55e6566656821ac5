/**
 * ISO 3166 alpha-2 codes as the catalog writes countries: English short names ("Spain",
 * "United Kingdom"), as FinanceDatabase and the S&P list give them. ICU's English names are
 * those for every ESEF country; the few where the catalog's sources write an older name are
 * listed.
 */
const REGION_NAMES = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
const CATALOG_NAMES: Readonly<Record<string, string>> = { CZ: 'Czech Republic', HK: 'Hong Kong' };

/** The catalog's name of an ISO 3166 country code; undefined when the code names none. */
export function countryName(code: string): string | undefined {
  const upper = code.trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(upper)) return undefined;
  return CATALOG_NAMES[upper] ?? REGION_NAMES.of(upper);
}
