import { MIC_NAMES } from '../catalog/mic-names.js';
import { type Html, html } from '../web/html.js';
import { enumValues, isMicList, type OpenApiDocument, resolve } from './reference-schema.js';

const COUNTRIES = new Intl.DisplayNames(['en'], { type: 'region' });

/** The MIC enumeration of the document (every mic_code parameter and field carries the same one). */
function micCodes(doc: OpenApiDocument): string[] {
  const schemas = [
    ...Object.values(doc.paths).flatMap((methods) =>
      Object.values(methods).flatMap((op) => (op.parameters ?? []).map((p) => p.schema)),
    ),
    ...Object.values(doc.components?.schemas ?? {}).flatMap((s) => Object.values(resolve(doc, s)?.properties ?? {})),
  ];
  for (const s of schemas) {
    const values = s === undefined ? undefined : enumValues(s);
    if (values !== undefined && isMicList(values)) return values.map(String);
  }
  return [];
}

function country(code: string): string {
  return code === '' ? '' : (COUNTRIES.of(code) ?? code);
}

/** Every MIC the API accepts, once, A to Z, with its exchange: folded, it is long. */
export function micSection(doc: OpenApiDocument): Html {
  const codes = micCodes(doc).sort();
  const names: Readonly<Record<string, readonly [string, string]>> = MIC_NAMES;
  return html`<section aria-labelledby="mic-codes"><h2 id="mic-codes">MIC codes</h2>
<p>The ISO 10383 codes <code>mic_code</code> takes, beside a ticker that several exchanges list.</p>
<details class="fold"><summary>All ${codes.length} codes, A to Z</summary>
<table class="mics"><thead><tr><th scope="col">MIC</th><th scope="col">Exchange</th><th scope="col">Country</th></tr></thead><tbody>
${codes.map((c) => html`<tr><td><code>${c}</code></td><td>${names[c]?.[0] ?? ''}</td><td>${country(names[c]?.[1] ?? '')}</td></tr>`)}
</tbody></table></details></section>`;
}
