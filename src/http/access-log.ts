import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import pino from 'pino';
import { CREDIT_COST_HEADER } from './errors.js';

const INFO = 30;
const UUID = /^[0-9a-f-]{36}$/;
/**
 * A character JSON.stringify escapes in a string: anything but these (the quote, the backslash,
 * control characters and surrogates are not among them; a surrogate pair goes the long way too).
 */
const ESCAPED_IN_JSON = /[^\x20\x21\x23-\x5b\x5d-\ud7ff\ue000-\uffff]/;

/**
 * `JSON.stringify(text)` for a string, the same text: one without a character to escape is only
 * quoted. The check costs about a third of JSON.stringify on a url of the API's length.
 */
export function jsonString(text: string): string {
  return ESCAPED_IN_JSON.test(text) ? JSON.stringify(text) : `"${text}"`;
}

/**
 * `String(Math.round(ms * 100) / 100)`, the same text, from whole hundredths: a fraction's shortest
 * decimal form took about a fifth of a microsecond, the integers' a few hundredths. The hundredths
 * divided by 100 print as themselves (the division rounds to the double nearest that decimal, and
 * no shorter decimal is as near), so the text is the integer part, then up to two digits.
 */
export function roundedMs(ms: number): string {
  const hundredths = Math.round(ms * 100);
  if (!(hundredths >= 0 && hundredths < 1e15)) return String(hundredths / 100);
  const whole = Math.floor(hundredths / 100);
  const fraction = hundredths - whole * 100;
  if (fraction === 0) return `${whole}`;
  if (fraction % 10 === 0) return `${whole}.${fraction / 10}`;
  return `${whole}.${fraction < 10 ? '0' : ''}${fraction}`;
}

type PinoLogger = pino.Logger & {
  [pino.symbols.chindingsSym]: string;
  [pino.symbols.streamSym]: { write(line: string): unknown };
};

/** The app's logger is pino's unless logging is off (then Fastify's does nothing). */
function isPino(logger: FastifyBaseLogger): logger is FastifyBaseLogger & PinoLogger {
  return pino.symbols.streamSym in logger;
}

/** The access log of an app: {@link AccessLog.add} a request's line, {@link AccessLog.flush} what is pending. */
export interface AccessLog {
  add(request: FastifyRequest, reply: FastifyReply): void;
  flush(): void;
}

/**
 * A request's access line: `reqId`, `method`, `url`, `route`, `status`, `cost` (when the answer
 * has a cost) and `ms`, never a header (keys travel in them). The line is the one pino writes for
 * `logger.info({...}, 'request')`, level, time and the logger's bindings included, sent to the
 * logger's own destination. Two measured reasons it is done here rather than by pino: pino's
 * general path (walking the object through serializers, hooks and escaping checks) cost about a
 * tenth of a billed call's throughput; and a write to standard output is a system call of several
 * microseconds, so the lines of one turn of the event loop (the answers of one billed batch) leave
 * in one write at its end (docs/search-and-hot-path.md). A crash can so lose the lines of the turn
 * in progress, never more; closing the app writes what is pending.
 */
export function accessLog(logger: FastifyBaseLogger): AccessLog {
  if (!isPino(logger)) return { add: () => {}, flush: () => {} };
  const stream = logger[pino.symbols.streamSym];
  const bindings = logger[pino.symbols.chindingsSym];
  let pending = '';
  const flush = () => {
    if (pending === '') return;
    const lines = pending;
    pending = '';
    stream.write(lines);
  };
  // The `"route":…,` part of each route's lines, made once per route.
  const routeParts = new Map<string, string>();
  const routePart = (route: string | undefined): string => {
    if (route === undefined) return '';
    let part = routeParts.get(route);
    if (part === undefined) {
      part = `"route":${JSON.stringify(route)},`;
      routeParts.set(route, part);
    }
    return part;
  };
  // Everything before the request id, made once per millisecond (many lines share one under load).
  let time = -1;
  let head = '';
  return {
    add(request, reply) {
      if (!logger.isLevelEnabled('info')) return;
      if (pending === '') setImmediate(flush);
      const cost = reply.getHeader(CREDIT_COST_HEADER);
      // Values are JSON-encoded where they could hold a character JSON must escape (the url, and
      // whatever the framework hands over); the method is an HTTP token, the rest numbers. Each
      // JSON.stringify is a tenth of a microsecond or more, so a request id of the app's own form
      // (a UUID, request-id.ts), a url with nothing to escape and a numeric cost go in as they are.
      const id = request.id;
      const now = Date.now();
      if (now !== time) {
        time = now;
        head = `{"level":${INFO},"time":${now}${bindings},"reqId":`;
      }
      pending +=
        `${head}${id.length === 36 && UUID.test(id) ? `"${id}"` : JSON.stringify(id)},` +
        `"method":"${request.method}","url":${jsonString(request.url)},` +
        `${routePart(request.routeOptions.url)}"status":${reply.statusCode},` +
        `${cost === undefined ? '' : `"cost":${typeof cost === 'number' ? cost : JSON.stringify(cost)},`}"ms":${roundedMs(reply.elapsedTime)},` +
        `"msg":"request"}\n`;
    },
    flush,
  };
}
