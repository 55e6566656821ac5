import type { Catalog, Company } from '../catalog/catalog.js';
import { type CompanyData, type PeriodOutcome, resolvePeriod } from '../datasets/period-data.js';
import { ApiError, badRequest } from '../errors/api-error.js';
import type { ProblemExtensions } from './problem.js';

/** The identifier parameters every dataset endpoint and its periods endpoint take (design §1.1). */
export interface Identifiers {
  company_id?: string | undefined;
  isin?: string | undefined;
  lei?: string | undefined;
  ticker?: string | undefined;
  mic_code?: string | undefined;
}

const MISSING = 'Missing identifier: give one of company_id, isin, lei or ticker (mic_code alone is not enough).';

/**
 * The identifier that counts (design §1.1): company_id > isin > lei > ticker (+ mic_code).
 * `described` names the parameters, never their values: a 404 echoes no input (docs/hardening.md).
 */
export function lookUp(catalog: Catalog, q: Identifiers): { company: Company | undefined; described: string } {
  if (q.company_id !== undefined) return { company: catalog.byId(q.company_id.toLowerCase()), described: 'the given company_id' };
  if (q.isin !== undefined) return { company: catalog.byIsin(q.isin), described: 'the given isin' };
  if (q.lei !== undefined) return { company: catalog.byLei(q.lei), described: 'the given lei' };
  if (q.ticker !== undefined) {
    const described = q.mic_code === undefined ? 'the given ticker' : 'the given ticker on the given mic_code';
    return { company: catalog.byTicker(q.ticker, q.mic_code), described };
  }
  throw badRequest(MISSING);
}

/** The company the identifiers name, or the 404 that says what might help. */
export function findCompany(catalog: Catalog, q: Identifiers): { company: Company; described: string } {
  const { company, described } = lookUp(catalog, q);
  if (company !== undefined) return { company, described };
  throw companyNotFound(catalog, q, described);
}

/** A stable text naming the identifier, for mock data (the same identifier, the same mock company). */
export function identifierOf(q: Identifiers): string {
  const id = q.company_id ?? q.isin ?? q.lei ?? (q.ticker === undefined ? undefined : `${q.ticker}@${q.mic_code ?? ''}`);
  if (id === undefined) throw badRequest(MISSING);
  return id;
}

const SUGGESTIONS = 3;

/**
 * The 404 of an unknown company. A ticker that exists on other markets than the given mic_code
 * says so (in both forms: MIC codes are no echo of the input); its problem details list close
 * listings (`did_you_mean`): the ticker's other listings, else the best search matches of a ticker.
 */
function companyNotFound(catalog: Catalog, q: Identifiers, described: string): ApiError {
  let message = `No company matches ${described}.`;
  let ids: string[] = [];
  if (q.ticker !== undefined && q.company_id === undefined && q.isin === undefined && q.lei === undefined) {
    const elsewhere = catalog.listingsOf(q.ticker);
    if (q.mic_code !== undefined && elsewhere.length > 0) {
      const mics = [...new Set(elsewhere.map((l) => l.micCode))];
      message += ` The ticker is listed on ${mics.join(', ')}: use that mic_code, or leave mic_code out.`;
      ids = elsewhere.map((l) => l.companyId);
    } else {
      ids = catalog.search.search(q.ticker, SUGGESTIONS);
    }
  }
  const didYouMean = [...new Set(ids)].slice(0, SUGGESTIONS).flatMap((id) => {
    const r = catalog.record(id);
    return r === undefined
      ? []
      : [{ company_id: r.company_id, company_name: r.company_name, ticker: r.ticker, mic_code: r.mic_code }];
  });
  const extensions: ProblemExtensions = { did_you_mean: didYouMean };
  return new ApiError('not_found', message, undefined, undefined, extensions);
}

/** The 404 of a period the company's documents do not cover: it names the periods that exist. */
export function periodNotCovered(which: string, described: string, periods: readonly number[]): ApiError {
  const exist =
    periods.length === 0
      ? 'The company has no available period in this dataset yet.'
      : `Available periods: ${periods.join(', ')} (the free periods endpoint lists them).`;
  return new ApiError(
    'not_found',
    `No data for ${which} of ${described}: not covered by any processed document. ${exist}`,
    undefined,
    undefined,
    { available_periods: [...periods] },
  );
}

/** The requested period (a year or -N) of a company's data when some document covers it, else the 404 naming the periods that exist. */
export function coveredPeriod<R>(
  data: CompanyData<R>,
  requested: number,
  described: string,
): Exclude<PeriodOutcome<R>, { kind: 'not-covered' }> {
  const outcome = resolvePeriod(data, requested);
  if (outcome.kind !== 'not-covered') return outcome;
  const which = outcome.period === undefined ? `offset ${requested}` : `reporting period ${outcome.period}`;
  throw periodNotCovered(which, described, data.periods);
}

/** The 403 of a dataset the account does not subscribe to; its problem details name the subscription. */
export function subscriptionRequired(
  subscription: string,
  credits: { cost: number; balance: number },
  needs = `this dataset needs the ${subscription} subscription`,
): ApiError {
  return new ApiError('subscription_required', `Subscription required: ${needs}.`, credits, undefined, {
    required_subscription: subscription,
  });
}
