import { stableId } from '../../../ingest/core/stable-id.js';
import type { MoneyFigureSpec } from './money-figure-spec.js';

/**
 * A figure's point id: stable across imports and exports, one per document and period, and keyed
 * by the dataset (revenues' are those `pointId` of the import has always made).
 */
export function figurePointId(spec: Pick<MoneyFigureSpec, 'pointKey'>, documentId: string, period: number): string {
  return stableId(`${spec.pointKey}-point:${documentId}:${period}`);
}
