import { formatNumber, type Html, html } from '../web/html.js';

// Drawn 400 units wide so that its 13-unit text stays about 12 px on a 390 px screen.
const WIDTH = 400;
const HEIGHT = 220;
const LEFT = 44;
const RIGHT = 22;
const TOP = 12;
const BOTTOM = 28;

/** The smallest 1, 2 or 5 × 10ⁿ at or above `n`, so the axis reads in round numbers. */
export function niceCeiling(n: number): number {
  if (n <= 1) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(n));
  for (const step of [1, 2, 5, 10]) if (step * magnitude >= n) return step * magnitude;
  return 10 * magnitude;
}

const round = (n: number) => Math.round(n * 10) / 10;

/**
 * Credits spent per day as a server-rendered SVG bar chart: no script, scales to the page width,
 * and described for screen readers by its title and summary (the figures are also in a table).
 */
export function usageChart(days: ReadonlyArray<{ day: string; credits: number }>): Html {
  const total = days.reduce((sum, d) => sum + d.credits, 0);
  const max = niceCeiling(Math.max(0, ...days.map((d) => d.credits)));
  const plotW = WIDTH - LEFT - RIGHT;
  const plotH = HEIGHT - TOP - BOTTOM;
  const slot = plotW / Math.max(1, days.length);
  const y = (v: number) => round(TOP + plotH - (v / max) * plotH);
  const grid = [0, max / 2, max].map(
    (v) =>
      html`<line x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${y(v)}" y2="${y(v)}"/><text x="${LEFT - 6}" y="${y(v) + 4}" text-anchor="end" stroke="none">${formatNumber(v)}</text>`,
  );
  const bars = days.map((d, i) => {
    const h = round((d.credits / max) * plotH);
    return html`<rect x="${round(LEFT + i * slot + slot * 0.15)}" y="${round(TOP + plotH - h)}" width="${round(slot * 0.7)}" height="${h}"><title>${d.day}: ${formatNumber(d.credits)} credits</title></rect>`;
  });
  const labels = days.map((d, i) =>
    (days.length - 1 - i) % 7 === 0
      ? html`<text x="${round(LEFT + (i + 0.5) * slot)}" y="${HEIGHT - 8}" text-anchor="middle" stroke="none">${d.day.slice(5)}</text>`
      : '',
  );
  const first = days[0]?.day ?? '';
  const last = days[days.length - 1]?.day ?? '';
  return html`<figure class="chart">
<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="usage-chart-title usage-chart-desc" preserveAspectRatio="xMinYMid meet">
<title id="usage-chart-title">Credits spent per day</title>
<desc id="usage-chart-desc">${formatNumber(total)} credits spent from ${first} to ${last} (UTC days).</desc>
<g stroke="#d0d7de" fill="#57606a" font-size="13" font-family="system-ui, sans-serif">${grid}${labels}</g>
<g fill="#0b5cad">${bars}</g>
</svg>
<figcaption class="muted">Credits spent per day, ${first} to ${last} (UTC): ${formatNumber(total)} in all.</figcaption>
</figure>`;
}
