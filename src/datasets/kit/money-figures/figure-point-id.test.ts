import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pointId } from '../../../ingest/core/rates.js';
import { figurePointId } from './figure-point-id.js';

describe('figure point ids', () => {
  it('are the ids revenue points always had, and differ between datasets', () => {
    fc.assert(
      fc.property(fc.uuid(), fc.integer({ min: 1990, max: 2030 }), (documentId, period) => {
        const revenue = figurePointId({ pointKey: 'revenue' }, documentId, period);
        expect(revenue).toBe(pointId(documentId, period));
        expect(revenue).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/);
        expect(figurePointId({ pointKey: 'net-income' }, documentId, period)).not.toBe(revenue);
      }),
    );
  });
});
