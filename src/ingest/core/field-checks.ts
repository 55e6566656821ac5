/**
 * The field checks every bundle file shares (core files and datasets' own): each adds its
 * message to the row's and returns the value, so a row reports everything wrong with it at once.
 */
/** Each validator returns the typed row, or the messages of everything wrong with it. */
export type Checked<T> = { ok: true; row: T } | { ok: false; messages: string[] };

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const INTEGER_RE = /^-?(0|[1-9][0-9]*)$/;
/** Reporting periods a bundle may hold. */
export const MIN_PERIOD = 1990;
export const MAX_PERIOD = 2100;

/** The problems of one row, gathered field by field so that a row reports all of them at once. */
export class Messages {
  readonly list: string[] = [];
  add(message: string): void {
    this.list.push(message);
  }
  result<T>(row: T): Checked<T> {
    return this.list.length === 0 ? { ok: true, row } : { ok: false, messages: this.list };
  }
}

/** A lower-case UUID, as every id column holds. */
export function uuid(m: Messages, name: string, v: string): string {
  if (!UUID_RE.test(v)) m.add(`${name} "${v}" is not a lower-case UUID`);
  return v;
}

/** A plain integer in min..max (no sign but '-', no leading zero, no exponent). */
export function integer(m: Messages, name: string, v: string, min: number, max: number): number {
  if (!INTEGER_RE.test(v)) {
    m.add(`${name} "${v}" is not an integer`);
    return 0;
  }
  const n = Number(v);
  if (!Number.isSafeInteger(n)) m.add(`${name} ${v} is beyond the safe integer range (±${Number.MAX_SAFE_INTEGER})`);
  else if (n < min || n > max) m.add(`${name} ${v} is outside ${min}..${max}`);
  return n;
}

/** Non-empty text of at most `max` characters, trimmed. */
export function text(m: Messages, name: string, v: string, max: number): string {
  const t = v.trim();
  if (t === '') m.add(`${name} is empty`);
  else if (t.length > max) m.add(`${name} is longer than ${max} characters`);
  return t;
}

/** A reporting period written as a year, MIN_PERIOD to MAX_PERIOD (a dataset file's own wording). */
export function year(m: Messages, name: string, v: string): number {
  const n = Number(v);
  if (!/^[0-9]{4}$/.test(v) || n < MIN_PERIOD || n > MAX_PERIOD)
    m.add(`${name} "${v}" is not a year from ${MIN_PERIOD} to ${MAX_PERIOD}`);
  return n;
}
