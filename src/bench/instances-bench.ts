import autocannon from 'autocannon';
import { type LoadOptions, median } from './cpu-rounds.js';
import { cpuBetween, cpuSnapshot, postgresPids } from './cpu-time.js';
import { type ServedApp, serveVariant, type Variant } from './served-app.js';

function load(app: ServedApp, path: string, options: LoadOptions): Promise<autocannon.Result> {
  return new Promise((resolve, reject) =>
    autocannon(
      {
        url: `${app.base}${path}`,
        connections: options.connections,
        duration: options.seconds,
        headers: { authorization: `Bearer ${app.key}` },
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    ),
  );
}

/** Calls a second and CPU µs per call (every instance's process, every PostgreSQL process) of one round. */
async function round(apps: readonly ServedApp[], path: string, options: LoadOptions, port: number) {
  const pids = () => [...apps.map((a) => a.pid), ...postgresPids(port)];
  const before = cpuSnapshot(pids());
  const results = await Promise.all(apps.map((a) => load(a, path, options)));
  const after = cpuSnapshot(pids());
  if (results.some((r) => r.non2xx > 0 || r.errors > 0)) throw new Error('billed call on several instances: errors');
  const calls = results.reduce((sum, r) => sum + r.requests.total, 0);
  return {
    rps: results.reduce((sum, r) => sum + r.requests.average, 0),
    us: (cpuBetween(before, after) * 1e6) / Math.max(1, calls),
  };
}

/**
 * PostgreSQL: `count` instances of the app on one database (the first one's, its key reused), each
 * loaded by its own connections at once, against the first alone, alternated round by round:
 * calls a second, and CPU time per call of the instances and the server together.
 */
export async function instancesBench(
  variant: Variant,
  database: string,
  count: number,
  options: LoadOptions,
  path: string,
  port: number,
  write: (line: string) => void,
): Promise<void> {
  const first = await serveVariant(variant, database);
  const apps = [first];
  try {
    for (let i = 1; i < count; i++) apps.push(await serveVariant(variant, database, { key: first.key }));
    for (const app of apps) await load(app, path, { ...options, seconds: Math.min(2, options.seconds) });
    const alone = { rps: [] as number[], us: [] as number[] };
    const together = { rps: [] as number[], us: [] as number[] };
    for (let r = 0; r < options.rounds; r++) {
      const a = await round([first], path, options, port);
      alone.rps.push(a.rps);
      alone.us.push(a.us);
      const t = await round(apps, path, options, port);
      together.rps.push(t.rps);
      together.us.push(t.us);
    }
    write(
      `postgres  billed, ${count} instances on one database ${median(together.rps).toFixed(0)} req/s, ${median(together.us).toFixed(1)} µs/call (apps + PostgreSQL) | 1 instance ${median(alone.rps).toFixed(0)} req/s, ${median(alone.us).toFixed(1)} µs/call\n`,
    );
  } finally {
    for (const app of apps) await app.stop();
  }
}
