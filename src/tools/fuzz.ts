import fc from 'fast-check';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { auditLedger, type Observations } from './ledger-audit.js';
import { rawRequest } from './raw-request.js';

/** A query parameter as the served OpenAPI document describes it. */
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema: ParameterSchema;
}

interface ParameterSchema {
  type?: string;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  anyOf?: ParameterSchema[];
}

interface Operation {
  path: string;
  method: 'GET' | 'POST';
  /** GET: its query parameters. POST: the fields of one job of its JSON body (`{"jobs":[…]}`). */
  parameters: Parameter[];
}

export interface FuzzOptions {
  baseUrl: string;
  requests: number;
  connections: number;
  /** Keys to call with; the first should have credits, others may be poor or unsubscribed. */
  keys: string[];
  /** Real values by parameter name (tickers, ISINs of the catalog), so that some calls succeed and are billed. */
  examples: Record<string, string[]>;
  db: Kysely<Database>;
  seed?: number;
}

export interface FuzzReport {
  requests: number;
  raw: number;
  /** Of the raw requests, those whose routed target was spelled another way. */
  spelled: number;
  byStatus: Record<string, number>;
  /** Answers (200, 204) that said they cost something: each must be one charge in the ledger. */
  paid: number;
  charges: number;
  /** Of the charges, those of a history or a batch (one ledger line per company-period). */
  multiPart: number;
  /** Every answer that broke a rule (5xx, an error not plain text, a missing header) and every ledger discrepancy. */
  discrepancies: string[];
}

/** A small seeded generator, so that a failing run can be repeated with its seed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const HOSTILE = [
  '',
  ' ',
  '0',
  '-0',
  '02022',
  '-01',
  '+1',
  '1e3',
  '2022.0',
  '0x7e6',
  '9'.repeat(40),
  '-9999999999',
  'null',
  'undefined',
  '[]',
  '{}',
  'true',
  "' OR 1=1 --",
  '"; DROP TABLE ledger; --',
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '\u0000',
  '\u001b[31m',
  '\r\nSet-Cookie: a=b',
  '\u202e',
  '\ufeff',
  'Ａ',
  '🙂',
  'ß',
  'İ',
  '\ud800',
  'a'.repeat(101),
  'A'.repeat(5000),
];

/** Raw percent sequences appended unencoded: invalid, overlong and truncated encodings. */
const RAW_ENCODINGS = [
  '%',
  '%Z',
  '%ZZ',
  '%00',
  '%C0%AF',
  '%E0%A4%A',
  '%F0%9F',
  '%FF%FE',
  '%2',
  '%u0041',
  '%%',
  '%0D%0A',
  '%1B[31m',
];

interface JobsBody {
  content?: { 'application/json'?: { schema?: { properties?: { jobs?: { items?: JobSchema } } } } };
}
interface JobSchema {
  properties?: Record<string, ParameterSchema>;
  required?: string[];
}
type PathItem = { get?: { parameters?: Parameter[] }; post?: { requestBody?: JobsBody } };

/** The document's operations: each GET with its query parameters, each POST with the fields of its jobs. */
function operationsOf(doc: { paths: Record<string, PathItem> }): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, item]): Operation[] => {
    if (item.get !== undefined) {
      return [{ path, method: 'GET', parameters: (item.get.parameters ?? []).filter((p) => p.in === 'query') }];
    }
    const job = item.post?.requestBody?.content?.['application/json']?.schema?.properties?.jobs?.items;
    if (job === undefined) return [];
    const required = new Set(job.required ?? []);
    const parameters = Object.entries(job.properties ?? {}).map(([name, schema]) => ({
      name,
      in: 'body',
      required: required.has(name),
      schema,
    }));
    return [{ path, method: 'POST', parameters }];
  });
}

/** Bodies a JSON reader must refuse, or that break the jobs' shape as a whole. */
const HOSTILE_BODIES = ['', '{', '{"jobs": [', 'null', '[]', '{"jobs": {}}', '{"jobs": [1]}', '{"jobs": []}', '"jobs"', '\u0000'];

/** A JSON value for a field: a number where the schema wants an integer and the text is one. */
function typed(schema: ParameterSchema, value: string): unknown {
  const integer = schema.type === 'integer' || (schema.anyOf ?? []).some((s) => s.type === 'integer');
  return integer && /^-?[0-9]+$/.test(value) ? Number(value) : value;
}

/** Values the schema allows (enum members, pattern matches, UUIDs, integers in range). */
function validPool(schema: ParameterSchema, seed: number): string[] {
  const variants = schema.anyOf ?? [schema];
  const out: string[] = [];
  for (const s of variants) {
    if (s.enum !== undefined) out.push(...s.enum.map(String));
    else if (s.type === 'integer') {
      const min = s.minimum ?? -1000;
      const max = s.maximum ?? 1000;
      for (let n = min; n <= max && out.length < 200; n += 1) out.push(String(n));
    } else if (s.pattern !== undefined) out.push(...fc.sample(fc.stringMatching(new RegExp(s.pattern)), { numRuns: 100, seed }));
    else if (s.format === 'uuid') out.push(...fc.sample(fc.uuid(), { numRuns: 50, seed }));
    else {
      const arb = fc.string({ minLength: s.minLength ?? 0, maxLength: Math.min(s.maxLength ?? 20, 40), unit: 'grapheme' });
      out.push(...fc.sample(arb, { numRuns: 100, seed }));
    }
  }
  return out.length > 0 ? out : ['x'];
}

/** Values meant to break the schema: other types, lengths, patterns, encodings, unicode. */
function invalidPool(schema: ParameterSchema, seed: number): string[] {
  const max = schema.maxLength ?? 20;
  return [
    ...HOSTILE,
    'x'.repeat(max + 1),
    'é'.repeat(max),
    ...fc.sample(fc.string({ maxLength: max + 5, unit: 'binary' }), { numRuns: 100, seed }),
    ...fc.sample(fc.string({ maxLength: 10, unit: 'grapheme' }), { numRuns: 50, seed: seed + 1 }),
    ...fc.sample(fc.integer().map(String), { numRuns: 30, seed: seed + 2 }),
  ];
}

type Request =
  | { kind: 'fetch'; target: string; headers: Record<string, string>; method: string; body?: string | undefined }
  /** `spelled`: a routed target written another way (percent-encoded, absolute form), which every route rule must still see. */
  | { kind: 'raw'; bytes: string; spelled?: boolean };

interface Generator {
  next(): Request;
}

/**
 * The same path as a client may spell it: some of its letters percent-encoded (either case of hex),
 * and/or in absolute form (`http://host/path`, RFC 9112 §3.2.2). The router decodes both.
 */
export function respell(path: string, random: () => number): string {
  const encoded = [...path]
    .map((c) => {
      if (c === '/' || random() >= 0.3) return c;
      const hex = c.charCodeAt(0).toString(16).padStart(2, '0');
      return `%${random() < 0.5 ? hex : hex.toUpperCase()}`;
    })
    .join('');
  const r = random();
  if (r < 0.4) return encoded;
  if (r < 0.7) return `http://x${encoded}`;
  return `http://x${path}`;
}

function generator(operations: Operation[], options: FuzzOptions, random: () => number): Generator {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const seed = options.seed ?? 1;
  const pools = new Map<string, { valid: string[]; invalid: string[] }>();
  for (const op of operations) {
    for (const p of op.parameters) {
      const valid = [...validPool(p.schema, seed), ...(options.examples[p.name] ?? []), ...(options.examples[p.name] ?? [])];
      pools.set(`${op.path} ${p.name}`, { valid, invalid: invalidPool(p.schema, seed) });
    }
  }
  const encode = (v: string) => {
    const r = random();
    if (r < 0.8) return encodeURIComponent(v.replace(/[\ud800-\udfff]/g, '\ufffd'));
    if (r < 0.9) return encodeURIComponent(v.replace(/[\ud800-\udfff]/g, '\ufffd')) + pick(RAW_ENCODINGS);
    return pick(RAW_ENCODINGS);
  };
  const authHeader = (): Record<string, string> => {
    const r = random();
    if (r < 0.75) return { authorization: `Bearer ${pick(options.keys)}` };
    if (r < 0.8) return {};
    if (r < 0.85) return { authorization: `Bearer ${pick(options.keys)}x` };
    if (r < 0.9) return { authorization: pick(['Bearer', 'Basic YTpi', 'Bearer a.b.c', `bearer  ${pick(options.keys)}`]) };
    return { authorization: `Bearer ${pick(options.keys)}`, 'x-forwarded-for': pick(['1.2.3.4', '::1', 'garbage']) };
  };
  const rawCases = (path: string, key: string): string[] => [
    `GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`,
    `GET ${path} HTTP/1.1\r\nHost: x\r\nX-A: a\u0000b\r\nConnection: close\r\n\r\n`,
    `GET ${path} HTTP/1.1\r\nHost: x\r\nX-A: a\r\n folded\r\nConnection: close\r\n\r\n`,
    `GET ${path} HTTP/1.1\nHost: x\nConnection: close\n\n`,
    `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET / HTTP/1.1\r\n\r\n`,
    `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab`,
    `GET ${path} HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    `GET ${path}${'/a'.repeat(5000)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    `GET /trace/${'a'.repeat(300)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    `GET ${path}?a=%%%\u0001 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    `BREW ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    `GET ${path} HTTP/9.9\r\nHost: x\r\nConnection: close\r\n\r\n`,
    `\u0016\u0003\u0001\u0000\u00a5\u0001\u0000\u0000\u00a1\u0003\u0003\r\n\r\n`,
  ];
  const post = (op: Operation): Request => {
    const headers: Record<string, string> = { ...authHeader() };
    const r = random();
    if (r < 0.9) headers['content-type'] = 'application/json';
    else if (r < 0.95) headers['content-type'] = pick(['text/plain', 'application/x-www-form-urlencoded', 'application/jsonx']);
    if (random() < 0.05) return { kind: 'fetch', target: op.path, headers, method: 'POST', body: pick(HOSTILE_BODIES) };
    const count = random() < 0.02 ? 101 : 1 + Math.floor(random() * 4);
    const named = op.parameters.filter((p) => (options.examples[p.name] ?? []).length > 0);
    const jobs = Array.from({ length: count }, () => {
      const job: Record<string, unknown> = {};
      // Most jobs name a real company, as programs send them, so that batches get billed.
      const real = named.length > 0 && random() < 0.6 ? pick(named) : undefined;
      if (real !== undefined) {
        job[real.name] = pick(options.examples[real.name] ?? []);
        for (const p of op.parameters) {
          const pool = pools.get(`${op.path} ${p.name}`);
          if (p.required === true && pool !== undefined) job[p.name] = typed(p.schema, pick(pool.valid));
        }
        return job;
      }
      for (const p of op.parameters) {
        const pool = pools.get(`${op.path} ${p.name}`);
        if (pool === undefined || random() < (p.required === true ? 0.03 : 0.6)) continue;
        job[p.name] = random() < 0.85 ? typed(p.schema, pick(pool.valid)) : pick([pick(pool.invalid), 12, null, true, [], {}]);
      }
      if (random() < 0.03) job[pick(['reporting_year', 'Ticker', '__proto__', ''])] = 1;
      return job;
    });
    const method = random() < 0.03 ? pick(['GET', 'PUT', 'DELETE', 'PATCH', 'HEAD']) : 'POST';
    return {
      kind: 'fetch',
      target: op.path,
      headers,
      method,
      body: method === 'GET' || method === 'HEAD' ? undefined : JSON.stringify({ jobs }),
    };
  };
  return {
    next() {
      const op = pick(operations);
      if (random() < 0.03) return { kind: 'raw', bytes: pick(rawCases(op.path, pick(options.keys))) };
      if (op.method === 'POST') return post(op);
      const spell = random() < 0.04;
      const parts: string[] = [];
      for (const p of op.parameters) {
        const pool = pools.get(`${op.path} ${p.name}`);
        if (pool === undefined) continue;
        const r = random();
        // Required parameters are mostly present; optional ones sometimes.
        if (r < (p.required === true ? 0.05 : 0.55)) continue;
        const value = random() < 0.6 ? pick(pool.valid) : pick(pool.invalid);
        parts.push(`${p.name}=${encode(value)}`);
        if (random() < 0.04) parts.push(`${p.name}=${encode(pick(pool.valid))}`);
        if (random() < 0.02) parts.push(p.name);
      }
      if (random() < 0.05)
        parts.push(`${encode(pick(['reporting_year', 'Ticker', 'x', '', '\u001b', 'query[]', '__proto__']))}=1`);
      let path = op.path;
      if (random() < 0.03)
        path = pick([`${path}/`, `${path}//`, path.toUpperCase(), `${path}%00`, `${path}/..`, `/api/v1/${encode('ü\u0000')}`]);
      const query = parts.length > 0 ? `?${random() < 0.05 ? parts.join('&&') : parts.join('&')}` : '';
      const method = random() < 0.03 ? pick(['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD']) : 'GET';
      if (spell) {
        const headers = Object.entries(authHeader())
          .map(([name, value]) => `${name}: ${value}\r\n`)
          .join('');
        return {
          kind: 'raw',
          spelled: true,
          bytes: `${method} ${respell(op.path, random)}${query} HTTP/1.1\r\nHost: x\r\n${headers}Connection: close\r\n\r\n`,
        };
      }
      return { kind: 'fetch', target: `${path}${query}`, headers: authHeader(), method };
    },
  };
}

/** Checks the form every answer must have; returns what is wrong, or null. */
function checkAnswer(status: number, header: (name: string) => string | null | undefined): string | null {
  if (status >= 500) return `${status}`;
  if (!/^[0-9a-f-]{36}$/.test(header('x-request-id') ?? '')) return `${status} without X-Request-Id`;
  if (header('x-content-type-options') !== 'nosniff') return `${status} without nosniff`;
  if (status >= 400 && !(header('content-type') ?? '').startsWith('text/plain')) {
    return `${status} as ${header('content-type') ?? 'no content type'}`;
  }
  return null;
}

/**
 * Sends `requests` requests built from the served OpenAPI document (every query parameter with
 * valid, wrong-typed, too long, mis-patterned, mis-encoded, unicode and repeated values; unknown
 * parameters; the POST operations' jobs built the same way from their body schema, malformed
 * JSON, other content types, too many jobs; odd paths and methods; bad credentials; routed paths percent-encoded or in
 * absolute form, which must still pass the rate limiter) plus malformed raw HTTP, from
 * `connections` concurrent clients, then audits the ledger against what the clients saw.
 */
export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const doc = (await (await fetch(`${options.baseUrl}/api/v1/openapi.json`)).json()) as Parameters<typeof operationsOf>[0];
  const random = prng(options.seed ?? 1);
  const gen = generator(operationsOf(doc), options, random);
  const { hostname, port } = new URL(options.baseUrl);
  const observed: Observations = { byRequestId: new Map(), unanswered: 0 };
  const byStatus: Record<string, number> = {};
  const discrepancies: string[] = [];
  let sent = 0;
  let raw = 0;
  let spelled = 0;
  const note = (problem: string, what: string) => {
    if (discrepancies.length < 50) discrepancies.push(`${problem}: ${JSON.stringify(what).slice(0, 200)}`);
  };
  const observe = (id: string | null, status: number, header: (name: string) => string | null) => {
    const num = (n: string) => (header(n) === null ? null : Number(header(n)));
    if (id !== null) observed.byRequestId.set(id, { status, cost: num('x-credit-cost'), balance: num('x-credit-balance') });
  };
  const worker = async () => {
    while (sent < options.requests) {
      sent += 1;
      const r = gen.next();
      if (r.kind === 'raw') {
        raw += 1;
        if (r.spelled === true) spelled += 1;
        const answer = await rawRequest(hostname, Number(port), r.bytes);
        if (answer === null) continue;
        byStatus[answer.status] = (byStatus[answer.status] ?? 0) + 1;
        const problem = checkAnswer(answer.status, (n) => answer.headers.get(n));
        if (problem !== null) note(problem, r.bytes);
        // A routed API answer, however its target was spelled, passed the rate limiter.
        if (r.spelled === true && answer.status !== 404 && !answer.headers.has('ratelimit-policy')) {
          note(`${answer.status} without RateLimit-Policy`, r.bytes);
        }
        // Such a request can be billed: the ledger audit must know its answer.
        observe(answer.headers.get('x-request-id') ?? null, answer.status, (n) => answer.headers.get(n) ?? null);
        continue;
      }
      let res: Response;
      try {
        res = await fetch(options.baseUrl + r.target, {
          method: r.method,
          headers: r.headers,
          ...(r.body === undefined ? {} : { body: r.body }),
        });
        await res.arrayBuffer();
      } catch {
        // The client refused to send it (an invalid URL or header): not a server answer.
        continue;
      }
      byStatus[res.status] = (byStatus[res.status] ?? 0) + 1;
      const problem = checkAnswer(res.status, (n) => res.headers.get(n));
      if (problem !== null) note(problem, `${r.method} ${r.target}`);
      observe(res.headers.get('x-request-id'), res.status, (n) => res.headers.get(n));
    }
  };
  await Promise.all(Array.from({ length: options.connections }, worker));
  const audit = await auditLedger(options.db, observed);
  for (const d of audit.discrepancies) note('ledger', d);
  if (audit.unseenCharges > 0) note('ledger', `${audit.unseenCharges} charges for requests no client saw answered`);
  let paid = 0;
  for (const seen of observed.byRequestId.values())
    if ((seen.status === 200 || seen.status === 204) && (seen.cost ?? 0) > 0) paid++;
  return { requests: sent, raw, spelled, byStatus, paid, charges: audit.charges, multiPart: audit.multiPart, discrepancies };
}
