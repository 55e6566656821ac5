import type { AppContext } from '../../app-context.js';
import type { Dataset } from '../../datasets/dataset.js';
import { type CompanyData, CompanyDataCache } from '../../datasets/period-data.js';
import { MockBodies } from '../test-mode.js';

/**
 * What every call answering from a dataset reads: the company's data (kept between imports) and
 * the test token's answer. Made once per dataset by the composition root and handed to its own
 * routes and to the statement call (design §18.3), so they share one cache and one mock.
 */
export interface DatasetServing {
  readonly dataset: Dataset;
  companyData(companyId: string): Promise<CompanyData<unknown>>;
  /** The mock records of an identifier and a requested period, as JSON. */
  mockBody(identifier: string, period: number): string;
}

export function datasetServing(ctx: AppContext, dataset: Dataset): DatasetServing {
  const cache = new CompanyDataCache<CompanyData<unknown>>((companyId) =>
    dataset.load(ctx.db.kysely, companyId, ctx.config.publicUrl),
  );
  ctx.onDataChange(() => cache.clear());
  const mocks = new MockBodies(
    (identifier, period) => dataset.mock(identifier, period, ctx.config.publicUrl),
    () => ctx.config.publicUrl,
  );
  return {
    dataset,
    companyData: (companyId) => cache.get(companyId),
    mockBody: (identifier, period) => mocks.body(identifier, period),
  };
}
