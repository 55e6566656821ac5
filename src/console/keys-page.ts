import { TEST_TOKEN } from '../auth/test-token.js';
import { type Html, html } from '../web/html.js';
import type { KeyListing } from './keys-query.js';
import { consolePage, csrfField, formatTime, notice } from './layout.js';
import type { ConsoleSession } from './sessions.js';

/** Lifetimes a new key may be given, in days; '' lasts until revoked. */
export const KEY_LIFETIMES: ReadonlyArray<{ value: string; label: string; days: number | undefined }> = [
  { value: '', label: 'No expiry (until revoked)', days: undefined },
  { value: '30', label: '30 days', days: 30 },
  { value: '90', label: '90 days', days: 90 },
  { value: '365', label: '1 year', days: 365 },
];

function keyRow(k: KeyListing): Html {
  const action =
    k.status === 'active'
      ? html`<a href="/account/keys/${k.keyId}/revoke" aria-label="Revoke key ${k.name}">Revoke…</a>`
      : html`<span class="muted">—</span>`;
  return html`<tr><td data-label="Name">${k.name}</td><td data-label="Signature" class="nowrap"><code>…${k.displayPrefix}…</code></td><td data-label="Created" class="nowrap">${formatTime(k.createdAt)}</td>
<td data-label="Last used" class="nowrap">${formatTime(k.lastUsedAt)}</td><td data-label="Expires" class="nowrap">${k.expiresAt === null ? 'never' : formatTime(k.expiresAt)}</td>
<td data-label="Status"><span class="badge ${k.status}">${k.status}</span></td><td>${action}</td></tr>`;
}

/** The API key settings page: the account's keys and the form to create one. */
export function keysPage(
  session: ConsoleSession,
  keys: readonly KeyListing[],
  message?: { kind: 'info' | 'error'; text: string },
): string {
  const table =
    keys.length === 0
      ? html`<p>You have no API keys yet.</p>`
      : html`<table class="cards"><caption class="visually-hidden">Your API keys</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Signature</th><th scope="col">Created</th><th scope="col">Last used</th>
<th scope="col">Expires</th><th scope="col">Status</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
<tbody>${keys.map(keyRow)}</tbody></table>`;
  return consolePage(
    'API keys',
    session,
    'keys',
    html`<h1>API keys</h1>
${message === undefined ? '' : notice(message.kind, message.text)}
<p>Send a key as <code>Authorization: Bearer &lt;API key&gt;</code>. A key carries your account's rights: keep it secret and
out of client-side code. The key is shown once, when you create it; below, each key is recognisable by the first characters of its signature
(the part after the second dot).</p>
${table}
<h2>Live keys and the test token</h2>
<p>Every key above is a <strong>live key</strong>: its calls are billed and answer real figures; its payload (the part between the
dots) says <code>"mode":"live"</code>. The public <strong>test token</strong> answers free mock data, each answer marked
<code>X-Test-Mode: true</code>; its payload says <code>"sub":"test-mode","mock":true</code>, and its signature reads
<code>${TEST_TOKEN.split('.')[2]?.slice(0, 24)}…</code>.</p>
<details><summary>The test token</summary><p class="key"><code>${TEST_TOKEN}</code></p>
<p class="muted">Tickers <code>MOCK204</code>, <code>MOCK402</code>, <code>MOCK403</code> and <code>MOCK404</code> make it answer
those statuses, so a program can try its handling of each without spending credits.</p></details>
<h2>Create a key</h2>
<form method="post" action="/account/keys" class="stack">${csrfField(session.csrf)}
<label for="key-name">Name</label>
<input id="key-name" name="name" required maxlength="100" aria-describedby="key-name-help">
<p id="key-name-help" class="muted help">Say where it is used, e.g. "reporting server".</p>
<label for="key-lifetime">Expires</label>
<select id="key-lifetime" name="lifetime">${KEY_LIFETIMES.map((l) => html`<option value="${l.value}">${l.label}</option>`)}</select>
<p><button type="submit">Create key</button></p>
</form>`,
  );
}

/** The one page that ever shows a key: right after its creation. */
export function keyCreatedPage(session: ConsoleSession, name: string, apiKey: string, nonce: string): string {
  return consolePage(
    'Key created',
    session,
    'keys',
    html`<h1>Key “${name}” created</h1>
${notice('info', 'Copy the key now: it is shown this once and cannot be shown again. If you lose it, revoke it and create another.')}
<p>This is a live key (<code>"mode":"live"</code> in its payload): its calls are billed against your account.</p>
<label for="new-key">Your new API key</label>
<textarea id="new-key" class="key" readonly rows="6" spellcheck="false">${apiKey}</textarea>
<p><button type="button" id="copy-key">Copy to clipboard</button> <span id="copy-status" role="status" class="muted"></span></p>
<p><a href="/account/keys">Done: back to your keys</a></p>
<script nonce="${nonce}">
document.getElementById('copy-key').addEventListener('click', function () {
  var key = document.getElementById('new-key');
  var status = document.getElementById('copy-status');
  navigator.clipboard.writeText(key.value).then(function () { status.textContent = 'Copied.'; },
    function () { key.select(); status.textContent = 'Select the key and copy it (Ctrl+C / ⌘C).'; });
});
</script>`,
  );
}

/** The confirmation step before a revocation. */
export function revokeConfirmPage(session: ConsoleSession, key: KeyListing): string {
  return consolePage(
    'Revoke key',
    session,
    'keys',
    html`<h1>Revoke key “${key.name}”?</h1>
<p>Key with signature <code>…${key.displayPrefix}…</code>, created ${formatTime(key.createdAt)}, last used ${formatTime(key.lastUsedAt)}.</p>
<p>Calls with this key are refused (401) as soon as you confirm. This cannot be undone.</p>
<form method="post" action="/account/keys/${key.keyId}/revoke">${csrfField(session.csrf)}
<p><button type="submit" class="danger">Revoke this key</button> <a href="/account/keys">Cancel</a></p>
</form>`,
  );
}
