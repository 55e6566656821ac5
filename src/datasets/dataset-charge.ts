import type { ChargeRequest } from '../credits/charge.js';
import type { Dataset } from './dataset.js';

/** What one call of a dataset is billed, whoever makes it: the API's route or the console's buy. */
export type DatasetBill = Pick<ChargeRequest, 'endpoint' | 'price' | 'purchase' | 'subject'>;

/**
 * The charge of one resolved company-period of a dataset: a 200 buys it (first access, or the
 * repeat price when bought before, in this dataset), a 204 records what it was about. The ledger's
 * endpoint is the dataset's name, so the API and the console write the same lines.
 */
export function datasetBill(
  dataset: Dataset,
  companyId: string,
  outcome: { kind: 'data' | 'no-data'; period: number },
): DatasetBill {
  const { prices } = dataset;
  if (outcome.kind === 'no-data') {
    return { endpoint: dataset.name, price: prices.noData, subject: { companyId, period: outcome.period } };
  }
  return {
    endpoint: dataset.name,
    price: prices.firstAccess,
    purchase: { companyId, period: outcome.period, dataset: dataset.name, repeatPrice: prices.repeat },
  };
}
