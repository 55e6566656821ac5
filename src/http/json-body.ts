import { FormatRegistry, type TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { ValueErrorType } from '@sinclair/typebox/errors';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context.js';
import { badRequest } from '../errors/api-error.js';
import { authHook } from './auth-hook.js';
import { queryGuard } from './query-guard.js';

/** The most jobs one POST carries (OpenFIGI's batch size). */
export const MAX_JOBS = 100;
/** The largest body a POST operation reads; 100 jobs of the longest identifiers fit in a quarter of it. */
export const JSON_BODY_LIMIT_BYTES = 64 * 1024;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The options of the API's POST operations (the documented exception to GET only): the key (401)
 * first, no query parameter, a JSON body of at most {@link JSON_BODY_LIMIT_BYTES} (413), checked
 * by the route itself with {@link bodyChecker} so that a 400 names the job and its field.
 */
export function postRoute<S extends object>(ctx: AppContext, schema: S) {
  return {
    schema,
    bodyLimit: JSON_BODY_LIMIT_BYTES,
    onRequest: authHook(ctx),
    preValidation: queryGuard(undefined),
    // The schema documents the body; the route checks it (strictly: no type coercion) and words the 400.
    validatorCompiler: () => (value: unknown) => ({ value }),
  };
}

/**
 * Makes the scope of the POST operations read `application/json` alone (any other content type
 * gets 415), and words a body that is not JSON as a 400 naming it.
 */
export function jsonBodies(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, JSON.parse(String(body)));
    } catch {
      done(badRequest('Invalid body: it is not valid JSON.', 'body'), undefined);
    }
  });
}

/** `/jobs/3/isin` as people read it: `jobs[3].isin`. */
function fieldOf(path: string): string {
  if (path === '') return 'body';
  return path
    .slice(1)
    .split('/')
    .map((part, i) => (/^[0-9]+$/.test(part) ? `[${part}]` : i === 0 ? part : `.${part}`))
    .join('');
}

/**
 * A checker of a JSON body against its schema (strict types, no coercion), throwing the 400 that
 * names the first field breaking it (`jobs[3].isin`) with its rule, the field in `param`. The
 * schema must use TypeBox's own kinds (no `Type.Unsafe`); a `uuid` format is understood.
 */
export function bodyChecker<T>(schema: TSchema): (value: unknown) => T {
  if (!FormatRegistry.Has('uuid')) FormatRegistry.Set('uuid', (v) => UUID.test(v));
  const compiled = TypeCompiler.Compile(schema);
  return (value) => {
    if (value === undefined) throw badRequest('Missing body: send a JSON object (Content-Type: application/json).', 'body');
    const first = compiled.Errors(value).First();
    if (first === undefined) return value as T;
    const field = fieldOf(first.path);
    if (first.type === ValueErrorType.ObjectAdditionalProperties)
      throw badRequest(`Unknown field '${safeField(field)}'.`, safeField(field));
    if (first.type === ValueErrorType.ObjectRequiredProperty) throw badRequest(`Missing field '${field}'.`, field);
    const rule = (first.schema as { description?: string }).description ?? `${first.message.replace(/^Expected/, 'it must be')}.`;
    throw badRequest(`Invalid field '${field}': ${rule}`, field);
  };
}

/** A client-chosen field name in an error: printable ASCII, short (as errors.ts `safeName`). */
function safeField(name: string): string {
  const printable = name.replace(/[^\x20-\x7e]/g, '?');
  return printable.length > 80 ? `${printable.slice(0, 80)}…` : printable;
}
