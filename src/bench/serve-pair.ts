import Fastify, { type FastifyInstance } from 'fastify';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { connect } from '../db/connect.js';

/**
 * The two servers a benchmark compares, in one process so they share its runtime: the full app
 * (auth, billing, data) and bare Fastify routes sending the same bytes as its answers (a revenues
 * answer, a search answer, a test-token answer: the same headers and bodies of the same sizes); or, with
 * BENCH_SECOND_RATE_LIMIT set, a second full app whose only difference is that rate limit.
 */
/** What a serve-pair process sends its parent once both servers listen. */
export interface ServePairReady {
  appPort: number;
  barePort: number;
}

function portOf(server: FastifyInstance): number {
  const address = server.server.address();
  if (address === null || typeof address === 'string') throw new Error('server has no TCP port');
  return address.port;
}

async function main(): Promise<void> {
  const config = loadConfig();
  // As `serve` does: on SQLite, the write-ahead log is checkpointed on a worker thread.
  const db = connect(config.database, { poolSize: config.poolSize, backgroundCheckpoints: true });
  // The app logs as in service: to standard output (which the benchmark points at /dev/null), at
  // LOG_LEVEL (info by default).
  const app = await buildApp({ config, db });
  // Port 0: the system picks a free port (a fixed one may be an outgoing connection's); the ports
  // are reported with the ready message.
  await app.listen({ port: 0, host: '127.0.0.1' });
  let second: FastifyInstance;
  const secondLimit = process.env.BENCH_SECOND_RATE_LIMIT;
  if (secondLimit !== undefined) {
    const limited = loadConfig({ ...process.env, CORPDATA_RATE_LIMIT: secondLimit });
    second = await buildApp({ config: limited, db });
  } else {
    const body = JSON.stringify([{ filler: 'x'.repeat(Math.max(0, Number(process.env.BENCH_BODY_BYTES) - 15)) }]);
    const searchBody = JSON.stringify([{ filler: 'x'.repeat(Math.max(0, Number(process.env.BENCH_SEARCH_BYTES ?? 0) - 15)) }]);
    second = Fastify({ logger: false });
    // The app's own headers too (request id, nosniff, credit headers), with the values of one of
    // its answers: the bare routes send the same bytes, headers and body.
    const headers = JSON.parse(process.env.BENCH_BODY_HEADERS ?? '{}') as Record<string, string>;
    const searchHeaders = JSON.parse(process.env.BENCH_SEARCH_HEADERS ?? '{}') as Record<string, string>;
    second.get('/bare', async (_request, reply) => reply.headers(headers).type('application/json; charset=utf-8').send(body));
    second.get('/bare-search', async (_request, reply) =>
      reply.headers(searchHeaders).type('application/json; charset=utf-8').send(searchBody),
    );
    const mockBody = JSON.stringify([{ filler: 'x'.repeat(Math.max(0, Number(process.env.BENCH_MOCK_BYTES ?? 0) - 15)) }]);
    const mockHeaders = JSON.parse(process.env.BENCH_MOCK_HEADERS ?? '{}') as Record<string, string>;
    second.get('/bare-mock', async (_request, reply) =>
      reply.headers(mockHeaders).type('application/json; charset=utf-8').send(mockBody),
    );
  }
  await second.listen({ port: 0, host: '127.0.0.1' });
  const ready: ServePairReady = { appPort: portOf(app), barePort: portOf(second) };
  process.send?.(ready);
  process.on('SIGTERM', () => {
    Promise.all([app.close(), second.close()])
      .then(() => db.close())
      .finally(() => process.exit(0));
  });
}

void main();
