import type { Dataset } from './dataset.js';
import { ghgEmissions } from './ghg-emissions/ghg-emissions-dataset.js';
import { ghgIntensity } from './ghg-intensity/ghg-intensity-dataset.js';
import { netIncome } from './net-income/net-income-dataset.js';
import { revenues } from './revenues/revenues-dataset.js';

/**
 * Every dataset the API serves, one line each. Only the composition roots (`buildApp`, the CLI)
 * import this list; everything else is handed it (`AppContext.datasets`), so a test can build an
 * app with another set of datasets.
 */
export const DATASETS: readonly Dataset[] = [
  revenues as Dataset,
  ghgEmissions as Dataset,
  ghgIntensity as Dataset,
  netIncome as Dataset,
];
