import type { FastifyInstance } from 'fastify';

/** The fields of a posted HTML form, by name (the first value of a repeated name wins). */
export type FormFields = ReadonlyMap<string, string>;

/**
 * Parses `application/x-www-form-urlencoded` bodies for the routes of the plugin it is called in
 * (Fastify scopes content-type parsers to their plugin), without a dependency: URLSearchParams
 * does the decoding. `limit` is the largest form accepted (16 KiB by default: the console's forms
 * hold a few short fields); a larger body is refused with 413 before it is read whole.
 */
export function registerFormParser(app: FastifyInstance, limit: number): void {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: limit },
    (_request, body, done) => {
      const fields = new Map<string, string>();
      for (const [name, value] of new URLSearchParams(String(body))) if (!fields.has(name)) fields.set(name, value);
      done(null, fields);
    },
  );
}

/** The posted form of a request; empty for any other kind of body (JSON, text), so checks fail closed. */
export function formOf(body: unknown): FormFields {
  return body instanceof Map ? (body as FormFields) : new Map();
}

/** A text field, trimmed; '' when absent. */
export function textField(form: FormFields, name: string): string {
  return (form.get(name) ?? '').trim();
}
