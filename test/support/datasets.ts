import { bundlesOf, subscriptionsOf } from '../../src/datasets/dataset-list.js';
import { DATASETS } from '../../src/datasets/registry.js';

/**
 * The datasets the product registers, as the composition root composes them: tests derive every
 * list (subscriptions, bundle files) from here instead of naming one.
 */
export { DATASETS };
export const SUBSCRIPTIONS: readonly string[] = subscriptionsOf(DATASETS);
export const BUNDLES = bundlesOf(DATASETS);
