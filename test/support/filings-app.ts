import { expect } from 'vitest';
import type { TestApp } from './test-app.js';

/** `GET /api/v1/revenues?QUERY` with `key`, expected to answer 200; its records. */
export async function revenuesOf<T>(t: TestApp, key: string, query: string): Promise<T[]> {
  const res = await t.get(`/api/v1/revenues?${query}`, key);
  expect(res.status, res.text).toBe(200);
  return res.json<T[]>();
}

/**
 * Waits until `ticker` has a revenue period: the server notices another process's ingest (such as
 * `bin/corpdata ingest`) within its watcher's interval. Throws after 200 tries 50 ms apart.
 */
export async function waitForPeriods(t: TestApp, key: string, ticker: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const res = await t.get(`/api/v1/revenues/periods?ticker=${ticker}`, key);
    if (res.status === 200 && res.json<{ reporting_periods: number[] }>().reporting_periods.length > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${ticker}: no revenue period after the ingest`);
}
