/**
 * The successions the demo knows, reviewed by hand (design §19.4): a filer the SEC ticker file no
 * longer lists whose figures belong to the company that now carries its ticker. Each is placed
 * under its successor, which then holds both CIKs' filings; an operator's later ingest of the old
 * CIK finds it by those filings. By CIK as a number.
 */
export const DEMO_SUCCESSIONS: ReadonlyMap<number, { readonly successor: number; readonly why: string }> = new Map([
  [
    34088,
    {
      successor: 2115436,
      why: 'the SEC ticker file of 2026 gives XOM to its new holding company, ExxonMobil Holdings',
    },
  ],
]);
