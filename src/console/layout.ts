import { type Html, html, page } from '../web/html.js';
import type { ConsoleSession } from './sessions.js';

export type ConsoleSection = 'companies' | 'data' | 'keys' | 'usage' | 'password';

const SECTIONS: ReadonlyArray<{ id: ConsoleSection; href: string; label: string }> = [
  { id: 'companies', href: '/account/companies', label: 'Companies' },
  { id: 'data', href: '/account/data', label: 'My data' },
  { id: 'keys', href: '/account/keys', label: 'API keys' },
  { id: 'usage', href: '/account/usage', label: 'Balance and usage' },
  { id: 'password', href: '/account/password', label: 'Password' },
];

/** The hidden field that carries the session's CSRF token; every console form includes it. */
export function csrfField(token: string): Html {
  return html`<input type="hidden" name="csrf" value="${token}">`;
}

/** A console page: who is signed in, the console's sections, sign-out, then the page itself. */
export function consolePage(title: string, session: ConsoleSession, section: ConsoleSection, body: Html): string {
  const links = SECTIONS.map((s) =>
    s.id === section ? html`<a href="${s.href}" aria-current="page">${s.label}</a>` : html`<a href="${s.href}">${s.label}</a>`,
  );
  return page(
    title,
    html`<div class="console-bar"><nav aria-label="Account" class="subnav">${links}</nav>
<form method="post" action="/account/sign-out" class="inline">${csrfField(session.csrf)}<span class="muted">${session.email}</span>
<button type="submit" class="secondary small">Sign out</button></form></div>
${body}`,
  );
}

/** A notice box; `role="alert"` for errors so screen readers announce them. */
export function notice(kind: 'info' | 'error', text: string | Html): Html {
  return kind === 'error'
    ? html`<div class="notice error" role="alert">${text}</div>`
    : html`<div class="notice" role="status">${text}</div>`;
}

/** An ISO timestamp as `2025-01-31 14:05 UTC`; '—' for none. */
export function formatTime(iso: string | null): string {
  if (iso === null) return '—';
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}
