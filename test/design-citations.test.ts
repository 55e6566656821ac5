import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The rules the code refers to are in the repository: docs/design.md, cited as `design §10` (a
 * section) or `design §10.3` (an item). A clone must be able to read every rule a comment, a test
 * or a doc points at, so nothing may send the reader to a design or specification document kept
 * outside the repository, and every citation must name a section or item the page has.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DESIGN_PAGE = 'docs/design.md';
/** This file, whose examples of wrong citations are not citations. */
const SELF = 'test/design-citations.test.ts';

/** Where comments, tests and docs live; data (the demo bundle, fixtures) and build output are not read. */
const SCANNED_DIRS = ['src', 'test', 'clients', 'scripts', 'docs', 'bin', '.ci'];
const SCANNED_FILES = ['README.md', 'demo/REPORT.txt', 'demo/SOURCES.md'];
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'fixtures', 'screenshots']);
const TEXT = /\.(ts|md|py|sh|txt|js|mjs)$/;

function textFiles(dir: string): string[] {
  if (!existsSync(join(ROOT, dir))) return [];
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) return SKIPPED_DIRS.has(e.name) ? [] : textFiles(path);
    // bin/ and .ci/ hold scripts without an extension.
    return TEXT.test(e.name) || dir === 'bin' || dir === '.ci' ? [path] : [];
  });
}

const FILES = [...SCANNED_DIRS.flatMap(textFiles), ...SCANNED_FILES.filter((f) => existsSync(join(ROOT, f)))].filter((f) =>
  statSync(join(ROOT, f)).isFile(),
);

/** The sections (`## 10. …`) and their items (`1. …` at the start of a line) of docs/design.md. */
function designAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  let section: string | undefined;
  let fenced = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    if (fenced) continue;
    const heading = /^## (\d+)\. /.exec(line);
    if (heading?.[1] !== undefined) {
      section = heading[1];
      anchors.add(section);
      continue;
    }
    const item = /^(\d+)\. /.exec(line);
    if (item?.[1] !== undefined && section !== undefined) anchors.add(`${section}.${item[1]}`);
  }
  return anchors;
}

const REF = String.raw`\d+(?:\.\d+)?(?:[–-]\d+)?`;
/**
 * A citation: "design" (or `docs/design.md`), then (across a line break and a comment's `*`, `//`
 * or `#`) one or more section signs: `design §10.3`, `design §10, §15`, `design §13.6 and §14.1`,
 * `design §10.2–6`, `design §§10, 14`.
 */
const CITATION = new RegExp(
  String.raw`\bdesign(?:\.md)?\b[\s*/#>\x60]*(§§\s*${REF}(?:\s*(?:,|and|or)\s*${REF})*|§\s*${REF}(?:\s*(?:,|;|and|or)\s*§\s*${REF})*)`,
  'gi',
);

/** The anchors a citation names: `10.2–6` is items 2 to 6 of section 10. */
function citedAnchors(citation: string): string[] {
  return [...citation.matchAll(new RegExp(REF, 'g'))].flatMap(([ref]) => {
    const range = /^(\d+)\.(\d+)[–-](\d+)$/.exec(ref);
    if (range === null) return [ref.replace(/[–-]\d+$/, '')];
    const [, section, from, to] = range;
    const out: string[] = [];
    for (let i = Number(from); i <= Number(to); i++) out.push(`${section}.${i}`);
    return out;
  });
}

/** Every citation of docs/design.md in a text, with its line. */
function citations(text: string): { line: number; anchors: string[] }[] {
  return [...text.matchAll(CITATION)].map((m) => ({
    line: text.slice(0, m.index).split('\n').length,
    anchors: citedAnchors(m[1] ?? ''),
  }));
}

/**
 * Pointers to documents outside the repository: the design and specification documents that used
 * to live beside it, and any `../shared` path but the reference data (`../shared/data`, which the
 * demo builder reads: data, not rules). The old design document's name is matched upper-case and
 * before a section sign or as a file, so that a company name holding the word is not a pointer.
 */
const OUTSIDE: readonly { pattern: RegExp; what: string }[] = [
  { pattern: /\bDESIGN(?:\.md)?\b[\s*/#>(\x60]*§/g, what: 'a section of the outside design document' },
  { pattern: /\bDESIGN\.md\b/g, what: 'the outside design document' },
  { pattern: /shared\/(?:spec|DESIGN|CONVENTIONS)/gi, what: 'a shared document outside the repository' },
  { pattern: /\.\.\/shared\/(?!data\b)/g, what: 'a path outside the repository other than the reference data' },
  { pattern: /\/work\/shared\b/g, what: 'an absolute path outside the repository' },
  { pattern: /corporate-data-api\.md/g, what: 'the API specification, which is not in the repository' },
  { pattern: /\bCONVENTIONS\.md\b/g, what: 'a conventions document outside the repository' },
  {
    pattern: /\bspec(?:'s|ification's|ification)?[\s*/#>]*\(?§/gi,
    what: 'a section of the API specification, which is not in the repository',
  },
];

/** Every pointer outside the repository in a text, with its line (a pointer may span a comment's line break). */
function outsidePointers(text: string): { line: number; what: string }[] {
  return OUTSIDE.flatMap(({ pattern, what }) =>
    [...text.matchAll(pattern)].map((m) => ({ line: text.slice(0, m.index).split('\n').length, what })),
  );
}

describe('design citations', () => {
  const anchors = designAnchors(readFileSync(join(ROOT, DESIGN_PAGE), 'utf8'));

  it('reads the sections and items of docs/design.md', () => {
    for (let n = 1; n <= 21; n++) expect(anchors.has(String(n)), `§${n}`).toBe(true);
    for (const item of ['1.1', '1.12', '10.1', '10.9', '11.9', '13.7', '14.7', '15.4', '16.5', '18.6', '19.8', '20.6', '21.3']) {
      expect(anchors.has(item), `§${item}`).toBe(true);
    }
    expect(anchors.has('1.13')).toBe(false);
    expect(anchors.has('17.1')).toBe(false);
    // A numbered line inside a code block is not an item.
    expect(designAnchors('## 3. X\n```\n1. not an item\n```\n2. an item\n')).toEqual(new Set(['3', '3.2']));
  });

  it('finds citations in their written forms, across comment line breaks', () => {
    expect(citations('as design §10.3 says').map((c) => c.anchors)).toEqual([['10.3']]);
    expect(citations('(design §10, §15)').map((c) => c.anchors)).toEqual([['10', '15']]);
    expect(citations('(design §13.6 and §14.1)').map((c) => c.anchors)).toEqual([['13.6', '14.1']]);
    expect(citations('(design\n * §14.3)').map((c) => c.anchors)).toEqual([['14.3']]);
    expect(citations('// see design\n// §10.6').map((c) => c.anchors)).toEqual([['10.6']]);
    expect(citations('Design §10.2–6 apply').map((c) => c.anchors)).toEqual([['10.2', '10.3', '10.4', '10.5', '10.6']]);
    expect(citations('design §§10, 14').map((c) => c.anchors)).toEqual([['10', '14']]);
    expect(citations('[Design §15](design.md#15-sources) names').map((c) => c.anchors)).toEqual([['15']]);
    expect(citations('(design §10, 2024 filings)').map((c) => c.anchors)).toEqual([['10']]);
    expect(citations('the design left open; RFC 9110 §10.2.3')).toEqual([]);
  });

  it('cites only sections and items that docs/design.md has', () => {
    const missing: string[] = [];
    let count = 0;
    for (const file of FILES.filter((f) => f !== SELF)) {
      for (const { line, anchors: cited } of citations(readFileSync(join(ROOT, file), 'utf8'))) {
        count++;
        for (const a of cited) if (!anchors.has(a)) missing.push(`${file}:${line}: design §${a}`);
      }
    }
    expect(missing, 'add the rule to docs/design.md or correct the citation').toEqual([]);
    // The scan reads the code: a citation count of zero would mean it read nothing.
    expect(count).toBeGreaterThan(100);
  });

  it('flags a citation of a section or item the page lacks', () => {
    const cited = citations('(design §10.12) and design §22 and design §17.1').flatMap((c) => c.anchors);
    expect(cited.filter((a) => !anchors.has(a))).toEqual(['10.12', '22', '17.1']);
  });

  it('points at no design or specification document outside the repository', () => {
    const outside = FILES.filter((f) => f !== SELF).flatMap((file) =>
      outsidePointers(readFileSync(join(ROOT, file), 'utf8')).map(({ line, what }) => `${file}:${line}: ${what}`),
    );
    expect(outside, 'cite docs/design.md (design §n) or the OpenAPI document instead').toEqual([]);
  });

  it('flags each kind of outside pointer, and not the reference data', () => {
    const flagged = (text: string) => outsidePointers(text).length > 0;
    expect(flagged('(DESIGN §10.3)')).toBe(true);
    expect(flagged('the rule of DESIGN\n * §14.1')).toBe(true);
    expect(flagged('see DESIGN.md')).toBe(true);
    expect(flagged('../shared/DESIGN.md §5')).toBe(true);
    expect(flagged('../shared/spec/corporate-data-api.md')).toBe(true);
    expect(flagged('/work/shared/CONVENTIONS.md')).toBe(true);
    expect(flagged('One revenue record (spec §2.1).')).toBe(true);
    expect(flagged("the spec's §8 prices")).toBe(true);
    expect(flagged('node dist/demo/build-bundle.js ../shared/data demo/bundle')).toBe(false);
    expect(flagged('CADENCE DESIGN SYSTEMS, INC.: 10-K')).toBe(false);
    expect(flagged('the design (design §10.3) of a figure spec')).toBe(false);
    expect(flagged('HTTP-date (RFC 9110\n * §10.2.3)')).toBe(false);
  });
});
