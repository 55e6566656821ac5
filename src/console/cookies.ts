/** Cookie names and attributes of the console, decided once from the public URL. */
export interface CookiePolicy {
  readonly secure: boolean;
  /** The session cookie: an opaque random token; the database keeps only its SHA-256. */
  readonly session: string;
  /** The sign-in form's CSRF token (double-submit), for visitors who have no session yet. */
  readonly signIn: string;
}

/**
 * Over https the names take the `__Host-` prefix, which browsers only accept with `Secure`,
 * `Path=/` and no `Domain`: a sibling subdomain then cannot plant or shadow these cookies.
 */
export function cookiePolicy(publicUrl: string): CookiePolicy {
  const secure = publicUrl.startsWith('https://');
  const prefix = secure ? '__Host-' : '';
  return { secure, session: `${prefix}corpdata_session`, signIn: `${prefix}corpdata_signin` };
}

/**
 * `HttpOnly` (no script reads it), `SameSite=Lax` (not sent on cross-site POSTs, still sent when a
 * link from elsewhere opens a trace page), `Path=/`, and `Secure` when the service is on https.
 */
export function serializeCookie(policy: CookiePolicy, name: string, value: string, maxAgeSeconds: number): string {
  const parts = [`${name}=${value}`, 'Path=/', `Max-Age=${maxAgeSeconds}`, 'HttpOnly', 'SameSite=Lax'];
  if (policy.secure) parts.push('Secure');
  return parts.join('; ');
}

export function clearCookie(policy: CookiePolicy, name: string): string {
  return serializeCookie(policy, name, '', 0);
}

/** The value of one cookie in a `Cookie` header, or undefined. Values here are base64url tokens. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const pair of header.split(';')) {
    const at = pair.indexOf('=');
    if (at < 0) continue;
    if (pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim();
  }
  return undefined;
}
