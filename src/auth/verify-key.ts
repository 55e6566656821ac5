import { timingSafeEqual } from 'node:crypto';
import { decodeProtectedHeader, errors, jwtVerify } from 'jose';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { KEY_ALGORITHM } from './api-keys.js';
import { TEST_TOKEN } from './test-token.js';

/**
 * Why a credential was refused, checked in this order. `not_yet_valid` (a future `nbf`) and
 * `unsupported_critical` (a `crit` header: our keys never carry one, so no extension is understood)
 * have their own texts, so that a client with a clock ahead or a foreign signer is told why.
 */
export type AuthFailure =
  | 'missing'
  | 'malformed'
  | 'unsupported_critical'
  | 'bad_signature'
  | 'bad_algorithm'
  | 'not_yet_valid'
  | 'expired'
  | 'revoked';

export type AuthResult =
  | { ok: true; mode: 'test' }
  | { ok: true; mode: 'account'; accountId: string; keyId: string; subscriptions: ReadonlySet<string> }
  | { ok: false; failure: AuthFailure };

interface Claims {
  accountId: string;
  keyId: string;
  /** Seconds since the epoch, or undefined when the key does not expire. */
  exp: number | undefined;
}

interface KeyState {
  accountId: string;
  revoked: boolean;
  /** The caller this key makes while valid, made once per state (see {@link KeyVerifier.known}). */
  caller: AuthResult;
}

const TEST_MODE: AuthResult = Object.freeze({ ok: true, mode: 'test' });
const MISSING: AuthResult = Object.freeze({ ok: false, failure: 'missing' });
const MALFORMED: AuthResult = Object.freeze({ ok: false, failure: 'malformed' });
const EXPIRED: AuthResult = Object.freeze({ ok: false, failure: 'expired' });
const REVOKED: AuthResult = Object.freeze({ ok: false, failure: 'revoked' });

const TEST_TOKEN_BYTES = Buffer.from(TEST_TOKEN);
const CLAIMS_CAPACITY = 50_000;

/** The test token is published, so its length is no secret: only a token of that length is compared. */
function isTestToken(token: string): boolean {
  if (token.length !== TEST_TOKEN.length) return false;
  const bytes = Buffer.from(token);
  return bytes.length === TEST_TOKEN_BYTES.length && timingSafeEqual(bytes, TEST_TOKEN_BYTES);
}

const BEARER = 'Bearer ';
const BEARER_TEST_TOKEN = `${BEARER}${TEST_TOKEN}`;

/**
 * Verifies `Authorization: Bearer <key>`. Verified claims are cached by token (their signature
 * cannot change) and key states by key id until the auth version moves, which every revocation
 * bumps; so the hot path needs no database read and a revocation still takes effect at once.
 */
export class KeyVerifier {
  readonly #secret: Uint8Array;
  readonly #claims = new Map<string, Claims>();
  #states = new Map<string, KeyState>();

  constructor(
    private readonly db: Kysely<Database>,
    secret: string,
    private readonly clock: () => Date,
  ) {
    this.#secret = new TextEncoder().encode(secret);
  }

  /** Forgets every cached key state (revocations, subscriptions), not the verified signatures. */
  invalidate(): void {
    this.#states = new Map();
  }

  /**
   * The answer without waiting on anything, when it is known: no or a malformed header, the test
   * token, or a key whose signature and state are cached (every call after a key's first, until
   * the next revocation anywhere). Undefined when {@link verify} must run.
   */
  known(header: string | undefined): AuthResult | undefined {
    // The test token as clients send it. It is public, so a plain comparison reveals nothing.
    if (header === BEARER_TEST_TOKEN) return TEST_MODE;
    // A verified key as clients send it: its claims say the token is well formed, so the header
    // needs no parsing (any other spelling of the scheme takes the general path below).
    if (header?.startsWith(BEARER)) {
      const claims = this.#claims.get(header.slice(BEARER.length));
      const state = claims === undefined ? undefined : this.#states.get(claims.keyId);
      if (claims !== undefined && state !== undefined) return this.#judge(claims, state);
    }
    const token = this.#token(header);
    if (typeof token !== 'string') return token;
    if (isTestToken(token)) return TEST_MODE;
    const claims = this.#claims.get(token);
    if (claims === undefined) return undefined;
    const state = this.#states.get(claims.keyId);
    return state === undefined ? undefined : this.#judge(claims, state);
  }

  /**
   * Hands `then` the answer: at once when it is {@link known}, else once {@link verify} has it. For
   * callback hooks, which so pass a known key without a promise.
   */
  answer(header: string | undefined, then: (result: AuthResult) => void, fail: (error: Error) => void): void {
    const known = this.known(header);
    if (known !== undefined) then(known);
    else this.verify(header).then(then, fail);
  }

  async verify(header: string | undefined): Promise<AuthResult> {
    const token = this.#token(header);
    if (typeof token !== 'string') return token;
    if (isTestToken(token)) return TEST_MODE;
    let claims = this.#claims.get(token);
    if (claims === undefined) {
      const verified = await this.#verifyToken(token);
      if (!verified.ok) return verified;
      claims = verified.claims;
      if (this.#claims.size >= CLAIMS_CAPACITY) this.#claims.clear();
      this.#claims.set(token, claims);
    }
    return this.#judge(claims, await this.#state(claims.keyId));
  }

  /** The bearer token of the header, or why there is none. */
  #token(header: string | undefined): string | AuthResult {
    if (header === undefined || header === '') return MISSING;
    const match = /^(\S+) ([A-Za-z0-9_\-.=]+)$/.exec(header);
    const token = match?.[2];
    // The scheme name is case-insensitive in HTTP (RFC 9110 §11.1); the token is not.
    if (token === undefined || match?.[1]?.toLowerCase() !== 'bearer') return MALFORMED;
    return token;
  }

  #judge(claims: Claims, state: KeyState | undefined): AuthResult {
    if (claims.exp !== undefined && claims.exp * 1000 <= this.clock().getTime()) return EXPIRED;
    if (state === undefined || state.revoked || state.accountId !== claims.accountId) return REVOKED;
    return state.caller;
  }

  async #verifyToken(token: string): Promise<{ ok: true; claims: Claims } | { ok: false; failure: AuthFailure }> {
    try {
      if (decodeProtectedHeader(token).crit !== undefined) return { ok: false, failure: 'unsupported_critical' };
    } catch {
      return { ok: false, failure: 'malformed' };
    }
    try {
      const { payload } = await jwtVerify(token, this.#secret, {
        algorithms: [KEY_ALGORITHM],
        currentDate: this.clock(),
      });
      if (typeof payload.sub !== 'string' || typeof payload.jti !== 'string') return { ok: false, failure: 'malformed' };
      return { ok: true, claims: { accountId: payload.sub, keyId: payload.jti, exp: payload.exp } };
    } catch (error) {
      if (error instanceof errors.JWTExpired) return { ok: false, failure: 'expired' };
      if (error instanceof errors.JWTClaimValidationFailed && error.claim === 'nbf')
        return { ok: false, failure: 'not_yet_valid' };
      if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported) {
        return { ok: false, failure: 'bad_algorithm' };
      }
      if (error instanceof errors.JWSSignatureVerificationFailed) return { ok: false, failure: 'bad_signature' };
      return { ok: false, failure: 'malformed' };
    }
  }

  async #state(keyId: string): Promise<KeyState | undefined> {
    const states = this.#states;
    const cached = states.get(keyId);
    if (cached !== undefined) return cached;
    const row = await this.db
      .selectFrom('api_keys as k')
      .innerJoin('accounts as a', 'a.account_id', 'k.account_id')
      .select(['k.account_id', 'k.revoked_at'])
      .where('k.key_id', '=', keyId)
      .executeTakeFirst();
    if (row === undefined) return undefined;
    const held = await this.db
      .selectFrom('account_subscriptions')
      .select('subscription')
      .where('account_id', '=', row.account_id)
      .execute();
    const accountId = row.account_id;
    const subscriptions: ReadonlySet<string> = new Set(held.map((h) => h.subscription));
    const state: KeyState = {
      accountId,
      revoked: row.revoked_at !== null,
      caller: Object.freeze({ ok: true, mode: 'account', accountId, keyId, subscriptions }),
    };
    // Only remember it if no invalidation happened while we read.
    if (states === this.#states) states.set(keyId, state);
    return state;
  }
}
