import { type Html, html } from '../web/html.js';
import { constraint, enumValues, type OpenApiDocument, onlyValue, resolve, type Schema } from './reference-schema.js';

/** What a field means, when its schema does not say: fixed text, or text built from its schema. */
type Meaning = string | ((s: Schema) => string);

const always = (s: Schema): string => {
  const only = onlyValue(s);
  return only === undefined ? '' : `: always ${String(only)}`;
};

/**
 * Meanings of the fields whose schema carries no description, by dotted path (`values.ccy`) or,
 * failing that, by name. The schemas stay the source wherever they describe a field; these fill
 * the gaps so that no row of the page is blank. Fixed values are read from the schema, so a
 * dataset's `metric` names its own figure.
 */
const MEANINGS: Record<string, Meaning> = {
  reporting_period:
    'The fiscal year the figure covers: the calendar year in which the fiscal year ends (one ending on or before 7 January counts to the year before).',
  metric: (s) => `What the figure measures${always(s)}.`,
  ccy: (s) => `Currency of value${always(s)}.`,
  unit: (s) => `Unit of value${always(s)}.`,
  dataset: (s) => `The dataset the data point belongs to${always(s)}.`,
  scope:
    'GHG Protocol scope: 1 (direct emissions), 2-location or 2-market (purchased energy, location- or market-based), 3 (value chain).',
  original_ccy: 'Currency the figure was reported in (ISO 4217).',
  company_id: 'The company’s id, the same for every listing of it; accepted as company_id by every endpoint.',
  company_name: 'The company’s name.',
  document_id: 'The id of the document the figure was read from.',
  data_point_id: 'This data point’s id: the last segment of its traceability_source_url.',
  traceability_source_url:
    'The page where this figure can be verified: its document, source link and conversion. Its last segment is the id for /api/v1/trace/{id}.',
  document: 'The document the figure was read from.',
  emissions_document: 'The report the emission figure was read from.',
  revenue_document: 'The document the revenue figure was read from.',
  title: 'The document’s title.',
  published_on: 'The day the document was published.',
  status: (s) =>
    `The document’s processing state${(enumValues(s)?.length ?? 0) > 1 ? ` (${enumValues(s)?.join(', ')})` : ''}: only a processed document gives figures.`,
  end: 'Last day of the period.',
  events: 'The events of this page, oldest first; none carries a value.',
  filed_on: 'The day the filing reached the SEC.',
};

/** The meaning of a field: its schema's description, else the page's own. */
export function meaning(path: string, s: Schema): string {
  if (s.description !== undefined && s.description !== '') return s.description;
  const name = path.split('.').pop() ?? path;
  const m = MEANINGS[path] ?? MEANINGS[name];
  if (m === undefined) return '';
  return typeof m === 'string' ? m : m(s);
}

export interface Field {
  path: string;
  schema: Schema;
  required: boolean;
}

/** The object inside a schema: the items of an array, the non-null branch of "object or null". */
function objectOf(doc: OpenApiDocument, schema: Schema | undefined): Schema | undefined {
  const s = resolve(doc, schema);
  if (s === undefined) return undefined;
  if (s.type === 'array') return objectOf(doc, s.items);
  if (s.properties !== undefined) return s;
  return s.anyOf?.map((a) => objectOf(doc, a)).find((a) => a !== undefined);
}

/** Every field of an object schema, nested objects flattened to dotted paths (`document.title`). */
export function fieldsOf(doc: OpenApiDocument, schema: Schema | undefined, prefix = ''): Field[] {
  const object = objectOf(doc, schema);
  return Object.entries(object?.properties ?? {}).flatMap(([name, s]) => {
    const field = { path: prefix + name, schema: s, required: object?.required?.includes(name) === true };
    const nested = s.type === 'array' ? undefined : objectOf(doc, s);
    return nested === undefined ? [field] : [field, ...fieldsOf(doc, nested, `${field.path}.`)];
  });
}

/** A field list: name and type, then what it means. */
export function fieldList(fields: Field[]): Html {
  return html`<dl class="fields">${fields.map(
    (f) =>
      html`<div class="field"><dt><code>${f.path}</code> <span class="muted">${constraint(f.schema)}${f.required ? '' : ', optional'}</span></dt><dd>${meaning(f.path, f.schema)}</dd></div>`,
  )}</dl>`;
}
