import { dirname, join, normalize } from 'node:path';
import ts from 'typescript';

/**
 * The import graph of `src/` and the layer rules of docs/architecture.md, as a function of the
 * files' text, so that `test/architecture.test.ts` checks the tree and also checks the checker on
 * planted files.
 */

/** One import of a file, of any form, and the line it is on. */
export interface ImportSite {
  /** The specifier as written; undefined when it is not a string the reader can follow. */
  specifier: string | undefined;
  line: number;
  kind: 'static' | 're-export' | 'dynamic' | 'type' | 'require' | 'import-equals';
}

/**
 * Every import of a TypeScript file, read by the compiler's parser: `import … from`, `export … from`,
 * `import x = require(…)`, `await import(…)`, `import(…)` types, `require(…)`; any quoting, type-only
 * ones included (they make circles all the same).
 */
export function importSites(fileName: string, text: string): ImportSite[] {
  const key = `${fileName}\n${text}`;
  const known = READ.get(key);
  if (known !== undefined) return known;
  const sites = readSites(fileName, text);
  READ.set(key, sites);
  return sites;
}

/** Files already read, by name and text: the checker runs many times over one tree. */
const READ = new Map<string, ImportSite[]>();

function readSites(fileName: string, text: string): ImportSite[] {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const sites: ImportSite[] = [];
  const add = (node: ts.Node, argument: ts.Node | undefined, kind: ImportSite['kind']) => {
    const specifier = argument !== undefined && ts.isStringLiteralLike(argument) ? argument.text : undefined;
    sites.push({ specifier, line: file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1, kind });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) add(node, node.moduleSpecifier, 'static');
    else if (ts.isExportDeclaration(node) && node.moduleSpecifier !== undefined) add(node, node.moduleSpecifier, 're-export');
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node, node.moduleReference.expression, 'import-equals');
    } else if (ts.isImportTypeNode(node)) {
      const literal = ts.isLiteralTypeNode(node.argument) ? node.argument.literal : undefined;
      add(node, literal, 'type');
    } else if (ts.isCallExpression(node)) {
      if (node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node, node.arguments[0], 'dynamic');
      else if (ts.isIdentifier(node.expression) && node.expression.text === 'require') add(node, node.arguments[0], 'require');
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return sites;
}

/** A layer order: names lowest first; a name ending in `/*` stands for every folder under that path. */
export type Layers = readonly (readonly string[])[];

export interface Architecture {
  /** The modules of `src/`: a folder (`catalog`) or a root file (`config`), lowest layer first. */
  modules: Layers;
  /**
   * The order inside a module, by the module's name: its parts are its folders and root files
   * (`core`, `registry`), or the folders under one (`sources/*`). Parts of one layer of a module
   * do not import each other, in either direction: they are siblings that know nothing of one another.
   */
  inside: Readonly<Record<string, Layers>>;
  /** Imports allowed to run upward, `from -> to` by module or part. */
  allowedUpward: ReadonlySet<string>;
  /**
   * Registries (`src/datasets/registry.ts`) and the files that alone may import each: the
   * composition roots, which build the lists and hand them down.
   */
  registries: readonly { file: string; importers: readonly RegExp[] }[];
}

export interface Findings {
  /** Modules or parts placed in no layer. */
  unplaced: string[];
  /** `file:line -> target` for each import to a higher layer (kind in brackets). */
  upward: string[];
  /** `file:line -> target` for each import between two parts of one layer inside a module. */
  sideways: string[];
  /** Imports whose target is no string literal: the checker cannot follow them, so none is allowed. */
  unreadable: string[];
  /** Files importing a registry that are not its composition roots. */
  registryImporters: string[];
  /** Import circles between files, each named by the files on it. */
  circles: string[];
  /** The graph: file -> files of `src/` it imports. */
  graph: Map<string, string[]>;
}

/** The module of a file of `src/`: its first folder, or the root file's name. */
export function moduleOf(file: string): string {
  const [, first = '', second] = file.split('/');
  return second === undefined ? first.replace(/\.ts$/, '') : first;
}

/**
 * The part of a module a file is in, by the module's inner layers: its first folder (`core`), its
 * name for a root file (`registry`), or two folders where the layers name the first with `/*`
 * (`sources/sec`); undefined when the module has no inner order.
 */
export function partOf(file: string, inside: Architecture['inside']): string | undefined {
  const layers = inside[moduleOf(file)];
  if (layers === undefined) return undefined;
  const [first = '', second, third] = file.split('/').slice(2);
  if (second === undefined) return first.replace(/\.ts$/, '');
  return third !== undefined && layers.flat().includes(`${first}/*`) ? `${first}/${second}` : first;
}

function rankOf(layers: Layers, name: string): number | undefined {
  for (const [rank, names] of layers.entries()) {
    if (names.includes(name)) return rank;
    if (names.some((n) => n.endsWith('/*') && name.startsWith(n.slice(0, -1)) && !name.slice(n.length - 1).includes('/')))
      return rank;
  }
  return undefined;
}

/** Checks `files` (path from the repository root -> text; non-test `.ts` files of `src/`) against `arch`. */
export function checkImports(files: ReadonlyMap<string, string>, arch: Architecture): Findings {
  const findings: Findings = {
    unplaced: [],
    upward: [],
    sideways: [],
    unreadable: [],
    registryImporters: [],
    circles: [],
    graph: new Map(),
  };
  const resolve = (from: string, specifier: string) => normalize(join(dirname(from), specifier.replace(/\.js$/, '.ts')));
  const unplaced = new Set<string>();
  for (const [file, text] of files) {
    const targets: string[] = [];
    const from = moduleOf(file);
    if (rankOf(arch.modules, from) === undefined) unplaced.add(from);
    const fromPart = partOf(file, arch.inside);
    const innerLayers = arch.inside[from];
    if (fromPart !== undefined && innerLayers !== undefined && rankOf(innerLayers, fromPart) === undefined) {
      unplaced.add(`${from}/${fromPart}`);
    }
    for (const site of importSites(file, text)) {
      const where = `${file}:${site.line}`;
      if (site.specifier === undefined) {
        findings.unreadable.push(`${where} (${site.kind})`);
        continue;
      }
      if (!site.specifier.startsWith('.')) continue;
      const target = resolve(file, site.specifier);
      if (!target.startsWith('src/')) continue;
      targets.push(target);
      const to = moduleOf(target);
      const edge = `${where} -> ${target} (${site.kind})`;
      if (from !== to) {
        const up = (rankOf(arch.modules, to) ?? 0) > (rankOf(arch.modules, from) ?? 0);
        if (up && !arch.allowedUpward.has(`${from} -> ${to}`)) findings.upward.push(edge);
        continue;
      }
      const toPart = partOf(target, arch.inside);
      if (innerLayers === undefined || fromPart === undefined || toPart === undefined || fromPart === toPart) continue;
      const fromRank = rankOf(innerLayers, fromPart) ?? 0;
      const toRank = rankOf(innerLayers, toPart) ?? 0;
      const pair = `${from}/${fromPart} -> ${from}/${toPart}`;
      if (arch.allowedUpward.has(pair)) continue;
      if (toRank > fromRank) findings.upward.push(edge);
      else if (toRank === fromRank) findings.sideways.push(edge);
    }
    findings.graph.set(file, [...new Set(targets)]);
  }
  findings.unplaced = [...unplaced].sort();
  for (const registry of arch.registries) {
    for (const [file, targets] of findings.graph) {
      if (targets.includes(registry.file) && !registry.importers.some((r) => r.test(file))) {
        findings.registryImporters.push(`${file} -> ${registry.file}`);
      }
    }
  }
  // Depth-first search for a back edge; a circle is named by the files on it.
  const state = new Map<string, 'open' | 'done'>();
  const visit = (file: string, path: string[]): void => {
    state.set(file, 'open');
    for (const next of findings.graph.get(file) ?? []) {
      if (!findings.graph.has(next)) continue;
      if (state.get(next) === 'open') findings.circles.push([...path.slice(path.indexOf(next)), next].join(' -> '));
      else if (state.get(next) === undefined) visit(next, [...path, next]);
    }
    state.set(file, 'done');
  };
  for (const file of findings.graph.keys()) if (state.get(file) === undefined) visit(file, [file]);
  return findings;
}

/**
 * The drawing of the graph by module (and by part inside a module with an inner order), as Mermaid:
 * one arrow per pair that imports, pointing down the layers; `within` draws one module's parts alone.
 */
export function drawing(findings: Findings, arch: Architecture, within?: string): string {
  const node = (file: string) => {
    const module = moduleOf(file);
    const part = partOf(file, arch.inside);
    return part === undefined ? module : `${module}/${part}`;
  };
  const edges = new Set<string>();
  for (const [file, targets] of findings.graph) {
    for (const target of targets) {
      const a = node(file);
      const b = node(target);
      const inside = within === undefined || (moduleOf(file) === within && moduleOf(target) === within);
      if (a !== b && inside) edges.add(`  ${a.replace(/[/*-]/g, '_')}["${a}"] --> ${b.replace(/[/*-]/g, '_')}["${b}"]`);
    }
  }
  return ['flowchart TD', ...[...edges].sort()].join('\n');
}
