/**
 * The one spelling of a ticker that lookups compare (design §19.5): upper case, and a class-share
 * separator written as sources write it — `BRK.B` (exchanges), `BRK-B` (SEC), `BRK/B`, `BRK B`
 * (data vendors) — as one `.`. A listing is stored as its source gave it and answered as stored;
 * the catalog keys it, and every ticker it is asked for, by this form.
 */
export function tickerKey(ticker: string): string {
  return ticker
    .trim()
    .toUpperCase()
    .replace(/[-./ ]+/g, '.');
}
