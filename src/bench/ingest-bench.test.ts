import { describe, expect, it } from 'vitest';
import { parseTimeLine } from './ingest-bench.js';

describe('parseTimeLine', () => {
  it("reads GNU time's last line after the CLI's own progress lines: seconds and peak RSS in MiB", () => {
    const stderr = 'sec-companyfacts: 351 filers read in 18 s (195 MiB); reading done\n26.81 249288\n';
    expect(parseTimeLine(stderr)).toEqual({ seconds: 26.81, peakMiB: 249288 / 1024 });
  });

  it('refuses stderr without a time line, naming what it found', () => {
    expect(() => parseTimeLine('Command terminated by signal 9\n')).toThrow(/no time line.*signal 9/);
    expect(() => parseTimeLine('')).toThrow(/no time line/);
  });
});
