import { readFile } from 'node:fs/promises';
import { CHECKS, type CheckName, type Finding } from './findings.js';

/** An accept file that cannot be used: the message names the file and what is wrong; nothing is checked. */
export class AcceptFileError extends Error {}

/**
 * A finding's identity: its check, company, period and document. The reason is left out: it quotes
 * figures, and a figure of a neighbouring year restated does not make a reviewed finding new.
 */
export function findingKey(f: Pick<Finding, 'check' | 'company_id' | 'period' | 'document_id'>): string {
  return JSON.stringify([f.check, f.company_id, f.period, f.document_id]);
}

const isCheck = (value: unknown): value is CheckName =>
  typeof value === 'string' && (CHECKS as readonly string[]).includes(value);

function keyOf(item: unknown, where: string): string {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) {
    throw new AcceptFileError(`${where} is not a finding object`);
  }
  const f = item as Record<string, unknown>;
  if (!isCheck(f.check)) throw new AcceptFileError(`${where}: check must be one of ${CHECKS.join(', ')}`);
  if (typeof f.company_id !== 'string' || f.company_id === '') throw new AcceptFileError(`${where}: company_id must be a string`);
  if (f.period !== null && !Number.isSafeInteger(f.period)) throw new AcceptFileError(`${where}: period must be a year or null`);
  if (f.document_id !== null && typeof f.document_id !== 'string') {
    throw new AcceptFileError(`${where}: document_id must be a string or null`);
  }
  return findingKey({ check: f.check, company_id: f.company_id, period: f.period as number | null, document_id: f.document_id });
}

/**
 * The findings an accept file accepts, by {@link findingKey}. The format is `check-data`'s own
 * report (design §18.5): a JSON object whose `items` (and `accepted_items`, when it was written with
 * `--accept`) list findings; of each only `check`, `company_id`, `period` and `document_id` are
 * read. So `check-data > FILE` writes an accept file of every current finding, and an operator
 * removes from `items` those not yet reviewed.
 */
export function parseAcceptFile(text: string, file: string): Set<string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new AcceptFileError(`${file} is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new AcceptFileError(`${file} must be a JSON object with "items", as check-data prints`);
  }
  const report = parsed as Record<string, unknown>;
  if (!Array.isArray(report.items))
    throw new AcceptFileError(`${file}: "items" must be a list of findings, as check-data prints`);
  if (report.accepted_items !== undefined && !Array.isArray(report.accepted_items)) {
    throw new AcceptFileError(`${file}: "accepted_items" must be a list of findings`);
  }
  const accepted = new Set<string>();
  for (const [list, items] of [
    ['items', report.items],
    ['accepted_items', report.accepted_items ?? []],
  ] as const) {
    (items as unknown[]).forEach((item, i) => {
      accepted.add(keyOf(item, `${file}: ${list}[${i}]`));
    });
  }
  return accepted;
}

/** Reads an accept file ({@link parseAcceptFile}); a file that cannot be read is an {@link AcceptFileError}. */
export async function readAcceptFile(file: string): Promise<Set<string>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new AcceptFileError(`cannot read ${file}${code === undefined ? '' : ` (${code})`}`);
  }
  return parseAcceptFile(text, file);
}

/** Splits findings into those an operator has not reviewed yet and those the accept file accepts, each in order. */
export function splitAccepted(
  findings: readonly Finding[],
  accepted: ReadonlySet<string>,
): { fresh: Finding[]; accepted: Finding[] } {
  const fresh: Finding[] = [];
  const known: Finding[] = [];
  for (const f of findings) (accepted.has(findingKey(f)) ? known : fresh).push(f);
  return { fresh, accepted: known };
}
