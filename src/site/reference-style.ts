/**
 * What the reference page adds to the common stylesheet: examples wrap instead of scrolling
 * sideways (nothing on a phone needs a horizontal scroll, and a scrolling box would need keyboard
 * focus), field lists stack on a phone and sit in two columns on a wide screen.
 */
export const REFERENCE_STYLE = `
.op h2 code,h2 code{font-size:1.05rem;background:none;padding:0}
pre.example{white-space:pre-wrap;overflow-wrap:anywhere;margin:.5rem 0;padding:.5rem .75rem}pre code{padding:0;background:none}
h1{font-size:1.6rem;line-height:1.25}h2[id],h3[id],[id^="error-"]{scroll-margin-top:.5rem}
summary{cursor:pointer;padding:.3rem 0;color:var(--accent)}summary:focus-visible{outline:3px solid #f2b600;outline-offset:2px}
details{margin:.25rem 0}details[open]>summary{margin-bottom:.5rem}
.op{border-top:1px solid var(--line);margin-top:.75rem}.op h2{margin:.6rem 0 .2rem}pre.call{word-break:break-all}
h2{font-size:1.3rem;margin:1.25rem 0 .5rem}.op p{margin:.25rem 0}
details.sub>summary h3{display:inline;font-size:.95rem;margin:0}details.sub>summary h3 code{background:none;padding:0}.op:has(>details.sub){border-top:none;margin-top:0}
dl.fields{margin:.5rem 0}dl.fields>div{padding:.35rem 0;border-bottom:1px solid var(--line)}
dl.fields dd{margin:0}dl.errors{font-size:.9rem;margin:.5rem 0}dl.errors>div{padding:.15rem 0}dl.errors>div{display:grid;grid-template-columns:2.5rem 1fr;gap:.5rem}dl.errors dt{font-weight:700}dl.errors dd{margin:0}dl.fields code{overflow-wrap:anywhere}
details.values{display:inline}details.values summary{display:inline;padding:0}
nav.toc ul{list-style:none;padding:0;margin:.25rem 0;columns:2}nav.toc li{break-inside:avoid;padding:.1rem 0}nav.toc p{margin:.5rem 0 0}nav.toc li code{font-size:.8rem;padding:0;background:none;overflow-wrap:anywhere}
table.mics{table-layout:fixed}table.mics th:first-child{width:4.5rem}table.mics th:last-child{width:7rem}
@media (min-width:48rem){dl.fields>div{display:grid;grid-template-columns:16rem 1fr;gap:1rem}}
@media (max-width:40rem){table.mics{display:table}}
`;
