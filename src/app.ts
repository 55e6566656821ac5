import { randomUUID } from 'node:crypto';
import type { Writable } from 'node:stream';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import type { AppContext } from './app-context.js';
import { KeyVerifier } from './auth/verify-key.js';
import { loadCatalog } from './catalog/catalog.js';
import { CatalogHolder } from './catalog/catalog-holder.js';
import type { Config } from './config.js';
import { consoleRoutes } from './console/routes.js';
import { Biller } from './credits/charge.js';
import type { Db } from './db/connect.js';
import { signingSecret } from './db/migrate.js';
import { VersionWatcher } from './db/versions.js';
import { clientErrorHandler, frameworkErrors, installErrorHandling, shuttingDown } from './http/errors.js';
import { companiesRoutes } from './http/routes/companies.js';
import { healthRoutes } from './http/routes/health.js';
import { openapiRoute } from './http/routes/openapi.js';
import { pagesRoutes } from './http/routes/pages.js';
import { revenuesRoute } from './http/routes/revenues.js';
import { registerOpenApi } from './http/swagger.js';
import { loadCompanyRevenues, RevenueCache } from './revenues/revenue-data.js';
import { traceRoutes } from './trace/trace-route.js';

export interface BuildAppOptions {
  config: Config;
  /** A migrated database; the app does not close it. */
  db: Db;
  clock?: () => Date;
  /** Where the log goes (stdout by default, at the configured level), or false for a silent app. */
  logTo?: false | Writable;
}

const KEY_TOUCH_INTERVAL_MS = 60_000;

/** Fastify's form of {@link Config.trustProxy}: a hop count trusts that many proxies nearest to us. */
function trustProxy(trusted: Config['trustProxy']): false | string[] | ((address: string, hop: number) => boolean) {
  if (trusted === false) return false;
  if (typeof trusted === 'number') return (_address, hop) => hop < trusted;
  return [...trusted];
}

/**
 * The composition root: builds a complete, independent app from a config and a database, so tests
 * run many apps side by side. Nothing here is module-level state.
 */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, db } = options;
  const clock = options.clock ?? (() => new Date());
  const app = Fastify({
    logger:
      options.logTo === false
        ? false
        : {
            level: config.logLevel,
            // Keys and session cookies travel in these headers: they never reach the log.
            redact: ['req.headers.authorization', 'req.headers.cookie'],
            ...(options.logTo === undefined ? {} : { stream: options.logTo }),
          },
    genReqId: () => randomUUID(),
    ajv: { customOptions: { removeAdditional: false, coerceTypes: true, allErrors: false } },
    routerOptions: { ignoreTrailingSlash: true },
    trustProxy: trustProxy(config.trustProxy),
    // Timeouts (DESIGN §6): headers and body within one limit, checked often enough to be near it.
    requestTimeout: config.requestTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    http: {
      headersTimeout: config.requestTimeoutMs,
      requestTimeout: config.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(1000, config.requestTimeoutMs),
    },
    frameworkErrors,
    clientErrorHandler,
    // Fastify's own 503 while closing is JSON; ours goes through the one error path (below).
    return503OnClosing: false,
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.server.maxConnections = config.maxConnections;

  const secret = await signingSecret(db.kysely, config.secret);
  const verifier = new KeyVerifier(db.kysely, secret, clock);
  const revenues = new RevenueCache((companyId) => loadCompanyRevenues(db.kysely, companyId, config.publicUrl));
  const catalog = new CatalogHolder(() => loadCatalog(db.kysely));
  const lastTouch = new Map<string, number>();
  const ctx: AppContext = {
    config,
    db,
    clock,
    catalog: () => catalog.get(),
    revenues,
    verifier,
    billing: new Biller(db),
    keyUseDue: (keyId) => {
      const now = clock().getTime();
      const last = lastTouch.get(keyId);
      if (last !== undefined && now - last < KEY_TOUCH_INTERVAL_MS) return false;
      if (lastTouch.size > 100_000) lastTouch.clear();
      lastTouch.set(keyId, now);
      return true;
    },
  };

  const watcher = new VersionWatcher(db.kysely, config.syncIntervalMs, (error) =>
    app.log.error({ err: error }, 'version check failed'),
  );
  watcher.onChange((name) => {
    if (name === 'auth') verifier.invalidate();
    if (name === 'data') {
      catalog.invalidate();
      revenues.clear();
    }
  });
  await watcher.start();
  app.addHook('onClose', async () => watcher.stop());

  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // A request arriving on a kept-alive connection once shutdown began is sent elsewhere.
  app.addHook('onRequest', async (_request, reply) => {
    if (!closing) return;
    reply.header('connection', 'close');
    throw shuttingDown();
  });
  app.decorateRequest('caller', null);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    // No response is ever to be sniffed into something else (a text/plain 404 echoes the path).
    reply.header('x-content-type-options', 'nosniff');
  });
  installErrorHandling(app);
  await registerOpenApi(app, config.publicUrl);
  await app.register(revenuesRoute(ctx));
  await app.register(companiesRoutes(ctx));
  await app.register(openapiRoute);
  await app.register(healthRoutes(ctx));
  await app.register(pagesRoutes(ctx));
  await app.register(consoleRoutes(ctx));
  await app.register(traceRoutes(ctx));
  return app;
}
