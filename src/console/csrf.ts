import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;

/** A fresh random token (256 bits, base64url): session tokens and CSRF tokens alike. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** True for a string shaped like a {@link newToken} token. */
export function isToken(value: string | undefined): value is string {
  return value !== undefined && TOKEN_RE.test(value);
}

/**
 * Compares a submitted CSRF token with the expected one in constant time. Both sides are hashed
 * first, so neither the length nor the content of the expected token leaks through timing.
 */
export function tokensMatch(expected: string, given: string | undefined): boolean {
  if (given === undefined || given === '' || expected === '') return false;
  const a = createHash('sha256').update(expected).digest();
  const b = createHash('sha256').update(given).digest();
  return timingSafeEqual(a, b);
}
