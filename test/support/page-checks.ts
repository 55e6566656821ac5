import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * In-page checks of what axe-core reports as serious or critical on these pages (axe-core itself
 * is not installed): scrollable regions that cannot take focus, controls, links and graphics
 * without a name, duplicate ids, the page's language and its single h1; and, on a narrow screen,
 * anything reaching past the right edge. Scripts run as text: the project has no DOM types.
 */
const AUDIT = `(() => {
  const name = (e) => (e.getAttribute('aria-label') || e.getAttribute('aria-labelledby') && [...e.getAttribute('aria-labelledby').split(' ')].map((id) => (document.getElementById(id) || {}).textContent || '').join(' ') || e.textContent || e.getAttribute('title') || '').trim();
  const focusable = (e) => e.tabIndex >= 0 || e.querySelector('a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"])') !== null;
  const visible = (e) => e.getClientRects().length > 0;
  const controls = [...document.querySelectorAll('input, select, textarea')].filter((e) => e.type !== 'hidden' && visible(e));
  const ids = [...document.querySelectorAll('[id]')].map((e) => e.id);
  const width = document.documentElement.clientWidth;
  // Clipped to nothing (visually hidden, for screen readers): not on screen, wherever it lies.
  const clipped = (e) => { for (let a = e; a !== null; a = a.parentElement) if (getComputedStyle(a).clip !== 'auto') return true; return false; };
  return {
    lang: document.documentElement.lang,
    h1: document.querySelectorAll('h1').length,
    unlabelled: controls.filter((e) => (e.labels ? e.labels.length : 0) === 0 && !e.getAttribute('aria-label')).map((e) => e.outerHTML),
    unnamedLinks: [...document.querySelectorAll('a[href], button')].filter((e) => visible(e) && name(e) === '').map((e) => e.outerHTML.slice(0, 80)),
    unnamedGraphics: [...document.querySelectorAll('svg')].filter((e) => name(e) === '' && e.querySelector('title') === null).map((e) => e.outerHTML.slice(0, 80)),
    scrollableWithoutFocus: [...document.querySelectorAll('body *')].filter((e) => {
      const style = getComputedStyle(e);
      return e.scrollWidth > e.clientWidth + 1 && ['auto', 'scroll'].includes(style.overflowX) && !focusable(e);
    }).map((e) => e.tagName.toLowerCase() + '.' + e.className),
    duplicateIds: ids.filter((id, i) => ids.indexOf(id) !== i),
    overflowing: [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > width + 1 && e.parentElement.closest('pre, [tabindex="0"]') === null && !clipped(e))
      .map((e) => e.tagName.toLowerCase() + '.' + e.className + ': ' + (e.textContent || '').slice(0, 30)),
    sideways: document.documentElement.scrollWidth - document.documentElement.clientWidth,
  };
})()`;

/** Asserts the page passes {@link AUDIT}; `what` names it in a failure. */
export async function expectAccessiblePage(page: Page, what: string): Promise<void> {
  const audit = await page.evaluate<Record<string, unknown>>(AUDIT);
  expect(audit, what).toEqual({
    lang: 'en',
    h1: 1,
    unlabelled: [],
    unnamedLinks: [],
    unnamedGraphics: [],
    scrollableWithoutFocus: [],
    duplicateIds: [],
    overflowing: [],
    sideways: 0,
  });
}

/** Presses Tab until the element with `id` has focus (at most `limit` times); true when it got there. */
export async function tabTo(page: Page, id: string, limit = 60): Promise<boolean> {
  for (let i = 0; i < limit; i += 1) {
    await page.keyboard.press('Tab');
    if ((await page.evaluate<string>('document.activeElement ? document.activeElement.id : ""')) === id) return true;
  }
  return false;
}
