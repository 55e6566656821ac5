import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect } from 'vitest';

interface ResponseSpec {
  headers?: Record<string, { required?: boolean }>;
  content?: Record<string, { schema: object }>;
}

type Document = {
  paths: Record<string, Record<string, { responses: Record<string, ResponseSpec> }>>;
  components?: { schemas?: Record<string, object> };
};

/**
 * Checks real responses against the service's own OpenAPI document: the status is declared, the
 * declared headers are present, the body's media type is declared, and a JSON body validates
 * against its schema.
 */
export class Conformance {
  readonly #ajv = new Ajv2020({ strict: false, allErrors: true });
  readonly #validators = new Map<object, ReturnType<Ajv2020['compile']>>();

  constructor(private readonly doc: Document) {
    addFormats.default(this.#ajv);
  }

  /** The path item of a concrete path: exact, or by template (`/api/v1/trace/{id}`). */
  #operation(path: string): Document['paths'][string] | undefined {
    const exact = this.doc.paths[path];
    if (exact !== undefined) return exact;
    for (const [template, item] of Object.entries(this.doc.paths)) {
      if (!template.includes('{')) continue;
      const pattern = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);
      if (pattern.test(path)) return item;
    }
    return undefined;
  }

  check(method: string, path: string, status: number, headers: Headers, body: string): void {
    const op = this.#operation(path)?.[method.toLowerCase()];
    if (op === undefined) return; // pages and unknown routes are not API operations
    const spec = op.responses[String(status)];
    expect(spec, `${method} ${path} answered ${status}, which the OpenAPI document does not declare`).toBeDefined();
    if (spec === undefined) return;
    for (const [name, header] of Object.entries(spec.headers ?? {})) {
      if (header.required !== true) continue;
      expect(headers.get(name), `${method} ${path} ${status} lacks required header ${name}`).not.toBeNull();
    }
    // The body is one of the media types the response declares (an error as plain text or as problem
    // details, as the client asked), and a JSON one validates against its schema.
    const media = (headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
    if (spec.content === undefined || body === '') return;
    const declared = spec.content[media];
    expect(declared, `${method} ${path} ${status} answered ${media}, which it does not declare`).toBeDefined();
    if (declared === undefined || !media.endsWith('json')) return;
    let validate = this.#validators.get(declared.schema);
    if (validate === undefined) {
      // Named schemas are $refs into the document's components: compile with them at hand.
      validate = this.#ajv.compile({ ...declared.schema, components: this.doc.components });
      this.#validators.set(declared.schema, validate);
    }
    const ok = validate(JSON.parse(body));
    expect(ok, `${method} ${path} ${status} body breaks its schema: ${JSON.stringify(validate.errors)}`).toBe(true);
  }
}
