import { describe, expect, it } from 'vitest';
import { safeNext } from './console-auth.js';

describe('the page to return to after sign-in', () => {
  it('keeps local paths', () => {
    for (const path of ['/trace/00000000-0000-4000-8000-000000000001', '/account/usage?key=k&page=2', '/']) {
      expect(safeNext(path)).toBe(path);
    }
  });

  it('sends anything else to the console', () => {
    for (const next of [
      undefined,
      '',
      'https://evil.example/',
      '//evil.example',
      '/\\evil.example',
      'trace/x',
      '/a b',
      '/\u00e9',
      '/x\n',
    ]) {
      expect(safeNext(next)).toBe('/account/keys');
    }
  });
});
