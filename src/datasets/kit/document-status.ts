import type { DocumentStatus } from '../../db/schema.js';
import { type Html, html } from '../../web/html.js';

/** A source document's status as every trace page states it. */
export const STATUS_TEXT: Record<DocumentStatus, string> = {
  processed: 'processed',
  pending: 'pending: not processed yet, so the API does not serve its figures',
  failed: 'failed: its figures could not be extracted, so the API does not serve them',
};

/** The notice of a point the API does not serve: nobody sees its values, whatever they bought. */
export function notServedNotice(status: DocumentStatus): Html {
  return html`<div class="notice" role="status"><p>The API does not serve this data point: its source document is ${status === 'processed' ? 'not the one the API uses' : status}. Its values are shown to nobody.</p></div>`;
}
