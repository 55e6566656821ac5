import { readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';

/**
 * A minimal reader of the cell values of one .xlsx worksheet: a ZIP of XML parts, read with
 * node:zlib and a few regular expressions. Enough for the demo builder's source workbooks (shared
 * and inline strings, numbers as written); no styles, dates or formulas are interpreted. Runs at
 * demo build time only, never when serving.
 */
function unzip(path: string): Map<string, Buffer> {
  const zip = readFileSync(path);
  let end = zip.length - 22;
  while (end >= 0 && zip.readUInt32LE(end) !== 0x06054b50) end--;
  if (end < 0) throw new Error(`${path}: not a ZIP file`);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const parts = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`${path}: damaged central directory`);
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const skip = nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + size);
    if (method === 0) parts.set(name, data);
    else if (method === 8) parts.set(name, inflateRawSync(data));
    else throw new Error(`${path}: ${name} uses ZIP method ${method}`);
    at += 46 + skip;
  }
  return parts;
}

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);/g, (_, e: string) => {
    if (e.startsWith('#x')) return String.fromCodePoint(Number.parseInt(e.slice(2), 16));
    if (e.startsWith('#')) return String.fromCodePoint(Number(e.slice(1)));
    return ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" } as Record<string, string>)[e] ?? '';
  });
}

/** The text of every `<t>` inside a fragment (rich text has several). */
function texts(fragment: string): string {
  return [...fragment.matchAll(/<t(?:\s[^>]*)?>([\s\S]*?)<\/t>/g)].map((m) => decode(m[1] ?? '')).join('');
}

/** Column letters of a cell reference ("AB12" → "AB"). */
const columnOf = (ref: string): string => ref.replace(/[0-9]+$/, '');

/** A worksheet row: its number and its non-empty cells by column letter. */
export interface SheetRow {
  row: number;
  cells: ReadonlyMap<string, string>;
}

/** Reads the rows of the worksheet called `sheet`. */
export function readSheet(path: string, sheet: string): SheetRow[] {
  const parts = unzip(path);
  const part = (name: string) => {
    const data = parts.get(name);
    if (data === undefined) throw new Error(`${path}: no ${name}`);
    return data.toString('utf8');
  };
  const workbook = part('xl/workbook.xml');
  const sheetTag = [...workbook.matchAll(/<sheet\s[^>]*>/g)].map((m) => m[0]).find((t) => t.includes(`name="${sheet}"`));
  const rid = sheetTag === undefined ? undefined : /r:id="([^"]+)"/.exec(sheetTag)?.[1];
  if (rid === undefined) throw new Error(`${path}: no sheet "${sheet}"`);
  const relTag = [...part('xl/_rels/workbook.xml.rels').matchAll(/<Relationship\s[^>]*>/g)]
    .map((m) => m[0])
    .find((t) => t.includes(`Id="${rid}"`));
  const target = relTag === undefined ? undefined : /Target="([^"]+)"/.exec(relTag)?.[1];
  if (target === undefined) throw new Error(`${path}: sheet "${sheet}" has no part`);
  const sheetPath = target.startsWith('/') ? target.slice(1) : `xl/${target}`;
  const shared = parts.has('xl/sharedStrings.xml')
    ? [...part('xl/sharedStrings.xml').matchAll(/<si>([\s\S]*?)<\/si>/g)].map((m) => texts(m[1] ?? ''))
    : [];
  const rows: SheetRow[] = [];
  for (const r of part(sheetPath).matchAll(/<row\s([^>]*)>([\s\S]*?)<\/row>/g)) {
    const row = Number(/r="([0-9]+)"/.exec(r[1] ?? '')?.[1] ?? rows.length + 1);
    const cells = new Map<string, string>();
    for (const c of (r[2] ?? '').matchAll(/<c\s([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
      const attrs = c[1] ?? '';
      const body = c[2] ?? '';
      const ref = /r="([A-Z]+[0-9]+)"/.exec(attrs)?.[1];
      if (ref === undefined) continue;
      const type = /t="([^"]+)"/.exec(attrs)?.[1];
      const v = /<v>([\s\S]*?)<\/v>/.exec(body)?.[1];
      let value: string | undefined;
      if (type === 's') value = v === undefined ? undefined : shared[Number(v)];
      else if (type === 'inlineStr') value = texts(body);
      else value = v === undefined ? undefined : decode(v);
      if (value !== undefined && value.trim() !== '') cells.set(columnOf(ref), value.trim());
    }
    rows.push({ row, cells });
  }
  return rows;
}
