/**
 * Same-named companies a reviewer found to be different issuers although the name rule of
 * {@link mergeEntities} would join them: a company whose country no source gives takes its
 * namesakes' country, and a name without a legal form cannot be told apart by form. Keyed by the
 * normalized name; the reason is written to REPORT.txt.
 */
export const REVIEWED_APART: ReadonlyMap<string, string> = new Map([
  [
    'interparfums',
    'reviewed: Interparfums SA (Euronext Paris) is a listed subsidiary of Inter Parfums, Inc. (Nasdaq), two issuers with their own reports',
  ],
]);
