import type { Dataset } from './dataset.js';
import { ghgEmissions } from './ghg-emissions/ghg-emissions-dataset.js';
import { ghgIntensity } from './ghg-intensity/ghg-intensity-dataset.js';
import { LINE_ITEM_DATASETS } from './line-items/line-item-dataset.js';
import { netIncome } from './net-income/net-income-dataset.js';
import { revenues } from './revenues/revenues-dataset.js';

/**
 * Every dataset the API serves, one entry each. Only the composition roots (`buildApp`, the CLI)
 * import this list; everything else is handed it (`AppContext.datasets`), so a test can build an
 * app with another set of datasets. Each entry is checked as it stands, without a cast: a
 * `Dataset<R>` of its own records is a `Dataset`, since its records only come out of it (`load`,
 * `mock`).
 */
export const DATASETS: readonly Dataset[] = [revenues, ghgEmissions, ghgIntensity, netIncome, ...LINE_ITEM_DATASETS];
