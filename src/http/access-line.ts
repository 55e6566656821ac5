import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import pino from 'pino';
import { CREDIT_COST_HEADER } from './errors.js';

const INFO = 30;

type PinoLogger = pino.Logger & {
  [pino.symbols.chindingsSym]: string;
  [pino.symbols.streamSym]: { write(line: string): unknown };
};

/** The app's logger is pino's unless logging is off (then Fastify's does nothing). */
function isPino(logger: FastifyBaseLogger): logger is FastifyBaseLogger & PinoLogger {
  return pino.symbols.streamSym in logger;
}

/**
 * Writes a request's access line: `reqId`, `method`, `url`, `route`, `status`, `cost` (when the
 * answer has a cost) and `ms`, never a header (keys travel in them). The line is the one pino
 * writes for `logger.info({...}, 'request')`, level, time and the logger's bindings included, sent
 * to the logger's own destination; it is put together here because pino's general path (walking
 * the object through serializers, hooks and escaping checks) cost about a tenth of a billed call's
 * throughput, four times what this does (docs/search-and-hot-path.md).
 */
export function accessLine(logger: FastifyBaseLogger): (request: FastifyRequest, reply: FastifyReply) => void {
  if (!isPino(logger)) return () => {};
  const internals = logger;
  return (request, reply) => {
    if (!logger.isLevelEnabled('info')) return;
    const cost = reply.getHeader(CREDIT_COST_HEADER);
    const route = request.routeOptions.url;
    // Values are JSON-encoded where they could hold a character JSON must escape (the url, and
    // whatever the framework hands over); the method is an HTTP token, the rest numbers.
    internals[pino.symbols.streamSym].write(
      `{"level":${INFO},"time":${Date.now()}${internals[pino.symbols.chindingsSym]},"reqId":${JSON.stringify(request.id)},` +
        `"method":"${request.method}","url":${JSON.stringify(request.url)},` +
        `${route === undefined ? '' : `"route":${JSON.stringify(route)},`}"status":${reply.statusCode},` +
        `${cost === undefined ? '' : `"cost":${JSON.stringify(cost)},`}"ms":${Math.round(reply.elapsedTime * 100) / 100},` +
        `"msg":"request"}\n`,
    );
  };
}
