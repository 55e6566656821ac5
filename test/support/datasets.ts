import { bundlesOf, subscriptionsOf } from '../../src/datasets/dataset-list.js';
import { DATASETS } from '../../src/datasets/registry.js';

/**
 * The datasets the product registers, as the composition root composes them: tests derive every
 * list (subscriptions, bundle files) from here instead of naming one.
 */
export { DATASETS };
export const SUBSCRIPTIONS: readonly string[] = subscriptionsOf(DATASETS);
export const BUNDLES = bundlesOf(DATASETS);

/**
 * Revenues and net income (and emissions) without the line items: an app serving these reads each
 * statement call's sum plainly; every other kit dataset joins the call the same way
 * (test/kit.money-figures.test.ts, and the OpenAPI example replayed against the demo).
 */
export const STATEMENT_DATASETS = DATASETS.filter((d) =>
  ['revenues', 'net-income', 'ghg-emissions', 'ghg-intensity'].includes(d.name),
);
