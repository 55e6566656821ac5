import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type Architecture, checkImports, drawing, importSites } from './support/import-graph.js';

/**
 * The layer order of docs/architecture.md, lowest first: a module may import its own layer and the
 * layers below it, never one above. A module is a folder of src/ (`catalog`, `http`…) or a file at
 * its root (`config`, `app-context`, `app`). A new folder must be placed here before it is used.
 * Inside `ingest`, the same holds between its parts, and the parts of one layer (the sources; the
 * sync frame and the demo part's contract) do not import one another at all: a new source's folder
 * is placed by `sources/*` without a line here.
 */
const ARCHITECTURE: Architecture = {
  modules: [
    ['config', 'money', 'web'],
    ['db'],
    ['catalog', 'auth', 'credits', 'mock'],
    ['accounts', 'errors'],
    ['ingest', 'quality', 'events', 'webhooks', 'freshness'],
    ['datasets'],
    ['app-context'],
    ['http', 'limits'],
    ['site', 'console'],
    ['trace'],
    ['app', 'cli'],
    ['scratch'],
    ['demo', 'tools', 'bench'],
  ],
  inside: {
    ingest: [['core'], ['filings'], ['sync', 'demo'], ['sources'], ['sources/*'], ['registry']],
  },
  /** Imports allowed to run upward, each with its reason. Keep it short: none today. */
  allowedUpward: new Set<string>([]),
  /**
   * The lists of datasets and of sources, which only the composition roots import: the app, the
   * CLI, the demo builder's main, and the programs apart from the product (tools, bench), which
   * compose their own.
   */
  registries: [
    {
      file: 'src/datasets/registry.ts',
      importers: [/^src\/app\.ts$/, /^src\/cli\/main\.ts$/, /^src\/demo\/build-bundle\.ts$/, /^src\/tools\//, /^src\/bench\//],
    },
    { file: 'src/ingest/registry.ts', importers: [/^src\/cli\/main\.ts$/, /^src\/demo\/build-bundle\.ts$/, /^src\/tools\//] },
  ],
};

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

const TREE = new Map(sources('src').map((f) => [f, readFileSync(join(ROOT, f), 'utf8')]));
const FOUND = checkImports(TREE, ARCHITECTURE);

describe('the shape of the code', () => {
  it('places every module of src/, and every part of ingest, in a layer', () => {
    expect(FOUND.unplaced, 'add each to ARCHITECTURE (and docs/architecture.md)').toEqual([]);
  });

  it('has no import from a lower layer to a higher one beyond the allow-list, dynamic and type imports included', () => {
    expect(FOUND.upward).toEqual([]);
  });

  it('has no import between two sources (or other parts of one layer inside a module), either way', () => {
    expect(FOUND.sideways).toEqual([]);
  });

  it('follows every import: none names its module by a computed string', () => {
    expect(FOUND.unreadable).toEqual([]);
  });

  it('lets only the composition roots import the lists of datasets and sources', () => {
    for (const { file } of ARCHITECTURE.registries) {
      expect(
        [...FOUND.graph.values()].some((targets) => targets.includes(file)),
        `${file} is imported`,
      ).toBe(true);
    }
    expect(FOUND.registryImporters).toEqual([]);
  });

  it('has no import circle between files', () => {
    expect(FOUND.circles).toEqual([]);
  });

  it('draws the graph of modules and parts with every arrow pointing down the layers', () => {
    const lines = drawing(FOUND, ARCHITECTURE).split('\n');
    expect(lines[0]).toBe('flowchart TD');
    // The CLI reaches ingest's list of sources, which reaches each source.
    expect(lines).toContain('  cli["cli"] --> ingest_registry["ingest/registry"]');
    expect(lines).toContain('  ingest_registry["ingest/registry"] --> ingest_sources_sec["ingest/sources/sec"]');
  });

  it("draws the parts of ingest as docs/architecture.md shows them (its drawing is this one's output)", () => {
    const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
    const shown = /`drawing\(…, 'ingest'\)`[^\n]*\n\n```mermaid\n([^`]*)```/.exec(doc)?.[1];
    expect(shown, "the mermaid block after `drawing(…, 'ingest')` in docs/architecture.md").toBe(
      `${drawing(FOUND, ARCHITECTURE, 'ingest')}\n`,
    );
  });
});

describe('the checker of the shape', () => {
  /** The checker's findings on a planted tree: the real one with `planted` added or replaced. */
  const plant = (planted: Record<string, string>) => checkImports(new Map([...TREE, ...Object.entries(planted)]), ARCHITECTURE);

  it('reads static, dynamic, type, re-export, require and import-equals imports in any quoting', () => {
    const text = [
      "import { a } from './a.js';",
      'import type { B } from "./b.js";',
      "export * from './c.js';",
      "export { d } from './d.js';",
      'const e = await import("./e.js");',
      "type F = import('./f.js').F;",
      'const g = require(`./g.js`);',
      "import h = require('./h.js');",
      'const i = await import(name);',
      'const text = \'import x from "./not-an-import.js"\';',
    ].join('\n');
    expect(importSites('src/x.ts', text).map((s) => [s.kind, s.specifier ?? null, s.line])).toEqual([
      ['static', './a.js', 1],
      ['static', './b.js', 2],
      ['re-export', './c.js', 3],
      ['re-export', './d.js', 4],
      ['dynamic', './e.js', 5],
      ['type', './f.js', 6],
      ['require', './g.js', 7],
      ['import-equals', './h.js', 8],
      ['dynamic', null, 9],
    ]);
  });

  it('fails an upward dynamic import planted in a low layer', () => {
    const found = plant({
      'src/db/planted.ts': 'export async function f() {\n  return (await import("../app.js")).buildApp;\n}\n',
    });
    expect(found.upward).toEqual(['src/db/planted.ts:2 -> src/app.ts (dynamic)']);
  });

  it('fails an upward import() type planted in a low layer', () => {
    const found = plant({ 'src/config-planted.ts': "export type O = import('./app.js').BuildAppOptions;\n" });
    expect(found.unplaced).toEqual(['config-planted']);
    const inConfig = plant({ 'src/money/planted.ts': "export type O = import('../app.js').BuildAppOptions;\n" });
    expect(inConfig.upward).toEqual(['src/money/planted.ts:1 -> src/app.ts (type)']);
  });

  it('fails an upward re-export and require in double quotes, and an import it cannot follow', () => {
    const found = plant({
      'src/catalog/planted.ts':
        'export * from "../http/errors.js";\nconst m = require("../console/x.js");\nawait import("../" + m + ".js");\n',
    });
    expect(found.upward).toEqual([
      'src/catalog/planted.ts:1 -> src/http/errors.ts (re-export)',
      'src/catalog/planted.ts:2 -> src/console/x.ts (require)',
    ]);
    expect(found.unreadable).toEqual(['src/catalog/planted.ts:3 (dynamic)']);
  });

  it('holds the order inside ingest: its core may not import a source, nor the shared pipeline the list of sources', () => {
    const found = plant({
      'src/ingest/core/planted.ts': "export const r = () => import('../sources/sec/rules.js');\n",
      'src/ingest/filings/planted.ts': "import { SOURCES } from '../registry.js';\nexport const n = SOURCES.length;\n",
    });
    expect(found.upward).toEqual([
      'src/ingest/core/planted.ts:1 -> src/ingest/sources/sec/rules.ts (dynamic)',
      'src/ingest/filings/planted.ts:1 -> src/ingest/registry.ts (static)',
    ]);
    expect(found.registryImporters).toEqual(['src/ingest/filings/planted.ts -> src/ingest/registry.ts']);
  });

  it('holds the demo part below the sources and beside the sync frame: it imports neither', () => {
    const found = plant({
      'src/ingest/demo/planted.ts': "export type S = import('../sources/sec/sec-source.js').SecFiler;\n",
      'src/ingest/demo/planted-sync.ts': "import { withSyncRun } from '../sync/sync-run.js';\nexport const w = withSyncRun;\n",
    });
    expect(found.upward).toEqual(['src/ingest/demo/planted.ts:1 -> src/ingest/sources/sec/sec-source.ts (type)']);
    expect(found.sideways).toEqual(['src/ingest/demo/planted-sync.ts:1 -> src/ingest/sync/sync-run.ts (static)']);
  });

  it('forbids imports between two sources in both directions, and places a new source by its folder', () => {
    const found = plant({
      'src/ingest/sources/sec/planted.ts': "export type E = import('../esef/esef-source.js').EsefFiler;\n",
      'src/ingest/sources/esef/planted.ts': "import { normalizeCik } from '../sec/rules.js';\nexport const c = normalizeCik;\n",
      'src/ingest/sources/edinet/edinet.ts': "import type { Source } from '../source.js';\nexport type S = Source;\n",
    });
    expect(found.sideways).toEqual([
      'src/ingest/sources/sec/planted.ts:1 -> src/ingest/sources/esef/esef-source.ts (type)',
      'src/ingest/sources/esef/planted.ts:1 -> src/ingest/sources/sec/rules.ts (static)',
    ]);
    expect(found.unplaced).toEqual([]);
    expect(found.upward).toEqual([]);
  });

  it('finds a circle made by type imports', () => {
    const found = plant({
      'src/web/planted-a.ts': "import type { B } from './planted-b.js';\nexport type A = B;\n",
      'src/web/planted-b.ts': "export type B = import('./planted-a.js').A;\n",
    });
    expect(found.circles).toEqual(['src/web/planted-a.ts -> src/web/planted-b.ts -> src/web/planted-a.ts']);
  });
});
