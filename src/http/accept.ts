/**
 * Reading the lists `Accept` and `Accept-Encoding` send (RFC 9110 §12.5): each token, lower-cased,
 * with its quality (1 unless a `q` parameter says otherwise). One reader for every negotiation the
 * app makes: the trace page's JSON form, errors as problem details, the gzip list.
 */
export function acceptList(header: string | undefined): Array<{ token: string; q: number }> {
  if (header === undefined) return [];
  return header.split(',').map((part) => {
    const [token = '', ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    const given = params.find((p) => p.startsWith('q='));
    return { token, q: given === undefined ? 1 : Number(given.slice(2)) || 0 };
  });
}

/** The best quality the list gives one of `tokens` by name (0 when none is listed; wildcards do not count). */
export function quality(header: string | undefined, ...tokens: string[]): number {
  let q = 0;
  for (const entry of acceptList(header)) if (tokens.includes(entry.token)) q = Math.max(q, entry.q);
  return q;
}

/** True when the list names `token` at all, whatever its quality. */
export function lists(header: string | undefined, token: string): boolean {
  return acceptList(header).some((entry) => entry.token === token);
}
