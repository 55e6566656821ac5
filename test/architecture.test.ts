import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The layer order of docs/architecture.md, lowest first: a module may import its own layer and the
 * layers below it, never one above. A module is a folder of src/ (`catalog`, `http`…) or a file at
 * its root (`config`, `app-context`, `app`). A new folder must be placed here before it is used.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['config', 'money', 'web'],
  ['db'],
  ['catalog', 'auth', 'credits', 'mock'],
  ['accounts', 'errors'],
  ['ingest', 'quality'],
  ['datasets'],
  ['app-context'],
  ['http', 'limits'],
  ['site', 'console'],
  ['trace'],
  ['app', 'cli'],
  ['demo', 'tools', 'bench'],
];

/** Imports allowed to run upward, each with its reason. Keep it short: none today. */
const ALLOWED_UPWARD: ReadonlySet<string> = new Set<string>([]);

/**
 * The composition roots, the only modules that may import the list of datasets: the app, the
 * CLI, the demo builder's main, and the programs apart from the product (tools, bench), which compose their own.
 */
const COMPOSITION_ROOTS = [
  /^src\/app\.ts$/,
  /^src\/cli\/main\.ts$/,
  /^src\/demo\/build-bundle\.ts$/,
  /^src\/tools\//,
  /^src\/bench\//,
];

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Every relative import and re-export of a file (type-only ones too: they make circles all the same). */
function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return [...text.matchAll(/^(?:import|export)\s[^;]*?from\s+'(\.[^']+)'/gms)].map((m) =>
    relative(ROOT, normalize(join(dirname(join(ROOT, file)), (m[1] ?? '').replace(/\.js$/, '.ts')))),
  );
}

function moduleOf(file: string): string {
  const [, first = '', second] = file.split('/');
  return second === undefined ? first.replace(/\.ts$/, '') : first;
}

const RANK = new Map(LAYERS.flatMap((names, rank) => names.map((n) => [n, rank] as const)));
const FILES = sources('src');
const GRAPH = new Map(FILES.map((f) => [f, importsOf(f).filter((t) => t.startsWith('src/'))]));

describe('the shape of the code', () => {
  it('places every module of src/ in a layer', () => {
    const unplaced = [...new Set(FILES.map(moduleOf))].filter((m) => !RANK.has(m));
    expect(unplaced, 'add each to LAYERS (and docs/architecture.md)').toEqual([]);
  });

  it('has no import from a lower layer to a higher one beyond the allow-list', () => {
    const upward: string[] = [];
    for (const [file, targets] of GRAPH) {
      const from = moduleOf(file);
      for (const target of targets) {
        const to = moduleOf(target);
        if ((RANK.get(to) ?? 0) > (RANK.get(from) ?? 0) && !ALLOWED_UPWARD.has(`${from} -> ${to}`)) {
          upward.push(`${file} -> ${target}`);
        }
      }
    }
    expect(upward).toEqual([]);
  });

  it('lets only the composition roots import the list of datasets', () => {
    const importers = FILES.filter((f) => GRAPH.get(f)?.includes('src/datasets/registry.ts'));
    expect(importers.length).toBeGreaterThan(0);
    expect(importers.filter((f) => !COMPOSITION_ROOTS.some((r) => r.test(f)))).toEqual([]);
  });

  it('has no import circle between files', () => {
    // Depth-first search for a back edge; a circle is named by the files on it.
    const state = new Map<string, 'open' | 'done'>();
    const circles: string[] = [];
    const visit = (file: string, path: string[]): void => {
      state.set(file, 'open');
      for (const next of GRAPH.get(file) ?? []) {
        if (!GRAPH.has(next)) continue;
        if (state.get(next) === 'open') circles.push([...path.slice(path.indexOf(next)), next].join(' -> '));
        else if (state.get(next) === undefined) visit(next, [...path, next]);
      }
      state.set(file, 'done');
    };
    for (const file of FILES) if (state.get(file) === undefined) visit(file, [file]);
    expect(circles).toEqual([]);
  });
});
