import { formatNumber, type Html, html } from '../web/html.js';
import type { Figure } from './figures.js';
import { niceCeiling } from './usage-chart.js';

// About the width a chart is drawn at on a 390 px phone (the page's padding taken off), so that a
// unit of the drawing is about a pixel there and 14-unit text reads as 14 px; the stylesheet caps
// the width on large screens.
const WIDTH = 360;
const LEFT = 58;
const RIGHT = 12;
const TOP = 26;
const BOTTOM = 40;
/** The height of a panel's plot, and of the whole panel with its margins. */
const PLOT_HEIGHT = 150;
const HEIGHT = TOP + PLOT_HEIGHT + BOTTOM;
const FONT = 14;
/** The least room a year's label takes, so labels never overlap: years between are ticks only. */
const LABEL_ROOM = 44;
/** The least height of a bar: a figure far smaller than the panel's largest stays visible. */
const MIN_BAR = 3;
const COLOURS = ['#0b5cad', '#b35900', '#116329', '#8250df'];

const COMPACT = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });
const round = (n: number) => Math.round(n * 10) / 10;

/** The value as a chart's label: exact below 10,000, compact above (391B). */
function axisLabel(n: number): string {
  return Math.abs(n) < 10_000 ? formatNumber(n) : COMPACT.format(n);
}

/** Where a year sits on the axis: proportional to the year, so a year without a figure is a visible gap. */
export interface YearAxis {
  readonly first: number;
  readonly last: number;
  /** The width of one year, in drawing units. */
  readonly slot: number;
  /** The centre of a year's slot. */
  x(year: number): number;
}

export function yearAxis(years: readonly number[], left: number, width: number): YearAxis {
  const first = Math.min(...years);
  const last = Math.max(...years);
  const slot = width / (last - first + 1);
  return { first, last, slot, x: (year) => left + (year - first + 0.5) * slot };
}

/**
 * One panel: the figures of one series on its own value scale. {@link figureChart} splits the
 * figures by series first, so a panel never has two series side by side: one bar per year.
 */
function panel(
  id: string,
  title: string,
  heading: string | undefined,
  figures: readonly Figure[],
  axis: YearAxis,
  colour: (series: string) => string,
) {
  const unit = figures[0]?.unit ?? '';
  // A loss (a negative net income) is a bar below the zero line: the axis spans both signs when needed.
  const highest = Math.max(0, ...figures.map((f) => f.value));
  const lowest = Math.min(0, ...figures.map((f) => f.value));
  const min = lowest < 0 ? -niceCeiling(-lowest) : 0;
  const max = highest > 0 || min === 0 ? niceCeiling(highest) : 0;
  const span = max - min || 1;
  const barW = Math.min(40, axis.slot * 0.8);
  const y = (v: number) => round(TOP + PLOT_HEIGHT - ((v - min) / span) * PLOT_HEIGHT);
  const grid = (min < 0 ? (max > 0 ? [min, 0, max] : [min, min / 2, 0]) : [0, max / 2, max]).map(
    (v) =>
      html`<line x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${y(v)}" y2="${y(v)}"/><text x="${LEFT - 6}" y="${y(v) + 5}" text-anchor="end" stroke="none">${axisLabel(v)}</text>`,
  );
  const bars = figures.map((f) => {
    const x = axis.x(f.period) - barW / 2;
    const h = Math.max(MIN_BAR, round(Math.abs(y(f.value) - y(0))));
    const top = f.value < 0 ? y(0) : y(0) - h;
    const label = `${f.series}, ${f.period}: ${formatNumber(f.value)} ${f.unit}${f.disclosure === 'restated' ? ' (restated)' : ''}. Open its trace page.`;
    return html`<a href="${f.tracePath}" aria-label="${label}"><rect x="${round(x + barW * 0.05)}" y="${round(top)}" width="${round(barW * 0.9)}" height="${h}" fill="${colour(f.series)}" data-year="${f.period}"><title>${label}</title></rect></a>`;
  });
  // A tick at every year, a label where there is room: a year without a figure is a gap one sees.
  const step = Math.max(1, Math.ceil(LABEL_ROOM / axis.slot));
  const baseline = HEIGHT - BOTTOM;
  const years = Array.from({ length: axis.last - axis.first + 1 }, (_, i) => axis.first + i);
  const ticks = years.map(
    (year) => html`<line x1="${round(axis.x(year))}" x2="${round(axis.x(year))}" y1="${baseline}" y2="${baseline + 5}"/>`,
  );
  const labels = years
    .filter((year) => (axis.last - year) % step === 0)
    .map((year) => html`<text x="${round(axis.x(year))}" y="${baseline + 22}" text-anchor="middle" stroke="none">${year}</text>`);
  const summary = figures.map((f) => `${f.series} ${f.period}: ${formatNumber(f.value)} ${f.unit}`).join('; ');
  return html`<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="group" aria-labelledby="${id}-title ${id}-desc" preserveAspectRatio="xMinYMid meet">
<title id="${id}-title">${title}</title>
<desc id="${id}-desc">${summary}.</desc>
<g stroke="#d0d7de" fill="#57606a" font-size="${FONT}" font-family="system-ui, sans-serif">${grid}${ticks}${labels}
${heading === undefined ? '' : html`<text x="4" y="${FONT + 2}" stroke="none" fill="#1f2328" font-weight="600">${heading}</text>`}
<text x="${WIDTH - RIGHT}" y="${FONT + 2}" text-anchor="end" stroke="none">${unit}</text></g>
<g>${bars}</g>
</svg>`;
}

/**
 * Bought figures as a server-rendered SVG bar chart: years on a true axis (a year's place is
 * proportional to the year, so a gap shows), and one panel per series (GHG scopes) each on its own
 * scale, so Scope 1 stays visible beside a Scope 3 a thousand times larger. Each bar is a link to
 * its trace page. No script and no library: a few kilobytes, readable without styles; named by its
 * title and summary, and the same figures are in the table beside it (the accessible alternative).
 */
export function figureChart(id: string, title: string, figures: readonly Figure[]): Html {
  const axis = yearAxis(
    figures.map((f) => f.period),
    LEFT,
    WIDTH - LEFT - RIGHT,
  );
  const series = [...new Set(figures.map((f) => f.series))];
  const colour = (s: string) => COLOURS[series.indexOf(s) % COLOURS.length] ?? '#0b5cad';
  const panels =
    series.length <= 1
      ? [panel(id, title, undefined, figures, axis, colour)]
      : series.map((s, i) =>
          panel(
            `${id}-${i + 1}`,
            `${title}: ${s}`,
            s,
            figures.filter((f) => f.series === s),
            axis,
            colour,
          ),
        );
  const each = series.length > 1 ? ' One panel per series, each on its own scale.' : '';
  return html`<figure class="chart figures" id="${id}">
${panels}
<figcaption class="muted">${title}; the latest disclosed figure of each period, years to scale.${each} Select a bar for its source.</figcaption>
</figure>`;
}
