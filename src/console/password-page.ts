import { html } from '../web/html.js';
import { MIN_PASSWORD_LENGTH } from './credentials.js';
import { consolePage, csrfField, notice } from './layout.js';
import type { ConsoleSession } from './sessions.js';

/** The change-password form: the current password, then the new one twice. */
export function passwordPage(session: ConsoleSession, message?: { kind: 'info' | 'error'; text: string }): string {
  return consolePage(
    'Change password',
    session,
    'password',
    html`<h1>Change your password</h1>
${message === undefined ? '' : notice(message.kind, message.text)}
<form method="post" action="/account/password" class="stack">${csrfField(session.csrf)}
<input type="text" name="username" autocomplete="username" value="${session.email}" hidden>
<label for="current-password">Current password</label>
<input id="current-password" name="current" type="password" autocomplete="current-password" required>
<label for="new-password">New password</label>
<input id="new-password" name="password" type="password" autocomplete="new-password" required minlength="${MIN_PASSWORD_LENGTH}" aria-describedby="new-password-help">
<p id="new-password-help" class="muted help">At least ${MIN_PASSWORD_LENGTH} characters.</p>
<label for="confirm-password">New password again</label>
<input id="confirm-password" name="confirm" type="password" autocomplete="new-password" required minlength="${MIN_PASSWORD_LENGTH}">
<p><button type="submit">Change password</button></p>
</form>
<p class="muted">Changing the password signs out your other sessions.</p>`,
  );
}
