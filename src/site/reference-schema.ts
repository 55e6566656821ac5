import { MIC_CODES } from '../catalog/mic-codes.js';
import { type Html, html } from '../web/html.js';

/** The parts of a JSON Schema (as the OpenAPI document writes it) the reference page reads. */
export interface Schema {
  $ref?: string;
  title?: string;
  type?: string | string[];
  description?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  format?: string;
  enum?: unknown[];
  anyOf?: Schema[];
  const?: unknown;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
}

export interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Schema;
  example?: unknown;
}

export interface Header {
  description?: string;
  required?: boolean;
  schema?: Schema;
}

export interface MediaType {
  schema?: Schema;
  example?: unknown;
}

export interface Response {
  description?: string;
  headers?: Record<string, Header>;
  content?: Record<string, MediaType>;
}

export interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, MediaType> };
  responses?: Record<string, Response>;
}

/** The served OpenAPI document (/api/v1/openapi.json), as far as the page reads it. */
export interface OpenApiDocument {
  info: { title: string; version: string; description?: string };
  servers?: Array<{ url: string }>;
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
}

/** An operation with where it lives. */
export interface Endpoint {
  path: string;
  method: string;
  op: Operation;
  id: string;
}

export function endpoints(doc: OpenApiDocument): Endpoint[] {
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method, op, id: op.operationId ?? `${method}-${path}` })),
  );
}

/** Follows a `#/components/schemas/…` reference; the document names each record schema once there. */
export function resolve(doc: OpenApiDocument, schema: Schema | undefined): Schema | undefined {
  if (schema?.$ref === undefined) return schema;
  return doc.components?.schemas?.[schema.$ref.split('/').pop() ?? ''];
}

/** The one value a field can take (`metric` is always "Total Revenue"), if it has one. */
export function onlyValue(s: Schema): unknown {
  if (s.const !== undefined) return s.const;
  if (s.enum?.length === 1) return s.enum[0];
  return undefined;
}

/** The values of an enumeration, written as an enum or as a union of one-value schemas. */
export function enumValues(s: Schema): unknown[] | undefined {
  if (s.enum !== undefined) return s.enum;
  const values = (s.anyOf ?? []).map(onlyValue);
  return values.length > 0 && values.every((v) => v !== undefined) ? values : undefined;
}

const MICS: ReadonlySet<unknown> = new Set(MIC_CODES);

/** True for the MIC enumeration, which the page lists once, in its own section. */
export function isMicList(values: unknown[]): boolean {
  return values.length === MICS.size && values.every((v) => MICS.has(v));
}

/** A schema's type and rules in a few words: "string, uuid", "integer or null", "one of: 1, 3". */
export function constraint(s: Schema | undefined): Html {
  if (s === undefined) return html``;
  const values = enumValues(s);
  if (values !== undefined && values.length > 1) {
    if (isMicList(values)) return html`one of the <a href="#mic-codes">MIC codes</a>`;
    // Long enumerations (currencies) fold away so that a field list stays one screen.
    if (values.length > 8) {
      return html`<details class="values"><summary>one of ${values.length} values</summary>${values.map(String).sort().join(', ')}</details>`;
    }
    return html`one of: ${values.map(String).join(', ')}`;
  }
  if (s.anyOf !== undefined) return html`${s.anyOf.map((a, i) => html`${i > 0 ? ' or ' : ''}${constraint(a)}`)}`;
  const parts: string[] = [];
  const only = onlyValue(s);
  if (only !== undefined) parts.push(`always ${JSON.stringify(only)}`);
  else if (s.type !== undefined) parts.push(Array.isArray(s.type) ? s.type.join(' or ') : s.type);
  if (s.type === 'array' && s.items?.type !== undefined) parts.push(`of ${String(s.items.type)}`);
  if (s.format !== undefined) parts.push(s.format);
  if (s.minLength !== undefined && s.minLength === s.maxLength) parts.push(`length ${s.minLength}`);
  else if (s.minLength !== undefined || s.maxLength !== undefined)
    parts.push(`length ${s.minLength ?? 0}..${s.maxLength ?? '∞'}`);
  if (s.minimum !== undefined || s.maximum !== undefined) parts.push(`${s.minimum ?? '−∞'}..${s.maximum ?? '∞'}`);
  return html`${parts.join(', ')}`;
}
