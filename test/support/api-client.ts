import { Conformance } from './openapi-conformance.js';

/** One API answer, read whole, with the credit headers as numbers (null when absent). */
export interface Response {
  status: number;
  headers: Headers;
  text: string;
  json<T = unknown>(): T;
  cost: number | null;
  balance: number | null;
}

/** The OpenAPI document of each server the tests talk to, fetched once per base URL. */
const documents = new Map<string, Promise<Conformance>>();

function conformanceOf(baseUrl: string): Promise<Conformance> {
  let conformance = documents.get(baseUrl);
  if (conformance === undefined) {
    conformance = fetch(`${baseUrl}/api/v1/openapi.json`)
      .then((res) => res.json())
      .then((doc) => new Conformance(doc as ConstructorParameters<typeof Conformance>[0]));
    documents.set(baseUrl, conformance);
  }
  return conformance;
}

/**
 * GET over real HTTP from any running server (in-process or a `bin/corpdata serve` process); every
 * API answer is checked against that server's own OpenAPI document (status, headers, body schema).
 */
export async function apiGet(
  baseUrl: string,
  path: string,
  key?: string | null,
  headers: Record<string, string> = {},
): Promise<Response> {
  const h: Record<string, string> = { ...headers };
  if (key !== undefined && key !== null) h.authorization = `Bearer ${key}`;
  const res = await fetch(baseUrl + path, { headers: h });
  const text = await res.text();
  (await conformanceOf(baseUrl)).check('GET', path.split('?')[0] ?? path, res.status, res.headers, text);
  const header = (name: string) => (res.headers.get(name) === null ? null : Number(res.headers.get(name)));
  return {
    status: res.status,
    headers: res.headers,
    text,
    json: <T>() => JSON.parse(text) as T,
    cost: header('x-credit-cost'),
    balance: header('x-credit-balance'),
  };
}

/**
 * POST of a JSON body (or of `body` as given, when it is a string) over real HTTP, the answer
 * checked against the server's OpenAPI document as {@link apiGet} checks it.
 */
export async function apiPost(
  baseUrl: string,
  path: string,
  body: unknown,
  key?: string | null,
  headers: Record<string, string> = {},
): Promise<Response> {
  const h: Record<string, string> = { 'content-type': 'application/json', ...headers };
  if (key !== undefined && key !== null) h.authorization = `Bearer ${key}`;
  const res = await fetch(baseUrl + path, {
    method: 'POST',
    headers: h,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  (await conformanceOf(baseUrl)).check('POST', path.split('?')[0] ?? path, res.status, res.headers, text);
  const header = (name: string) => (res.headers.get(name) === null ? null : Number(res.headers.get(name)));
  return {
    status: res.status,
    headers: res.headers,
    text,
    json: <T>() => JSON.parse(text) as T,
    cost: header('x-credit-cost'),
    balance: header('x-credit-balance'),
  };
}
