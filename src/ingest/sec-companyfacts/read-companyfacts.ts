import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { ImportError } from '../core/issues.js';
import type { FiledFact } from '../sec-filings/filed-figures.js';
import type { Filer } from '../sec-filings/ingest-filings.js';
import { conceptRank, isAccession, isIsoDate, normalizeCik } from '../sec-filings/rules.js';
import { readAll, zipEntries } from '../sec-filings/zip-entries.js';

const FILE_RE = /^CIK[0-9]{10}\.json$/i;

/**
 * The filers of SEC companyfacts input, one file at a time: `CIK##########.json` files, folders
 * of them, and SEC's bulk companyfacts.zip read entry by entry. Only one filer's facts are held
 * at once. A file that is not valid companyfacts JSON stops the read with an
 * {@link ImportError} naming it (and the fact, where one is at fault).
 */
export async function* readCompanyFacts(paths: readonly string[]): AsyncGenerator<Filer> {
  for (const path of paths) {
    let stat: ReturnType<typeof statSync>;
    try {
      stat = statSync(path);
    } catch {
      throw new ImportError([{ file: path, line: 0, message: 'does not exist' }]);
    }
    if (stat.isDirectory()) {
      const files = readdirSync(path)
        .filter((f) => FILE_RE.test(f))
        .sort();
      if (files.length === 0) throw new ImportError([{ file: path, line: 0, message: 'holds no CIK##########.json file' }]);
      for (const f of files) yield parseCompanyFacts(readFileSync(join(path, f)), join(path, f));
    } else if (path.toLowerCase().endsWith('.zip')) {
      yield* readZip(path);
    } else {
      yield parseCompanyFacts(readFileSync(path), path);
    }
  }
}

async function* readZip(path: string): AsyncGenerator<Filer> {
  let entries = 0;
  try {
    for await (const entry of zipEntries(path)) {
      if (!FILE_RE.test(basename(entry.name))) continue;
      const source = `${path}:${entry.name}`;
      let bytes: Buffer;
      try {
        bytes = await readAll(await entry.open());
      } catch (error) {
        throw new ImportError([{ file: source, line: 0, message: `cannot be read from the zip: ${(error as Error).message}` }]);
      }
      entries++;
      yield parseCompanyFacts(bytes, source);
    }
  } catch (error) {
    if (error instanceof ImportError) throw error;
    throw new ImportError([{ file: path, line: 0, message: `is not a readable zip: ${(error as Error).message}` }]);
  }
  if (entries === 0) throw new ImportError([{ file: path, line: 0, message: 'holds no CIK##########.json entry' }]);
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * One companyfacts document: `{cik, entityName, facts: {taxonomy: {Concept: {units: {unit: [fact…]}}}}}`,
 * compact as SEC serves it or re-indented, `cik` a number or a padded string. Only revenue
 * concepts are kept; each of their facts must be whole and well formed.
 */
export function parseCompanyFacts(bytes: Buffer, source: string): Filer {
  const refuse = (message: string): never => {
    throw new ImportError([{ file: source, line: 0, message }]);
  };
  let doc: unknown;
  try {
    doc = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    return refuse(`is not valid JSON (${(error as Error).message})`);
  }
  if (!isObject(doc)) return refuse('is not a companyfacts object');
  const cik = normalizeCik(doc.cik);
  if (cik === undefined) return refuse('has no valid cik');
  const name = typeof doc.entityName === 'string' && doc.entityName.trim() !== '' ? doc.entityName.trim() : `CIK ${cik}`;
  if (!isObject(doc.facts)) return refuse('has no facts object');
  const facts: FiledFact[] = [];
  for (const [taxonomy, concepts] of Object.entries(doc.facts)) {
    if (!isObject(concepts)) return refuse(`facts.${taxonomy} is not an object`);
    for (const [local, body] of Object.entries(concepts)) {
      const concept = `${taxonomy}:${local}`;
      if (conceptRank(concept) === undefined) continue;
      if (!isObject(body) || !isObject(body.units)) return refuse(`${concept} has no units`);
      for (const [unit, list] of Object.entries(body.units)) {
        if (!Array.isArray(list)) return refuse(`${concept} ${unit} is not a list of facts`);
        for (const [i, item] of (list as unknown[]).entries()) {
          const at = `${concept} ${unit} fact ${i + 1}`;
          if (!isObject(item)) return refuse(`${at} is not an object`);
          const { start, end, val, accn, form, filed } = item;
          if (typeof end !== 'string' || !isIsoDate(end)) return refuse(`${at}: end "${String(end)}" is not a date`);
          if (start !== undefined && (typeof start !== 'string' || !isIsoDate(start))) {
            return refuse(`${at}: start "${String(start)}" is not a date`);
          }
          if (typeof accn !== 'string' || !isAccession(accn))
            return refuse(`${at}: accn "${String(accn)}" is not an accession number`);
          if (typeof form !== 'string' || form === '') return refuse(`${at}: form is missing`);
          if (typeof filed !== 'string' || !isIsoDate(filed)) return refuse(`${at}: filed "${String(filed)}" is not a date`);
          if (typeof val !== 'number' || !Number.isSafeInteger(val)) {
            return refuse(`${at} (accession ${accn}): value ${String(val)} is not a whole number`);
          }
          // An instant (no start) is never a year's revenue; it is left out as not annual.
          facts.push({ concept, start: start ?? end, end, value: val, unit, accession: accn, form, filed });
        }
      }
    }
  }
  return { cik, name, facts, source };
}
