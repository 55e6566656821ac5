import { formatBytes } from '../../core/byte-limit.js';
import { ImportError } from '../../core/issues.js';

/** What an xBRL-JSON report is made of, handed over as the bytes stream in. */
export interface ReportParts {
  /** A member of the top-level object other than `facts` (documentInfo, …), parsed. */
  member(key: string, value: unknown): void;
  /** Called once `facts` is met: true when it is an object whose facts follow. */
  factsStart(isObject: boolean): void;
  /** One fact of `facts`, parsed on its own. */
  fact(id: string, value: unknown): void;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const MAX_DEPTH = 512;
const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** How many backslashes end `buf[from, to)`. */
function trailingBackslashes(buf: Buffer, to: number, from: number): number {
  let k = 0;
  while (to - k - 1 >= from && buf[to - k - 1] === BACKSLASH) k++;
  return k;
}

/** Where the scanner is in the report's two outer levels: the report object and its facts. */
enum At {
  Start,
  KeyOrClose,
  Key,
  Colon,
  Value,
  After,
  FactKeyOrClose,
  FactKey,
  FactColon,
  Fact,
  FactAfter,
  End,
}

/**
 * Splits an xBRL-JSON report into its top-level members and its facts, one fact at a time, as
 * chunks arrive. Only the two outer levels are walked here, byte by byte but synchronously and
 * without copying; each fact's bytes are handed to `JSON.parse` whole, which checks them against
 * the JSON grammar and builds them in native code. A report of many small facts thus reads several
 * times faster than through a general streaming reader that yields to the event loop for every
 * token, and memory holds one fact (at most `maxValueBytes`) whatever the report's size.
 *
 * A fault is an {@link ImportError} naming the source, the fact where there is one, and the byte
 * offset — never the bytes themselves (JSON.parse's messages quote the input, so they are not shown).
 */
export class FactScanner {
  #at = At.Start;
  /** Offset in the input of the current chunk's first byte. */
  #offset = 0;
  #key = '';
  // The value (key, fact or member) being scanned: its bytes so far and where its scan stands.
  #parts: Buffer[] = [];
  #size = 0;
  #valueStart = -1;
  #depth = 0;
  #inString = false;
  #escape = false;
  #scalar = false;
  #scanning = false;

  constructor(
    readonly source: string,
    readonly parts: ReportParts,
    readonly maxValueBytes: number,
  ) {}

  #fail(message: string, at: number): never {
    // Within a fact's value the fact is named; between facts, the one before.
    const within = this.#at === At.Fact || this.#at === At.FactColon;
    const between = this.#at === At.FactKey || this.#at === At.FactAfter;
    const where = this.#key === '' ? '' : within ? ` in fact ${this.#key}` : between ? ` after fact ${this.#key}` : '';
    throw new ImportError([{ file: this.source, line: 0, message: `is not valid JSON (${message}${where} at byte ${at})` }]);
  }

  /** Reads one chunk; call {@link end} after the last. */
  push(buf: Buffer): void {
    const n = buf.length;
    let i = 0;
    while (i < n) {
      if (this.#scanning) {
        i = this.#scan(buf, i);
        continue;
      }
      const c = buf[i] as number;
      if (isSpace(c)) {
        i++;
        continue;
      }
      const at = this.#offset + i;
      switch (this.#at) {
        case At.Start:
          if (c !== OPEN_OBJECT) this.#fail('an object expected', at);
          this.#at = At.KeyOrClose;
          i++;
          break;
        case At.KeyOrClose:
        case At.Key:
        case At.FactKeyOrClose:
        case At.FactKey:
          if (c === CLOSE_OBJECT && (this.#at === At.KeyOrClose || this.#at === At.FactKeyOrClose)) {
            this.#at = this.#at === At.KeyOrClose ? At.End : At.After;
            i++;
          } else if (c === QUOTE) i = this.#begin(buf, i);
          else this.#fail('a key expected', at);
          break;
        case At.Colon:
        case At.FactColon:
          if (c !== COLON) this.#fail('a colon expected', at);
          this.#at = this.#at === At.Colon ? At.Value : At.Fact;
          i++;
          break;
        case At.Value:
          if (this.#key === 'facts') {
            this.parts.factsStart(c === OPEN_OBJECT);
            if (c === OPEN_OBJECT) {
              this.#at = At.FactKeyOrClose;
              this.#key = '';
              i++;
              break;
            }
          }
          i = this.#begin(buf, i);
          break;
        case At.Fact:
          i = this.#begin(buf, i);
          break;
        case At.After:
        case At.FactAfter:
          if (c === COMMA) this.#at = this.#at === At.After ? At.Key : At.FactKey;
          else if (c === CLOSE_OBJECT) this.#at = this.#at === At.After ? At.End : At.After;
          else this.#fail('a comma or } expected', at);
          i++;
          break;
        case At.End:
          this.#fail('more after the end of the document', at);
      }
    }
    this.#offset += n;
  }

  /** Checks that the report ended where it should. */
  end(): void {
    if (this.#at !== At.End || this.#scanning) this.#fail('it ends inside the document', this.#offset);
  }

  /** Starts scanning a value (a key, a fact, a member) at `buf[i]`. */
  #begin(buf: Buffer, i: number): number {
    const c = buf[i] as number;
    this.#scanning = true;
    this.#valueStart = this.#offset + i;
    this.#parts = [];
    this.#size = 0;
    this.#depth = 0;
    this.#inString = false;
    this.#escape = false;
    this.#scalar = false;
    if (c === QUOTE) {
      this.#inString = true;
      return this.#scan(buf, i + 1, i);
    }
    if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      this.#depth = 1;
      return this.#scan(buf, i + 1, i);
    }
    if (c === CLOSE_ARRAY || c === CLOSE_OBJECT || c === COMMA || c === COLON) this.#fail('a value expected', this.#offset + i);
    // A number or a word: it runs to the next delimiter; JSON.parse judges it.
    this.#scalar = true;
    return this.#scan(buf, i + 1, i);
  }

  /**
   * Scans the value under way from `buf[i]` until it ends (then hands it over) or the chunk
   * does (then keeps the part read). `from` is where its bytes in this chunk begin.
   */
  #scan(buf: Buffer, i: number, from = i): number {
    const n = buf.length;
    let depth = this.#depth;
    let inString = this.#inString;
    let escaped = this.#escape;
    let end = -1;
    if (this.#scalar) {
      while (i < n) {
        const c = buf[i] as number;
        if (c === COMMA || c === CLOSE_OBJECT || c === CLOSE_ARRAY || isSpace(c)) {
          end = i;
          break;
        }
        i++;
      }
    } else {
      while (i < n) {
        if (inString) {
          // Long strings (a note's XHTML) are most of a report's bytes: jump from quote to quote.
          if (escaped) {
            escaped = false;
            i++;
            continue;
          }
          const q = buf.indexOf(QUOTE, i);
          if (q < 0) {
            escaped = trailingBackslashes(buf, n, i) % 2 === 1;
            i = n;
            break;
          }
          // A quote after an odd run of backslashes is escaped and inside the string.
          const quoted = trailingBackslashes(buf, q, i) % 2 === 1;
          i = q + 1;
          if (quoted) continue;
          inString = false;
          if (depth === 0) {
            end = i;
            break;
          }
          continue;
        }
        const c = buf[i++] as number;
        if (c === QUOTE) inString = true;
        else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
          if (++depth > MAX_DEPTH) this.#fail(`nesting deeper than ${MAX_DEPTH} levels`, this.#offset + i - 1);
        } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
          if (--depth === 0) {
            end = i;
            break;
          }
        }
      }
    }
    const stop = end < 0 ? n : end;
    this.#size += stop - from;
    if (this.#size > this.maxValueBytes) {
      throw new ImportError([
        {
          file: this.source,
          line: 0,
          message: `holds a value larger than ${formatBytes(this.maxValueBytes)} at byte ${this.#valueStart}`,
        },
      ]);
    }
    if (end < 0) {
      // A copy: the chunk's buffer may be reused once this one returns.
      if (stop > from) this.#parts.push(Buffer.from(buf.subarray(from, stop)));
      this.#depth = depth;
      this.#inString = inString;
      this.#escape = escaped;
      return n;
    }
    const text =
      this.#parts.length === 0
        ? buf.toString('utf8', from, end)
        : Buffer.concat([...this.#parts, buf.subarray(from, end)]).toString('utf8');
    this.#parts = [];
    this.#scanning = false;
    this.#done(text);
    return end;
  }

  /** A value scanned whole: parsed and handed over as what the place it stands in makes it. */
  #done(text: string): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.#fail('a malformed value', this.#valueStart);
    }
    switch (this.#at) {
      case At.KeyOrClose:
      case At.Key:
      case At.FactKeyOrClose:
      case At.FactKey:
        if (typeof value !== 'string') this.#fail('a key expected', this.#valueStart);
        this.#key = value;
        this.#at = this.#at === At.KeyOrClose || this.#at === At.Key ? At.Colon : At.FactColon;
        return;
      case At.Value:
        this.parts.member(this.#key, value);
        this.#at = At.After;
        return;
      case At.Fact:
        this.parts.fact(this.#key, value);
        this.#at = At.FactAfter;
        return;
      default:
        this.#fail('a value expected', this.#valueStart);
    }
  }
}
