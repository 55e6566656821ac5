import type { DatasetBundle } from '../ingest/core/dataset-bundle.js';
import type { FigureSpec } from '../ingest/core/figure-spec.js';
import type { Dataset } from './dataset.js';

/** Every subscription the datasets need, once each, in the order of the list (the order answers use). */
export function subscriptionsOf(datasets: readonly Dataset[]): string[] {
  return [...new Set(datasets.map((d) => d.subscription))];
}

/** The datasets' own bundle files, in the list's order. */
export function bundlesOf(datasets: readonly Dataset[]): DatasetBundle[] {
  return datasets.flatMap((d) => (d.bundle === undefined ? [] : [d.bundle]));
}

/** The dataset of this name (also a ledger line's endpoint), if the list has it. */
export function datasetNamed(datasets: readonly Dataset[], name: string | undefined): Dataset | undefined {
  return datasets.find((d) => d.name === name);
}

/** The figure specs of the datasets read from filings, in the list's order: what every filings ingest fills. */
export function figureSpecsOf(datasets: readonly Dataset[]): FigureSpec[] {
  return datasets.flatMap((d) => (d.figures === undefined ? [] : [d.figures]));
}
