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

/** `bin/corpdata ARGS` of one checkout against the database at `url`, under GNU time. */
function timedCli(variant: Variant, url: string, args: readonly string[]): Promise<IngestFigures> {
  return new Promise((resolve, reject) =>
    execFile(
      GNU_TIME,
      ['-f', '%e %M', process.execPath, join(variant.checkout, 'bin/corpdata'), ...args],
      {
        env: { PATH: process.env.PATH, CORPDATA_DATABASE: url, CORPDATA_SECRET: BENCH_SECRET, LOG_LEVEL: 'warn' },
        cwd: variant.checkout,
        maxBuffer: 1 << 24,
      },
      (error, _stdout, stderr) => {
        if (error !== null) reject(new Error(`${variant.label}: ${args.join(' ')}: ${stderr || error.message}`));
        else resolve(parseTimeLine(stderr));
      },
    ),
  );
}

/**
 * A fresh database made as an operator's first command makes it (`migrate`: the schema and the
 * demo data, seeded from the checkout's own bundle), then the ingest of the zip into it: measured
 * apart, since the demo's size is not the ingest's cost.
 */
async function ingestOnce(variant: Variant, url: string, zip: string): Promise<{ seed: IngestFigures; ingest: IngestFigures }> {
  const seed = await timedCli(variant, url, ['migrate']);
  const ingest = await timedCli(variant, url, ['ingest', 'sec-companyfacts', zip]);
  return { seed, ingest };
}

/**
 * The ingest part of `npm run bench`: each variant migrates a database of its own, fresh each round
 * (seeding its demo, as an operator's first command does), then ingests the SEC companyfacts bulk
 * zip into it, the variants alternated round by round; the median wall time and peak RSS of each
 * step, and each variant's ratio to the last one's (the version compared with).
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
  const seeds = new Map(variants.map((v): [string, IngestFigures[]] => [v.label, []]));
  let index = 0;
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < variants.length; i++) {
      const variant = variants[(r + i) % variants.length] as Variant;
      const url = await create(index++);
      const { seed, ingest } = await ingestOnce(variant, url, zip);
      (figures.get(variant.label) as IngestFigures[]).push(ingest);
      (seeds.get(variant.label) as IngestFigures[]).push(seed);
    }
  }
  report(dialect, 'migrate (demo seeded)', variants, seeds, write);
  report(dialect, 'ingest sec-companyfacts', variants, figures, write);
}

/** One line per variant: the median wall time and peak RSS of `what`, and the ratio to the last variant's. */
function report(
  dialect: string,
  what: string,
  variants: readonly Variant[],
  figures: ReadonlyMap<string, readonly IngestFigures[]>,
  write: (line: string) => void,
): void {
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
      `${dialect.padEnd(9)} ${what} ${variant.label.padEnd(10)} ${m.seconds.toFixed(1)} s, peak RSS ${Math.round(m.peakMiB)} MiB${ratio} | rounds ${runs}\n`,
    );
  }
}
