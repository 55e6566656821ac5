/** Quiet runs stay quiet: progress starts after this long, then comes at this interval. */
const PROGRESS_AFTER_MS = 2_000;

/**
 * A progress line on stderr every couple of seconds once a run of `source` has taken that long.
 * The reader calls it with `done` once it has read everything: a run that showed progress then
 * shows the final count, the same number the summary gives under the same word.
 */
export function progress(source: string, what: string): (n: number, done?: boolean) => void {
  const started = Date.now();
  let next = started + PROGRESS_AFTER_MS;
  return (n, done = false) => {
    const now = Date.now();
    if (now < (done ? started + PROGRESS_AFTER_MS : next)) return;
    next = now + PROGRESS_AFTER_MS;
    const rss = Math.round(process.memoryUsage().rss / 1024 / 1024);
    const end = done ? '; reading done' : '';
    process.stderr.write(`${source}: ${n} ${what} read in ${Math.round((now - started) / 1000)} s (${rss} MiB)${end}\n`);
  };
}
