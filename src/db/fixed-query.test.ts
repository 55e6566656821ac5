import { describe, expect, it } from 'vitest';
import { fixedQuery } from './fixed-query.js';

describe('fixedQuery', () => {
  it('keeps ? placeholders for SQLite and numbers them for PostgreSQL', () => {
    const text = 'update t set a = a - ? where id = ? and a >= ?';
    expect(fixedQuery('sqlite', text)([1, 'x', 1]).sql).toBe(text);
    expect(fixedQuery('postgres', text)([1, 'x', 1]).sql).toBe('update t set a = a - $1 where id = $2 and a >= $3');
    expect(fixedQuery('postgres', text)([2, 'y', 2]).parameters).toEqual([2, 'y', 2]);
  });
});
