import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EXCHANGE_ORDER, exchangeRank } from '../exchange-order.js';
import { MAX_PROMINENCE, prominence } from './prominence.js';

describe('prominence', () => {
  it('weighs the best exchange, the markets, data and large accelerated filers', () => {
    expect(prominence({ micCodes: [] })).toBe(0);
    expect(prominence({ micCodes: ['OTCM'] })).toBe(0);
    expect(prominence({ micCodes: ['XNYS'] })).toBe(3);
    expect(prominence({ micCodes: ['XLON'] })).toBe(2);
    expect(prominence({ micCodes: ['XSTO'] })).toBe(1);
    expect(prominence({ micCodes: ['XNYS', 'XNYS', 'XNYS'] })).toBe(3);
    expect(prominence({ micCodes: ['XSTO', 'XNGS'] })).toBe(4);
    expect(prominence({ micCodes: ['XNYS', 'XLON', 'XETR'], hasData: true, largeAcceleratedFiler: true })).toBe(MAX_PROMINENCE);
  });

  it('follows the exchange order of the ticker rule', () => {
    expect(exchangeRank('XNYS')).toBe(0);
    expect(exchangeRank('XNAS')).toBe(1);
    expect(exchangeRank('XASX')).toBe(EXCHANGE_ORDER.length - 1);
    expect(exchangeRank('OTCM')).toBeUndefined();
  });

  it('stays within its range, ignores the order of listings, and never falls when one is added', () => {
    const mic = fc.constantFrom('XNYS', 'XNGS', 'XTKS', 'XLON', 'XETR', 'XSTO', 'XASX', 'OTCM', 'XMEX');
    fc.assert(
      fc.property(fc.array(mic, { maxLength: 6 }), mic, fc.boolean(), fc.boolean(), (mics, more, hasData, large) => {
        const p = prominence({ micCodes: mics, hasData, largeAcceleratedFiler: large });
        expect(p).toBeGreaterThanOrEqual(0);
        expect(p).toBeLessThanOrEqual(MAX_PROMINENCE);
        expect(prominence({ micCodes: [...mics].reverse(), hasData, largeAcceleratedFiler: large })).toBe(p);
        expect(prominence({ micCodes: [...mics, more], hasData, largeAcceleratedFiler: large })).toBeGreaterThanOrEqual(p);
      }),
    );
  });
});
