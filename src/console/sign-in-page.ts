import { html, page } from '../web/html.js';
import { notice } from './layout.js';

export interface SignInView {
  csrf: string;
  next: string;
  email?: string;
  error?: string;
}

/** The sign-in form. Errors never say whether the email exists. */
export function signInPage(view: SignInView): string {
  return page(
    'Sign in',
    html`<h1>Sign in to your account</h1>
${view.error === undefined ? '' : notice('error', view.error)}
<form method="post" action="/account/sign-in" class="stack">
<input type="hidden" name="csrf" value="${view.csrf}">
<input type="hidden" name="next" value="${view.next}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${view.email ?? ''}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<p><button type="submit">Sign in</button></p>
</form>
<p class="muted">Accounts and their first password are set up by the operator of this service
(<code>bin/corpdata accounts create --email … --password …</code>); you can change your password once signed in.</p>`,
  );
}
