/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A trusted HTML fragment; only {@link html} and {@link raw} make one. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export function raw(value: string): Html {
  return new Html(value);
}

type Part = string | number | Html | null | undefined | readonly Part[];

function render(part: Part): string {
  if (part === null || part === undefined) return '';
  if (part instanceof Html) return part.value;
  if (Array.isArray(part)) return part.map(render).join('');
  return escapeHtml(String(part));
}

/** Tagged template that escapes every interpolated value unless it is already {@link Html}. */
export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0] ?? '';
  values.forEach((v, i) => {
    out += render(v) + (strings[i + 1] ?? '');
  });
  return new Html(out);
}

const STYLE = `
:root{color-scheme:light;--fg:#1b1f24;--muted:#57606a;--accent:#0b5cad;--bg:#fff;--line:#d0d7de;--soft:#f6f8fa}
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
header,main,footer{max-width:60rem;margin:0 auto;padding:1rem}
header{display:flex;gap:1rem;align-items:baseline;flex-wrap:wrap;border-bottom:1px solid var(--line)}
header a.brand{font-weight:700;font-size:1.2rem;text-decoration:none;color:var(--fg)}
nav a{margin-right:1rem}a{color:var(--accent)}a:focus,button:focus,input:focus,select:focus{outline:3px solid #f2b600;outline-offset:2px}
code,pre{font:14px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace;background:var(--soft);border-radius:4px}
pre{padding:.75rem;overflow-x:auto}code{padding:.1rem .3rem}
table{border-collapse:collapse;width:100%;margin:1rem 0;font-size:.95rem}th,td{border-bottom:1px solid var(--line);padding:.4rem;text-align:left;vertical-align:top}
th{background:var(--soft)}.muted{color:var(--muted)}.num{text-align:right;font-variant-numeric:tabular-nums}
button,.button{font:inherit;padding:.45rem .9rem;border:1px solid var(--accent);background:var(--accent);color:#fff;border-radius:6px;cursor:pointer}
button.secondary{background:#fff;color:var(--accent)}button.danger{background:#b42318;border-color:#b42318}
label{display:block;font-weight:600;margin-top:.75rem}input,select{font:inherit;padding:.4rem;border:1px solid var(--muted);border-radius:6px;width:100%;max-width:24rem}
.notice{padding:.75rem 1rem;border-left:4px solid var(--accent);background:var(--soft);margin:1rem 0}.error{border-color:#b42318}
.key,.key code{word-break:break-all;white-space:pre-wrap}
p,li,td,h1,h2,h3{overflow-wrap:anywhere}
textarea{font:14px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace;padding:.5rem;border:1px solid var(--muted);border-radius:6px;width:100%}
textarea:focus{outline:3px solid #f2b600;outline-offset:2px}
.visually-hidden{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
.console-bar{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;justify-content:space-between;padding:.25rem 0 .75rem;border-bottom:1px solid var(--line)}
.subnav a{display:inline-block;padding:.3rem .2rem;margin-right:.8rem}.subnav a[aria-current=page]{font-weight:700;color:var(--fg);text-decoration-thickness:3px}
form.inline{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}form.inline label{margin:0}form.inline select{width:auto}
button.small{padding:.25rem .6rem;font-size:.9rem}.help{margin:.25rem 0 0;font-size:.9rem}
.badge{display:inline-block;padding:0 .5rem;border-radius:999px;font-size:.85rem;border:1px solid}
.badge.active{color:#116329;border-color:#116329}.badge.revoked{color:#b42318;border-color:#b42318}.badge.expired{color:var(--muted);border-color:var(--muted)}
dl.facts{display:grid;grid-template-columns:minmax(8rem,max-content) 1fr;gap:.35rem 1rem;margin:1rem 0}dl.facts dt{font-weight:600}dl.facts dd{margin:0}
ul.plain{margin:0;padding-left:1.1rem}.value strong{font-size:1.15rem}
.chart{margin:1rem 0}.chart svg{width:100%;height:auto;max-width:36rem;display:block}
.nowrap{white-space:nowrap}.pager{display:flex;gap:1rem;align-items:center}.balance{font-size:1.2rem}
dl.facts{grid-template-columns:minmax(8rem,max-content) minmax(0,1fr)}dl.facts dd{overflow-wrap:anywhere}
.legend{list-style:none;padding:0;margin:.25rem 0;display:flex;flex-wrap:wrap;gap:.25rem 1rem}
.swatch{display:inline-block;width:.9rem;height:.9rem;margin-right:.35rem;vertical-align:-.1rem;border-radius:2px}
svg a:focus rect{stroke:#f2b600;stroke-width:3}caption{text-align:left;font-weight:600;padding:.25rem 0}
fieldset{border:1px solid var(--line);border-radius:6px;margin:.75rem 0;padding:.5rem .75rem}legend{font-weight:600;padding:0 .25rem}
ul.periods{list-style:none;padding:0;margin:.25rem 0;display:flex;flex-wrap:wrap;gap:.5rem 1.25rem}ul.periods li{display:flex;align-items:center;gap:.35rem}
input[type=checkbox]{width:1.2rem;height:1.2rem;margin:0}label.check{display:inline;font-weight:400;margin:0}.period{font-weight:600}
ul.results{list-style:none;padding:0}ul.results li{padding:.5rem 0;border-bottom:1px solid var(--line)}ul.results li span{display:block}
form.search input{flex:1 1 12rem}form.search .help{flex-basis:100%}a.button{display:inline-block;text-decoration:none}
tr.restated td{background:#fff8e5}.stats{display:grid;grid-template-columns:repeat(auto-fit,minmax(9rem,1fr));gap:.75rem;padding:0;list-style:none}
.stats li{background:var(--soft);border-radius:6px;padding:.6rem .8rem}.stats strong{display:block;font-size:1.4rem}
@media (max-width:40rem){table{display:block;overflow-x:auto;position:relative}dl.facts{grid-template-columns:minmax(0,1fr)}dl.facts dd{margin-bottom:.4rem}
table.cards,table.cards tbody,table.cards tr,table.cards td,table.cards caption:not(.visually-hidden){display:block;width:100%}table.cards{overflow:visible}
table.cards thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0,0,0,0)}
table.cards tr{border-bottom:1px solid var(--line);padding:.4rem 0}table.cards td{border:0;padding:.15rem 0;text-align:left}
table.cards td[data-label]::before{content:attr(data-label);display:inline-block;min-width:7.5rem;font-weight:600;color:var(--muted)}}
`;

/** The common page frame: title, navigation, stylesheet. */
export function page(title: string, body: Html): string {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · corpdata</title><style>${raw(STYLE)}</style></head>
<body><header><a class="brand" href="/">corpdata</a><nav aria-label="Main"><a href="/docs">API reference</a><a href="/account">Account</a></nav></header>
<main id="main">${body}</main>
<footer class="muted">corpdata · Corporate Data API v1 (Beta)</footer></body></html>`.value;
}

const NUMBER = new Intl.NumberFormat('en-US');

/** A whole number as pages print it (`1,234,567`): the console's and the trace pages' alike. */
export function formatNumber(n: number): string {
  return NUMBER.format(n);
}

const DECIMAL = new Intl.NumberFormat('en-US', { maximumFractionDigits: 6 });

/** A decimal figure (a per-share value) with every place it has, up to six: 1.2345 → "1.2345". */
export function formatDecimal(n: number): string {
  return DECIMAL.format(n);
}
