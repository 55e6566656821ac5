/** One HTTP answer of a console or trace page. */
export interface PageResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The Location of a redirect, or null. */
  location: string | null;
  setCookies: string[];
}

/** The CSRF token of the first form on a page. */
export function csrfOf(html: string): string {
  const match = /name="csrf" value="([^"]*)"/.exec(html);
  if (match?.[1] === undefined) throw new Error(`no CSRF field on the page:\n${html.slice(0, 2000)}`);
  return match[1];
}

/** The key shown, once, on the page that created it. */
export function newKey(page: string): string {
  const key = /id="new-key"[^>]*>([^<]+)</.exec(page)?.[1];
  if (key === undefined) throw new Error('no key on the page');
  return key;
}

/**
 * A browser-like client of the console over real HTTP: it keeps cookies as a browser would
 * (by name, dropping those set with Max-Age=0) and does not follow redirects, so tests see them.
 */
export class ConsoleClient {
  readonly cookies = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  async request(
    method: 'GET' | 'POST',
    path: string,
    form?: Record<string, string>,
    extra: Record<string, string> = {},
  ): Promise<PageResponse> {
    const headers: Record<string, string> = { ...extra };
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([n, v]) => `${n}=${v}`).join('; ');
    let body: string | undefined;
    if (form !== undefined) {
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
      body = new URLSearchParams(form).toString();
    }
    const res = await fetch(this.baseUrl + path, { method, headers, body, redirect: 'manual' });
    const setCookies = res.headers.getSetCookie();
    for (const c of setCookies) {
      const [pair = '', ...attributes] = c.split(';').map((p) => p.trim());
      const at = pair.indexOf('=');
      const name = pair.slice(0, at);
      if (attributes.some((a) => /^max-age=0$/i.test(a))) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(at + 1));
    }
    return {
      status: res.status,
      headers: res.headers,
      text: await res.text(),
      location: res.headers.get('location'),
      setCookies,
    };
  }

  get(path: string, headers: Record<string, string> = {}): Promise<PageResponse> {
    return this.request('GET', path, undefined, headers);
  }

  post(path: string, form: Record<string, string>): Promise<PageResponse> {
    return this.request('POST', path, form);
  }

  /** Opens `pagePath`, then posts its form's CSRF token with `fields` to `action`. */
  async submit(pagePath: string, action: string, fields: Record<string, string>): Promise<PageResponse> {
    const page = await this.get(pagePath);
    if (page.status !== 200) throw new Error(`${pagePath} answered ${page.status}`);
    return this.post(action, { csrf: csrfOf(page.text), ...fields });
  }

  /** Signs in through the form; returns the answer to the POST (303 on success). */
  signIn(email: string, password: string): Promise<PageResponse> {
    return this.submit('/account/sign-in', '/account/sign-in', { email, password });
  }
}
