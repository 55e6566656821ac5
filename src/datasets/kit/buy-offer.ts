import { type Html, html } from '../../web/html.js';

/** What a trace page of an unbought point offers: the console's buy step for its company-period, and the API call. */
export interface BuyOffer {
  /** The dataset's name (its endpoint, its purchase key) and label. */
  dataset: string;
  label: string;
  companyId: string;
  companyName: string;
  period: number;
  price: number;
  repeatPrice: number;
  /** The API's call that buys it, for programs. */
  call: string;
}

/**
 * The notice of a signed-in account that has not bought a point's company-period: a link to the
 * console's review of that purchase (total and balance after, then one confirmation), and the
 * same purchase as one API call.
 */
export function buyOffer(o: BuyOffer): Html {
  const review = `/account/companies/${o.companyId}/buy?dataset=${encodeURIComponent(o.dataset)}&period=${o.period}`;
  return html`<div class="notice" role="status"><p>Your account has not bought the ${o.label} of ${o.companyName}, ${o.period} yet, so its values are not shown.</p>
<p><a class="button" href="${review}">Buy ${o.label} ${o.period} for ${o.price} credits…</a></p>
<p class="muted">You confirm on the next page, which shows the balance after. A program buys it with one call of the API
(${o.price} credits the first time, ${o.repeatPrice} for each repeat), with one of your <a href="/account/keys">API keys</a>:</p>
<pre class="key"><code>curl -H "Authorization: Bearer $CORPDATA_API_KEY" "${o.call}"</code></pre></div>`;
}
