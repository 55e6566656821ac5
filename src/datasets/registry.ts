import type { Dataset } from './dataset.js';
import { ghgEmissions } from './ghg-emissions/ghg-emissions-dataset.js';
import { ghgIntensity } from './ghg-intensity/ghg-intensity-dataset.js';
import { revenues } from './revenues/revenues-dataset.js';

/** Every dataset the API serves, one line each; routes, billing, traces and bundles follow this list. */
export const DATASETS: readonly Dataset[] = [revenues as Dataset, ghgEmissions as Dataset, ghgIntensity as Dataset];

/** Every subscription an account may hold, in the order answers list them. */
export const SUBSCRIPTIONS: readonly string[] = [...new Set(DATASETS.map((d) => d.subscription))];

/** Human names of the billed endpoints, for the console's ledger. */
export const DATASET_LABELS: ReadonlyMap<string, string> = new Map(DATASETS.map((d) => [d.name, d.label]));
