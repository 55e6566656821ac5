/** Redirects one request follows at most, all within its own origin. */
export const MAX_REDIRECTS = 5;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** A redirect the sync does not follow: off the source's origin, malformed, or one too many. */
export class RedirectRefused extends Error {}

/**
 * GETs `url` following redirects only within its own origin (scheme, host and port), at most
 * {@link MAX_REDIRECTS}: a source, or whoever answers for it, cannot send a sync to another host or
 * to a port of the machine it runs on (a database, an admin page). A redirect anywhere else throws
 * {@link RedirectRefused} before any request leaves for it. `beforeHop` runs before each further
 * request, so that it is paced and counted as the first one was.
 */
export async function fetchWithinOrigin(
  url: string,
  init: { readonly headers: Record<string, string>; readonly signal: AbortSignal },
  beforeHop: () => Promise<void>,
): Promise<Response> {
  const origin = new URL(url).origin;
  let at = url;
  for (let hops = 0; ; hops++) {
    const res = await fetch(at, { ...init, redirect: 'manual' });
    if (!REDIRECTS.has(res.status)) return res;
    await res.body?.cancel();
    const location = res.headers.get('location');
    let target: URL;
    try {
      if (location === null) throw new Error('no Location');
      target = new URL(location, at);
    } catch {
      throw new RedirectRefused(`answered ${res.status} without a usable Location; not followed`);
    }
    if (target.origin !== origin) {
      throw new RedirectRefused(`redirected to another origin (${JSON.stringify(target.origin)}); not followed`);
    }
    if (hops >= MAX_REDIRECTS) throw new RedirectRefused(`redirected more than ${MAX_REDIRECTS} times; not followed`);
    await beforeHop();
    at = target.href;
  }
}
