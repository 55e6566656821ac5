import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { integer, MAX_PERIOD, Messages, MIN_PERIOD, uuid, year } from './field-checks.js';

const check = <T>(f: (m: Messages) => T): { value: T; messages: string[] } => {
  const m = new Messages();
  const value = f(m);
  return { value, messages: m.list };
};

describe('the shared field checks', () => {
  it('take a lower-case UUID and name the column of anything else', () => {
    fc.assert(
      fc.property(fc.uuid(), (id) => {
        expect(check((m) => uuid(m, 'document_id', id.toLowerCase())).messages).toEqual([]);
        if (id.toUpperCase() !== id.toLowerCase()) {
          expect(check((m) => uuid(m, 'document_id', id.toUpperCase())).messages).toEqual([
            `document_id "${id.toUpperCase()}" is not a lower-case UUID`,
          ]);
        }
      }),
    );
  });

  it('take exactly the years of the bundle range, written as four digits', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9999 }), (n) => {
        const { value, messages } = check((m) => year(m, 'reporting_period', String(n).padStart(4, '0')));
        const inRange = n >= MIN_PERIOD && n <= MAX_PERIOD;
        expect(messages.length === 0).toBe(inRange);
        if (inRange) expect(value).toBe(n);
      }),
    );
    expect(check((m) => year(m, 'reporting_period', '2023.0')).messages).toHaveLength(1);
  });

  it('read back every safe integer written plainly, and refuse other spellings', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (n) => {
        expect(check((m) => integer(m, 'value', String(n), -Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER))).toEqual({
          value: n,
          messages: [],
        });
      }),
    );
    for (const bad of ['+1', '01', '1e3', '1.0', ''])
      expect(check((m) => integer(m, 'value', bad, 0, 10)).messages, bad).toEqual([`value "${bad}" is not an integer`]);
  });
});
