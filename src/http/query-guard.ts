import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { badRequest, safeName } from '../errors/api-error.js';

interface QueryProperty {
  type?: string;
  anyOf?: Array<{ type?: string }>;
}

function isInteger(p: QueryProperty): boolean {
  return p.type === 'integer' || ((p.anyOf?.length ?? 0) > 0 && (p.anyOf ?? []).every((s) => s.type === 'integer'));
}

/** An integer as people write it: no sign but '-', no leading zero, no exponent; at most 9 digits. */
const PLAIN_INTEGER = /^(?:0|-?[1-9][0-9]{0,8})$/;

/**
 * The parameter of the raw query string whose percent-encoding is malformed (a `%` without two hex
 * digits, or bytes that are not UTF-8), which the query parser would pass on half-decoded.
 */
function malformedParameter(url: string): string | undefined {
  const at = url.indexOf('?');
  if (at < 0 || url.indexOf('%', at) < 0) return undefined;
  for (const pair of url.slice(at + 1).split('&')) {
    const eq = pair.indexOf('=');
    const name = eq < 0 ? pair : pair.slice(0, eq);
    const readableName = decoded(name);
    if (readableName === undefined) return name;
    if (decoded(pair.slice(eq + 1)) === undefined) return readableName;
  }
  return undefined;
}

/** The text percent-decoded, or undefined when its encoding is malformed. */
function decoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** The query parameters of a route's schema: their names, and which are integers with their rule. */
type QueryRules = Map<string, { integerRule: string | undefined }>;

function rulesOf(querystring: unknown): QueryRules {
  const properties =
    (querystring as { properties?: Record<string, QueryProperty & { description?: string }> } | undefined)?.properties ?? {};
  return new Map(
    Object.entries(properties).map(([name, p]) => [
      name,
      { integerRule: isInteger(p) ? (p.description ?? 'it must be an integer.') : undefined },
    ]),
  );
}

/** A route's query check: the 400 for the first parameter that breaks a rule of {@link queryGuard}, or undefined. */
export type QueryCheck = (request: FastifyRequest) => Error | undefined;

/**
 * The check of a route whose query has this schema. It checks what the schema validator cannot say
 * clearly, before it runs: a malformed percent-encoding, unknown names (typos such as
 * `reporting_year`), a parameter given twice, an empty value, and integers written as anything but a
 * plain integer ("2020.0", "0x7e4", " 2020", "02022", "-01", "+1", "1e3"), which the validator's type
 * coercion would otherwise accept. Each refusal names the parameter. The API's routes run it at the
 * end of their auth hook (api-route.ts), so that a call costs one hook fewer.
 */
export function queryCheck(querystring: unknown): QueryCheck {
  const rules = rulesOf(querystring);
  return (request) => {
    try {
      checkQuery(rules, request);
      return undefined;
    } catch (error) {
      return error as Error;
    }
  };
}

/**
 * {@link queryCheck} as a preValidation hook. A callback hook, not an async one: a promise each costs.
 */
export function queryGuard(querystring: unknown) {
  const check = queryCheck(querystring);
  return (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    const refused = check(request);
    if (refused !== undefined) done(refused);
    else done();
  };
}

/** Throws the 400 for the first parameter that breaks one of the rules above. */
function checkQuery(rules: QueryRules, request: FastifyRequest): void {
  const malformed = malformedParameter(request.raw.url ?? '');
  if (malformed !== undefined) {
    throw badRequest(`Invalid parameter '${safeName(malformed)}': its percent-encoding is malformed.`, safeName(malformed));
  }
  const query = request.query as Record<string, unknown>;
  for (const name in query) {
    const value = query[name];
    const rule = rules.get(name);
    if (rule === undefined) throw badRequest(`Unknown parameter '${safeName(name)}'.`, safeName(name));
    if (Array.isArray(value)) throw badRequest(`Parameter '${name}' is given more than once.`, name);
    if (value === '') throw badRequest(`Parameter '${name}' is empty.`, name);
    if (rule.integerRule !== undefined && !PLAIN_INTEGER.test(String(value))) {
      throw badRequest(`Invalid parameter '${name}': ${rule.integerRule}`, name);
    }
  }
}
