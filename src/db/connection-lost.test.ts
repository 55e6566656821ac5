import { describe, expect, it } from 'vitest';
import { isConnectionLost } from './connection-lost.js';
import { NoWritableServer } from './writable-host.js';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isConnectionLost', () => {
  it.each([
    ['no writable server', new NoWritableServer('a:1: read-only')],
    ['a backend ended by an administrator (57P01)', withCode('57P01')],
    ['a server in crash recovery (57P02, 57P03)', withCode('57P03')],
    ['a connection exception (08006)', withCode('08006')],
    ['a read-only server (25006)', withCode('25006')],
    ['a refused socket', withCode('ECONNREFUSED')],
    ['a reset socket', withCode('ECONNRESET')],
    ['an unexpected end of the connection', new Error('Connection terminated unexpectedly')],
    ['a client broken before', new Error('Client has encountered a connection error and is not queryable')],
    ['a lost connection as the cause', new Error('charge failed', { cause: withCode('ECONNRESET') })],
  ])('is true for %s: the call may succeed when retried (503)', (_, error) => {
    expect(isConnectionLost(error)).toBe(true);
  });

  it.each([
    ['a syntax error (42601)', withCode('42601')],
    ['a unique violation (23505)', withCode('23505')],
    ['a statement timeout (57014)', withCode('57014')],
    ['a plain error', new Error('balance moved under its lock')],
    ['not an error', 'Connection terminated'],
  ])('is false for %s: a fault of the call (500)', (_, error) => {
    expect(isConnectionLost(error)).toBe(false);
  });
});
