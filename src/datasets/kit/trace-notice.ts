import { type Html, html } from '../../web/html.js';

/** A link only for http(s) addresses; anything else is shown as text, never made clickable. */
export function sourceLink(url: string): Html {
  return /^https?:\/\//i.test(url) ? html`<a href="${url}" rel="noopener noreferrer">${url}</a>` : html`<span>${url}</span>`;
}

/**
 * The notice of a visitor who is not signed in: what buying shows (`sentence`), and a sign-in
 * link that comes back to the point's page `/trace/{id}`.
 */
export function signedOutNotice(sentence: string, id: string): Html {
  return html`<div class="notice" role="status"><p>${sentence}</p>
<p><a href="/account/sign-in?next=${encodeURIComponent(`/trace/${id}`)}">Sign in</a> to see them.</p></div>`;
}

/** A publication date, or that the source gives none (never a made-up one: design §13.6, §14.5). */
export function publishedText(publishedOn: string): string {
  return publishedOn === '' ? 'unknown (the source gives no publication date)' : publishedOn;
}
