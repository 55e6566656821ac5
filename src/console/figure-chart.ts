import { formatNumber, type Html, html } from '../web/html.js';
import type { Figure } from './figures.js';
import { niceCeiling } from './usage-chart.js';

// A narrow drawing (400 units) so that text keeps a readable size on a 390 px screen; the figure
// is capped in width on large screens by the stylesheet.
const WIDTH = 400;
const HEIGHT = 220;
const LEFT = 52;
const RIGHT = 8;
const TOP = 12;
const BOTTOM = 40;
const COLOURS = ['#0b5cad', '#b35900', '#116329', '#8250df'];

const COMPACT = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });
const round = (n: number) => Math.round(n * 10) / 10;

/** The value as a chart's label: exact below 10,000, compact above (391B). */
function axisLabel(n: number): string {
  return Math.abs(n) < 10_000 ? formatNumber(n) : COMPACT.format(n);
}

/**
 * Bought figures as a server-rendered SVG bar chart, one group of bars per period and one colour
 * per series (scopes), each bar a link to its trace page. No script and no library: a few
 * kilobytes, readable without styles; named by its title and summary, and the same figures are
 * in the table beside it (the accessible alternative).
 */
export function figureChart(id: string, title: string, figures: readonly Figure[]): Html {
  const periods = [...new Set(figures.map((f) => f.period))].sort((a, b) => a - b);
  const series = [...new Set(figures.map((f) => f.series))];
  const unit = figures[0]?.unit ?? '';
  // A loss (a negative net income) is a bar below the zero line: the axis spans both signs when needed.
  const highest = Math.max(0, ...figures.map((f) => f.value));
  const lowest = Math.min(0, ...figures.map((f) => f.value));
  const min = lowest < 0 ? -niceCeiling(-lowest) : 0;
  const max = highest > 0 || min === 0 ? niceCeiling(highest) : 0;
  const span = max - min || 1;
  const plotW = WIDTH - LEFT - RIGHT;
  const plotH = HEIGHT - TOP - BOTTOM;
  const slot = plotW / Math.max(1, periods.length);
  const barW = Math.min(48, (slot * 0.7) / Math.max(1, series.length));
  const y = (v: number) => round(TOP + plotH - ((v - min) / span) * plotH);
  const grid = (min < 0 ? (max > 0 ? [min, 0, max] : [min, min / 2, 0]) : [0, max / 2, max]).map(
    (v) =>
      html`<line x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${y(v)}" y2="${y(v)}"/><text x="${LEFT - 5}" y="${y(v) + 4}" text-anchor="end" stroke="none">${axisLabel(v)}</text>`,
  );
  const bars = figures.map((f) => {
    const p = periods.indexOf(f.period);
    const s = series.indexOf(f.series);
    const x = LEFT + p * slot + (slot - barW * series.length) / 2 + s * barW;
    const h = Math.max(1, round(Math.abs(y(f.value) - y(0))));
    const top = f.value < 0 ? y(0) : y(0) - h;
    const label = `${f.series}, ${f.period}: ${formatNumber(f.value)} ${f.unit}${f.disclosure === 'restated' ? ' (restated)' : ''}. Open its trace page.`;
    return html`<a href="${f.tracePath}" aria-label="${label}"><rect x="${round(x)}" y="${round(top)}" width="${round(barW * 0.9)}" height="${h}" fill="${COLOURS[s % COLOURS.length] ?? '#0b5cad'}"><title>${label}</title></rect></a>`;
  });
  const labels = periods.map(
    (p, i) =>
      html`<text x="${round(LEFT + (i + 0.5) * slot)}" y="${HEIGHT - BOTTOM + 18}" text-anchor="middle" stroke="none">${p}</text>`,
  );
  const legend =
    series.length > 1
      ? html`<ul class="legend">${series.map((s, i) => html`<li><span class="swatch" style="background:${COLOURS[i % COLOURS.length] ?? ''}"></span>${s}</li>`)}</ul>`
      : '';
  const summary = figures.map((f) => `${f.series} ${f.period}: ${formatNumber(f.value)} ${f.unit}`).join('; ');
  return html`<figure class="chart figures">
<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="group" aria-labelledby="${id}-title ${id}-desc" preserveAspectRatio="xMinYMid meet">
<title id="${id}-title">${title}</title>
<desc id="${id}-desc">${summary}.</desc>
<g stroke="#d0d7de" fill="#57606a" font-size="13" font-family="system-ui, sans-serif">${grid}${labels}
<text x="${LEFT}" y="${HEIGHT - 4}" stroke="none">${unit}</text></g>
<g>${bars}</g>
</svg>
${legend}<figcaption class="muted">${title}, in ${unit}; the latest disclosed figure of each period. Select a bar for its source.</figcaption>
</figure>`;
}
