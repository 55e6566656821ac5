import { formatNumber, type Html, html } from '../web/html.js';
import type { Figure } from './figures.js';

const DISCLOSURE: Record<Figure['disclosure'], string> = {
  first: 'as first reported',
  restated: 'restated',
  repeated: 'reported again, unchanged',
};

function original(f: Figure): string {
  if (f.original === null) return '—';
  if (f.original.value === null) return `not reported (${f.original.currency})`;
  return `${formatNumber(f.original.value)} ${f.original.currency}`;
}

/**
 * Every bought figure in a table (the chart's accessible alternative): value in the dataset's
 * unit, the value as reported, when and how it was disclosed (restatements named as such), and
 * its trace page. On a narrow screen each row becomes a card (`.cards`).
 */
export function figureTable(caption: string, figures: readonly Figure[]): Html {
  const hasOriginal = figures.some((f) => f.original !== null);
  const rows = figures.map(
    (
      f,
    ) => html`<tr${f.disclosure === 'restated' ? html` class="restated"` : ''}><td data-label="Period">${f.period}</td><td data-label="Figure">${f.series}</td>
<td data-label="Value" class="num">${formatNumber(f.value)} ${f.unit}</td>${hasOriginal ? html`<td data-label="As reported" class="num">${original(f)}</td>` : ''}
<td data-label="Disclosed">${f.disclosedIn ?? '—'}, ${DISCLOSURE[f.disclosure]}</td>
<td data-label="Source"><a href="${f.tracePath}">trace<span class="visually-hidden"> of ${f.series}, ${f.period} (${DISCLOSURE[f.disclosure]}, ${f.disclosedIn ?? ''})</span></a></td></tr>`,
  );
  return html`<table class="cards"><caption>${caption}</caption>
<thead><tr><th scope="col">Period</th><th scope="col">Figure</th><th scope="col" class="num">Value</th>${hasOriginal ? html`<th scope="col" class="num">As reported</th>` : ''}<th scope="col">Disclosed</th><th scope="col">Source</th></tr></thead>
<tbody>${rows}</tbody></table>`;
}
