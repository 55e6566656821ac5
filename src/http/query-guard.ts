import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { badRequest, safeName } from './errors.js';

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
 * Checks what the schema validator cannot say clearly, before it runs: unknown names (typos such
 * as `reporting_year`), a parameter given twice, an empty value, and integers written as anything
 * but a plain integer ("2020.0", "0x7e4", " 2020", "02022", "-01", "+1", "1e3"), which the
 * validator's type coercion would otherwise accept. Each refusal names the parameter. A callback
 * hook, not an async one: it runs on every API call, and a promise each costs.
 */
export function queryGuard(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  try {
    checkQuery(request);
  } catch (error) {
    done(error as Error);
    return;
  }
  done();
}

/** Throws the 400 for the first parameter that breaks one of the rules above. */
function checkQuery(request: FastifyRequest): void {
  const schema = request.routeOptions.schema?.querystring as
    | { properties?: Record<string, QueryProperty & { description?: string }> }
    | undefined;
  const properties = schema?.properties ?? {};
  const query = request.query as Record<string, unknown>;
  for (const [name, value] of Object.entries(query)) {
    const property = properties[name];
    if (property === undefined) throw badRequest(`Unknown parameter '${safeName(name)}'.`);
    if (Array.isArray(value)) throw badRequest(`Parameter '${name}' is given more than once.`);
    if (value === '') throw badRequest(`Parameter '${name}' is empty.`);
    if (isInteger(property) && !PLAIN_INTEGER.test(String(value))) {
      throw badRequest(`Invalid parameter '${name}': ${property.description ?? 'it must be an integer.'}`);
    }
  }
}
