import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** axe-core's browser build, read once: evaluated in the page, which a Content-Security-Policy does not stop. */
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** What axe-core finds, reduced to what a failure message needs. Scripts run as text: the project has no DOM types. */
const RUN_AXE = `axe.run(document).then((r) => ({
  passed: r.passes.map((p) => p.id),
  violations: r.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => n.target.join(' ') + ': ' + n.failureSummary.replace(/\\s+/g, ' ').slice(0, 200)),
  })),
}))`;

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/**
 * What axe does not check: the page's single h1, and, on a narrow screen, anything reaching past
 * the right edge (a wide `pre` or a focusable scrolling region may scroll inside itself).
 */
const LAYOUT = `(() => {
  const width = document.documentElement.clientWidth;
  // Clipped to nothing (visually hidden, for screen readers): not on screen, wherever it lies.
  const clipped = (e) => { for (let a = e; a !== null; a = a.parentElement) if (getComputedStyle(a).clip !== 'auto') return true; return false; };
  return {
    h1: document.querySelectorAll('h1').length,
    overflowing: [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > width + 1 && e.parentElement.closest('pre, [tabindex="0"]') === null && !clipped(e))
      .map((e) => e.tagName.toLowerCase() + '.' + e.className + ': ' + (e.textContent || '').slice(0, 30)),
    sideways: document.documentElement.scrollWidth - document.documentElement.clientWidth,
  };
})()`;

/**
 * Asserts the page has no serious or critical violation by axe-core (the real one, run in the
 * page), one h1, and nothing past the right edge; `what` names it in a failure, which lists the
 * violations.
 */
export async function expectAccessiblePage(page: Page, what: string): Promise<void> {
  if (!(await page.evaluate<boolean>('typeof axe !== "undefined"'))) await page.evaluate(AXE);
  const { passed, violations } = await page.evaluate<{ passed: string[]; violations: Violation[] }>(RUN_AXE);
  // axe ran its rules on this page, contrast among them (a page it could not read would pass nothing).
  expect(passed, what).toContain('color-contrast');
  const grave = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(grave, `${what}: axe-core found\n${JSON.stringify(grave, null, 2)}`).toEqual([]);
  const layout = await page.evaluate<Record<string, unknown>>(LAYOUT);
  expect(layout, what).toEqual({ h1: 1, overflowing: [], sideways: 0 });
}

/** Presses Tab until the element with `id` has focus (at most `limit` times); true when it got there. */
export async function tabTo(page: Page, id: string, limit = 60): Promise<boolean> {
  for (let i = 0; i < limit; i += 1) {
    await page.keyboard.press('Tab');
    if ((await page.evaluate<string>('document.activeElement ? document.activeElement.id : ""')) === id) return true;
  }
  return false;
}
