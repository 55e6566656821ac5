/** Quiet runs stay quiet: progress starts after this long, then comes at this interval. */
const PROGRESS_AFTER_MS = 2_000;

/** A progress line on stderr every couple of seconds once a run of `source` has taken that long. */
export function progress(source: string, what: string): (n: number) => void {
  const started = Date.now();
  let next = started + PROGRESS_AFTER_MS;
  return (n) => {
    const now = Date.now();
    if (now < next) return;
    next = now + PROGRESS_AFTER_MS;
    const rss = Math.round(process.memoryUsage().rss / 1024 / 1024);
    process.stderr.write(`${source}: ${n} ${what} read in ${Math.round((now - started) / 1000)} s (${rss} MiB)\n`);
  };
}
