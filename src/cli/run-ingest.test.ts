import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { progress } from './run-ingest.js';

describe('ingest progress on stderr', () => {
  let lines: string[];
  beforeEach(() => {
    vi.useFakeTimers();
    lines = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  it('ends a run that showed progress with the final count, the one the summary gives', () => {
    const tick = progress('sec-companyfacts', 'filers');
    tick(1);
    vi.advanceTimersByTime(2_500);
    tick(169);
    vi.advanceTimersByTime(500);
    tick(200);
    tick(351, true);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^sec-companyfacts: 169 filers read in 3 s \([0-9]+ MiB\)\n$/);
    expect(lines[1]).toMatch(/^sec-companyfacts: 351 filers read in 3 s \([0-9]+ MiB\); reading done\n$/);
  });

  it('keeps a quick run quiet, its end too', () => {
    const tick = progress('esef', 'filers');
    tick(1);
    tick(2, true);
    expect(lines).toEqual([]);
  });

  it('shows the end of a run that took long but called no progress before', () => {
    const tick = progress('esef', 'filers');
    vi.advanceTimersByTime(4_000);
    tick(12, true);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^esef: 12 filers read in 4 s \([0-9]+ MiB\); reading done\n$/);
  });
});
