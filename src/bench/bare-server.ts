import Fastify from 'fastify';

/** One answer of the app, which a bare route replays: its status, its own headers and its body. */
export interface RecordedAnswer {
  status: number;
  headers: Record<string, string>;
  /** The body, base64 (it crosses the IPC channel as JSON). */
  body: string;
}

/** What the parent sends: the answers to replay, by route name (`/bare/<name>`). */
export type BareRoutes = Record<string, RecordedAnswer>;

/**
 * The bare routes, in a process of their own so that their CPU time is measured alone: a Fastify
 * app without logger, hooks or schemas, each route answering one recorded answer of the product
 * (the same status, headers and body bytes). Started by {@link startBareServer} (bare-route.ts),
 * which sends the routes over the IPC channel; this process answers with its port.
 */
function serve(routes: BareRoutes): void {
  const app = Fastify({ logger: false });
  for (const [name, answer] of Object.entries(routes)) {
    const body = Buffer.from(answer.body, 'base64');
    app.get(`/bare/${name}`, (_request, reply) => {
      reply.code(answer.status).headers(answer.headers).send(body);
    });
  }
  app.listen({ port: 0, host: '127.0.0.1' }).then(
    () => {
      const address = app.server.address();
      process.send?.({ port: typeof address === 'object' && address !== null ? address.port : 0 });
    },
    (error: unknown) => {
      process.stderr.write(`bare server: ${String(error)}\n`);
      process.exit(1);
    },
  );
  process.on('SIGTERM', () => void app.close().finally(() => process.exit(0)));
}

process.once('message', (routes: BareRoutes) => serve(routes));
