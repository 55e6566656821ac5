import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { median } from './cpu-rounds.js';
import { BENCH_SECRET, type Variant } from './served-app.js';

/** GNU time: the only portable way to read a child's peak RSS (Node reports only its own). */
export const GNU_TIME = '/usr/bin/time';

/** One ingest of the bulk zip: wall time and peak resident memory of the CLI's process. */
export interface IngestFigures {
  seconds: number;
  peakMiB: number;
}

/** Reads GNU time's last line, as `-f '%e %M'` writes it: elapsed seconds and peak RSS in KiB. */
export function parseTimeLine(stderr: string): IngestFigures {
  const last = stderr.trimEnd().split('\n').at(-1) ?? '';
  const match = /^(\d+(?:\.\d+)?) (\d+)$/.exec(last.trim());
  if (match === null) throw new Error(`no time line in the ingest's stderr: ${last}`);
  return { seconds: Number(match[1]), peakMiB: Number(match[2]) / 1024 };
}

/** `bin/corpdata ingest sec-companyfacts ZIP` of one checkout into the database at `url`, under GNU time. */
function ingestOnce(variant: Variant, url: string, zip: string): Promise<IngestFigures> {
  return new Promise((resolve, reject) =>
    execFile(
      GNU_TIME,
      ['-f', '%e %M', process.execPath, join(variant.checkout, 'bin/corpdata'), 'ingest', 'sec-companyfacts', zip],
      {
        env: { PATH: process.env.PATH, CORPDATA_DATABASE: url, CORPDATA_SECRET: BENCH_SECRET, LOG_LEVEL: 'warn' },
        cwd: variant.checkout,
        maxBuffer: 1 << 24,
      },
      (error, _stdout, stderr) => {
        if (error !== null) reject(new Error(`${variant.label}: ingest sec-companyfacts: ${stderr || error.message}`));
        else resolve(parseTimeLine(stderr));
      },
    ),
  );
}

/**
 * The ingest part of `npm run bench`: each variant ingests the SEC companyfacts bulk zip into a
 * database of its own, fresh each round (the CLI migrates it and seeds the demo first, as an
 * operator's first ingest does), the variants alternated round by round; the median wall time and
 * peak RSS of each, and each variant's ratio to the last one's (the version compared with).
 */
export async function ingestBench(
  dialect: string,
  variants: readonly Variant[],
  create: (index: number) => Promise<string>,
  zip: string,
  rounds: number,
  write: (line: string) => void,
): Promise<void> {
  if (!existsSync(GNU_TIME)) {
    write(`${dialect.padEnd(9)} ingest skipped: ${GNU_TIME} (GNU time) is not installed\n`);
    return;
  }
  const figures = new Map(variants.map((v): [string, IngestFigures[]] => [v.label, []]));
  let index = 0;
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < variants.length; i++) {
      const variant = variants[(r + i) % variants.length] as Variant;
      const url = await create(index++);
      (figures.get(variant.label) as IngestFigures[]).push(await ingestOnce(variant, url, zip));
    }
  }
  const medians = new Map(
    [...figures].map(([label, runs]): [string, IngestFigures] => [
      label,
      { seconds: median(runs.map((f) => f.seconds)), peakMiB: median(runs.map((f) => f.peakMiB)) },
    ]),
  );
  const base = medians.get((variants.at(-1) as Variant).label) as IngestFigures;
  for (const variant of variants) {
    const m = medians.get(variant.label) as IngestFigures;
    const runs = (figures.get(variant.label) as IngestFigures[])
      .map((f) => `${f.seconds.toFixed(1)} s/${Math.round(f.peakMiB)} MiB`)
      .join(' ');
    const ratio =
      variants.length > 1
        ? ` (${(m.seconds / base.seconds).toFixed(2)}× time, ${(m.peakMiB / base.peakMiB).toFixed(2)}× memory of ${(variants.at(-1) as Variant).label})`
        : '';
    write(
      `${dialect.padEnd(9)} ingest sec-companyfacts ${variant.label.padEnd(10)} ${m.seconds.toFixed(1)} s, peak RSS ${Math.round(m.peakMiB)} MiB${ratio} | rounds ${runs}\n`,
    );
  }
}
