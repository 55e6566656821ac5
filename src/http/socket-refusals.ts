import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { statusSentence, TEXT } from './errors.js';

/**
 * Writes a whole answer in the API's error form (plain-text sentence, request id, nosniff) on a raw
 * socket, then closes it: what Node refuses before Fastify sees a request never reaches the error
 * handler, and after such a refusal nothing more on the connection can be trusted.
 */
function answerOnSocket(socket: Socket, status: number, extra: Readonly<Record<string, string>> = {}): string {
  const id = randomUUID();
  // A response already under way on this socket must not be interleaved with another.
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && inFlight?.headersSent !== true) {
    const body = statusSentence(status);
    const headers = Object.entries(extra)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        `Content-Type: ${TEXT}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${id}\r\nX-Content-Type-Options: nosniff\r\n${headers}Connection: close\r\n\r\n${body}`,
    );
  }
  socket.destroySoon();
  return id;
}

/** What Node's HTTP parser refused, by its error code: the status to answer. */
function clientErrorStatus(code: string | undefined): number {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT' || code === 'ERR_HTTP_HEADERS_TIMEOUT') return 408;
  if (code === 'HPE_HEADER_OVERFLOW') return 431;
  return 400;
}

/**
 * Answers a request Node's HTTP parser refused (bad header bytes, obs-fold, bare LF, conflicting
 * Content-Length and Transfer-Encoding, a timeout) in the API's error form.
 */
export function clientErrorHandler(this: FastifyInstance, error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const id = answerOnSocket(socket, clientErrorStatus(error.code));
  this.log.debug({ reqId: id, code: error.code }, 'client error');
}

/**
 * The refusals Node makes itself unless told otherwise, answered in the API's error form: an
 * `Expect` other than 100-continue (417), and CONNECT, which asks for a tunnel this server never
 * opens (405; Node would drop the connection without a word). A request without `Host` is let
 * through Node (`requireHostHeader: false`) and refused by the app's first hook.
 */
export function installSocketRefusals(server: Server, log: FastifyBaseLogger): void {
  server.on('checkExpectation', (_request, response) => {
    const id = randomUUID();
    const body = statusSentence(417);
    response.writeHead(417, {
      'content-type': TEXT,
      'content-length': Buffer.byteLength(body),
      'x-request-id': id,
      'x-content-type-options': 'nosniff',
      connection: 'close',
    });
    response.end(body);
    log.debug({ reqId: id }, 'expectation refused');
  });
  server.on('connect', (_request, socket: Socket) => {
    const id = answerOnSocket(socket, 405, { Allow: 'GET' });
    log.debug({ reqId: id }, 'CONNECT refused');
  });
}
