import type { Writable } from 'node:stream';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import pino from 'pino';
import type { AppContext } from './app-context.js';
import { KeyVerifier } from './auth/verify-key.js';
import { loadCatalog } from './catalog/catalog.js';
import { CatalogHolder } from './catalog/catalog-holder.js';
import type { Config } from './config.js';
import { consoleRoutes } from './console/routes.js';
import { Biller } from './credits/charge.js';
import type { Dataset } from './datasets/dataset.js';
import { subscriptionsOf } from './datasets/dataset-list.js';
import { DATASETS } from './datasets/registry.js';
import type { Db } from './db/connect.js';
import { signingSecret } from './db/migrate.js';
import { VersionWatcher } from './db/versions.js';
import { shuttingDown } from './errors/api-error.js';
import { datasetTables } from './events/event-record.js';
import { statusLoader } from './freshness/source-status.js';
import { accessLog } from './http/access-log.js';
import { frameworkErrors, installErrorHandling, TEXT } from './http/errors.js';
import { collectApiPaths, refuseOtherMethods, routeEveryMethod } from './http/method-discipline.js';
import { requestIdGenerator } from './http/request-id.js';
import { lazyRequestLogger } from './http/request-logger.js';
import { accountRoute } from './http/routes/account.js';
import { companiesRoutes } from './http/routes/companies.js';
import { datasetRoute } from './http/routes/dataset-route.js';
import { datasetServing } from './http/routes/dataset-serving.js';
import { eventsRoute } from './http/routes/events.js';
import { fundamentalsRoute } from './http/routes/fundamentals.js';
import { healthRoutes } from './http/routes/health.js';
import { openapiRoute } from './http/routes/openapi.js';
import { provenanceRoute } from './http/routes/provenance.js';
import { resolveRoute } from './http/routes/resolve.js';
import { statusRoute } from './http/routes/status.js';
import { webhooksRoute } from './http/routes/webhooks.js';
import { clientErrorHandler, installSocketRefusals } from './http/socket-refusals.js';
import { registerOpenApi } from './http/swagger.js';
import { API_PREFIX, installRateLimits } from './limits/rate-limit-hook.js';
import { RateLimiter } from './limits/rate-limiter.js';
import { pagesRoutes } from './site/pages-route.js';
import { traceRoutes } from './trace/trace-route.js';
import { Deliverer, deliveryLoop } from './webhooks/delivery.js';
import { SecretBox } from './webhooks/signing.js';

export interface BuildAppOptions {
  config: Config;
  /** A migrated database; the app does not close it. */
  db: Db;
  clock?: () => Date;
  /** The datasets to serve: every registered one unless a test composes another set. */
  datasets?: readonly Dataset[];
  /** Where the log goes (stdout by default, at the configured level), or false for a silent app. */
  logTo?: false | Writable;
  /** Whether this instance delivers webhooks too (design §20.4): `serve` says so, from the config. */
  deliver?: boolean;
}

const KEY_TOUCH_INTERVAL_MS = 60_000;
const MISSING_HOST = "Bad request: header 'Host' is missing; HTTP/1.1 requests must name the host.";

/** Fastify's form of {@link Config.trustProxy}: a hop count trusts that many proxies nearest to us. */
function trustProxy(trusted: Config['trustProxy']): false | string[] | ((address: string, hop: number) => boolean) {
  if (trusted === false) return false;
  if (typeof trusted === 'number') return (_address, hop) => hop < trusted;
  return [...trusted];
}

/**
 * The config the app runs with. Without CORPDATA_PUBLIC_URL the base of its links is
 * `http://localhost:{port}` with the port it actually listens on, known only once it listens
 * (PORT=0, or a test that listens elsewhere): everything reads `publicUrl` at request time.
 */
function liveConfig(config: Config, app: FastifyInstance): Config {
  if (!config.publicUrlFromPort) return config;
  let publicUrl = config.publicUrl;
  app.addHook('onListen', async () => {
    const address = app.server.address();
    if (address !== null && typeof address !== 'string') publicUrl = `http://localhost:${address.port}`;
  });
  return Object.freeze({
    ...config,
    get publicUrl() {
      return publicUrl;
    },
  });
}

/**
 * The composition root: builds a complete, independent app from a config and a database, so tests
 * run many apps side by side. Nothing here is module-level state.
 */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { db } = options;
  const clock = options.clock ?? (() => new Date());
  const app = Fastify({
    logger:
      options.logTo === false
        ? false
        : {
            level: options.config.logLevel,
            // Keys and session cookies travel in these headers: they never reach the log.
            redact: ['req.headers.authorization', 'req.headers.cookie'],
            // Standard output is written synchronously: a failure's line at once, the access lines of
            // one event-loop turn together at its end (access-log.ts). On the billed path this
            // measured about 11 % faster than pino's default asynchronous destination
            // (docs/search-and-hot-path.md).
            stream: options.logTo ?? pino.destination({ dest: 1, sync: true }),
          },
    genReqId: requestIdGenerator(),
    // One access line per request (below) instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: lazyRequestLogger,
    ajv: { customOptions: { removeAdditional: false, coerceTypes: true, allErrors: false } },
    routerOptions: { ignoreTrailingSlash: true },
    trustProxy: trustProxy(options.config.trustProxy),
    // Timeouts (design §6): headers and body within one limit, checked often enough to be near it.
    requestTimeout: options.config.requestTimeoutMs,
    keepAliveTimeout: options.config.keepAliveTimeoutMs,
    http: {
      // Refused by the first hook instead (below), so that the answer has the API's error form.
      requireHostHeader: false,
      headersTimeout: options.config.requestTimeoutMs,
      requestTimeout: options.config.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(1000, options.config.requestTimeoutMs),
    },
    frameworkErrors,
    clientErrorHandler,
    // Fastify's own 503 while closing is JSON; ours goes through the one error path (below).
    return503OnClosing: false,
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.server.maxConnections = options.config.maxConnections;
  installSocketRefusals(app.server, app.log);
  const config = liveConfig(options.config, app);

  const secret = await signingSecret(db.kysely, config.secret);
  const verifier = new KeyVerifier(db.kysely, secret, clock);
  const dataListeners: Array<() => void> = [];
  const catalog = new CatalogHolder(() => loadCatalog(db.kysely));
  const lastTouch = new Map<string, number>();
  const datasets = options.datasets ?? DATASETS;
  const ctx: AppContext = {
    config,
    db,
    clock,
    datasets,
    subscriptions: subscriptionsOf(datasets),
    catalog: () => catalog.get(),
    onDataChange: (listener) => dataListeners.push(listener),
    verifier,
    billing: new Biller(db),
    keyUseDue: (keyId, now) => {
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
      for (const listener of dataListeners) listener();
    }
  });
  await watcher.start();
  app.addHook('onClose', async () => watcher.stop());

  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // The first hook of every routed request (a callback hook, as every hook that runs on each
  // request: a promise each costs). It stamps the headers every answer carries, errors included
  // (what fails before routing is stamped by frameworkErrors); a request arriving on a kept-alive
  // connection once shutdown began is sent elsewhere.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    // No response is ever to be sniffed into something else (a text/plain 404 echoes the path).
    reply.header('x-content-type-options', 'nosniff');
    // HTTP/1.1 requires Host (RFC 9112 §3.2); an HTTP/1.0 request may go without.
    if (request.headers.host === undefined && request.raw.httpVersion !== '1.0') {
      // Answered here, as plain text on every route (pages included), and the connection closed.
      reply.code(400).header('connection', 'close').type(TEXT).send(MISSING_HOST);
      return;
    }
    if (!closing) {
      done();
      return;
    }
    reply.header('connection', 'close');
    done(shuttingDown());
  });
  app.decorateRequest('caller', null);
  // One access line per request. It names its request id itself, so that the request's own
  // logger, bound to it, need not be made (see lazyRequestLogger).
  const access = accessLog(app.log);
  app.addHook('onResponse', (request, reply, done) => {
    access.add(request, reply);
    done();
  });
  app.addHook('onClose', (_instance, done) => {
    access.flush();
    done();
  });
  installErrorHandling(app);
  // One set of buckets: an account's API calls and its console searches count together.
  const limiter = config.rateLimit === null ? undefined : new RateLimiter(config.rateLimit);
  if (limiter !== undefined) installRateLimits(app, ctx, limiter);
  routeEveryMethod(app);
  const apiPaths = collectApiPaths(app, API_PREFIX);
  await registerOpenApi(app, config, datasets);
  const servings = datasets.map((dataset) => datasetServing(ctx, dataset));
  for (const serving of servings) await app.register(datasetRoute(ctx, serving));
  await app.register(fundamentalsRoute(ctx, servings));
  await app.register(companiesRoutes(ctx));
  await app.register(resolveRoute(ctx));
  await app.register(accountRoute(ctx));
  await app.register(provenanceRoute(ctx));
  await app.register(eventsRoute(ctx));
  // One read of the sources' freshness every few seconds, for the status call and the home page.
  const status = statusLoader(db.kysely, ctx.clock);
  await app.register(statusRoute(status));
  const box = new SecretBox(secret);
  await app.register(webhooksRoute(ctx, box));
  await app.register(openapiRoute(config, datasets));
  await app.register(refuseOtherMethods(apiPaths));
  await app.register(healthRoutes(ctx));
  await app.register(pagesRoutes(ctx, status));
  await app.register(consoleRoutes(ctx, limiter));
  await app.register(traceRoutes(ctx));
  if (options.deliver === true) {
    const deliverer = new Deliverer({
      db: db.kysely,
      dialect: db.dialect,
      config: config.webhooks,
      box,
      byTable: datasetTables(datasets).byTable,
      onError: (error) => app.log.error({ err: error }, 'webhook delivery failed'),
    });
    const loop = deliveryLoop(deliverer, config.webhooks.pollMs, (error) =>
      app.log.error({ err: error }, 'webhook round failed'),
    );
    app.addHook('onClose', async () => loop.stop());
  }
  return app;
}
