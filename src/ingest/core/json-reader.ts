import { formatBytes } from './byte-limit.js';
import { ImportError } from './issues.js';

/**
 * The largest single value {@link JsonReader.value} materializes (a fact, a name, a ticker row):
 * far above any real one, and small enough that no value can take much memory.
 */
export const MAX_JSON_VALUE_BYTES = 1024 * 1024;

/** How deep arrays and objects may nest: real inputs nest a handful of levels. */
const MAX_DEPTH = 512;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
const isDigit = (c: number) => c >= ZERO && c <= NINE;
const isHex = (c: number) => isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);

/** The scanner's states: where in the grammar the next byte is. */
enum S {
  Value,
  KeyOrClose,
  Key,
  Colon,
  ValueOrClose,
  After,
  String,
  Escape,
  Hex,
  Literal,
  Minus,
  Zero,
  Int,
  Dot,
  Frac,
  Exp,
  ExpSign,
  ExpDigits,
}

const ESCAPES = new Set([...'"\\/bfnrt'].map((c) => c.charCodeAt(0)));
const LITERALS: Record<number, Buffer> = {
  116: Buffer.from('true'),
  102: Buffer.from('false'),
  110: Buffer.from('null'),
};

/** The bytes of one value as it is read, without the whitespace between its tokens. */
class Capture {
  readonly parts: Buffer[] = [];
  size = 0;
  constructor(
    readonly max: number,
    readonly start: number,
  ) {}
}

/**
 * A JSON document read from a stream of chunks, a value at a time, never whole: the caller walks
 * the objects and arrays it cares for ({@link entries}, {@link items}), materializes the small
 * values it keeps ({@link value}) and skips the rest ({@link skip}) without holding them. Memory
 * is therefore what the caller keeps, whatever the document's size or its whitespace.
 *
 * Everything read, skipped or not, is checked against the JSON grammar (RFC 8259), so a document
 * is accepted exactly when `JSON.parse` would accept it, but for nesting deeper than 512 levels. A fault is an {@link ImportError} naming
 * the source and the byte offset, never the bytes themselves: the input may be anything.
 */
export class JsonReader {
  readonly #chunks: AsyncIterator<Buffer>;
  #buf: Buffer = Buffer.alloc(0);
  #pos = 0;
  /** Offset in the input of `#buf[0]`. */
  #offset = 0;
  #ended = false;

  constructor(
    chunks: AsyncIterable<Buffer>,
    readonly source: string,
  ) {
    this.#chunks = chunks[Symbol.asyncIterator]();
  }

  /** Offset in the input of the next byte. */
  get position(): number {
    return this.#offset + this.#pos;
  }

  /** Reads the next chunk once the current one is used up; false at the end of the input. */
  async #more(): Promise<boolean> {
    while (!this.#ended) {
      const next = await this.#chunks.next();
      this.#offset += this.#buf.length;
      this.#buf = next.done === true ? Buffer.alloc(0) : next.value;
      this.#pos = 0;
      if (next.done === true) this.#ended = true;
      else if (this.#buf.length > 0) return true;
    }
    return false;
  }

  #fail(message: string, at = this.position): never {
    throw new ImportError([{ file: this.source, line: 0, message: `is not valid JSON (${message} at byte ${at})` }]);
  }

  /** The next byte that is not whitespace, not consumed; -1 at the end of the input. */
  async peek(): Promise<number> {
    for (;;) {
      const buf = this.#buf;
      let i = this.#pos;
      while (i < buf.length && isSpace(buf[i] as number)) i++;
      this.#pos = i;
      if (i < buf.length) return buf[i] as number;
      if (!(await this.#more())) return -1;
    }
  }

  async #expect(byte: number, what: string): Promise<void> {
    const c = await this.peek();
    if (c !== byte) this.#fail(c === -1 ? `it ends where ${what} is expected` : `${what} expected`);
    this.#pos++;
  }

  /**
   * Reads `{` and yields each key, leaving the reader at its value: the caller reads or skips
   * that value before asking for the next key. Ends after the closing `}`.
   */
  async *entries(): AsyncGenerator<string> {
    await this.#expect(OPEN_OBJECT, 'an object');
    if ((await this.peek()) === CLOSE_OBJECT) {
      this.#pos++;
      return;
    }
    for (;;) {
      if ((await this.peek()) !== QUOTE) this.#fail('a key expected');
      const key = (await this.value()) as string;
      await this.#expect(COLON, 'a colon');
      yield key;
      const c = await this.peek();
      this.#pos++;
      if (c === CLOSE_OBJECT) return;
      if (c !== COMMA) this.#fail(c === -1 ? 'it ends inside an object' : 'a comma or } expected', this.position - 1);
    }
  }

  /** Reads `[` and yields the index of each item, leaving the reader at it (as {@link entries}). */
  async *items(): AsyncGenerator<number> {
    await this.#expect(OPEN_ARRAY, 'an array');
    if ((await this.peek()) === CLOSE_ARRAY) {
      this.#pos++;
      return;
    }
    for (let index = 0; ; index++) {
      yield index;
      const c = await this.peek();
      this.#pos++;
      if (c === CLOSE_ARRAY) return;
      if (c !== COMMA) this.#fail(c === -1 ? 'it ends inside an array' : 'a comma or ] expected', this.position - 1);
    }
  }

  /**
   * Reads an array, handing each of its values, parsed, to `take` with its index: what
   * {@link items} and a {@link value} for each give, and refuses the same, but without a pause
   * (an awaited promise a value, and another an item) for the values and separators that lie
   * whole in the chunk at hand (a filing's facts: most of a large filer's reading).
   */
  async eachValue(take: (value: unknown, index: number) => void, maxBytes = MAX_JSON_VALUE_BYTES): Promise<void> {
    await this.#expect(OPEN_ARRAY, 'an array');
    if ((await this.peek()) === CLOSE_ARRAY) {
      this.#pos++;
      return;
    }
    for (let index = 0; ; index++) {
      const fast = this.#shortString() ?? this.#flatObject(maxBytes);
      take(fast !== undefined ? fast : await this.value(maxBytes), index);
      const buf = this.#buf;
      let i = this.#pos;
      while (i < buf.length && isSpace(buf[i] as number)) i++;
      this.#pos = i;
      const c = i < buf.length ? (buf[i] as number) : await this.peek();
      this.#pos++;
      if (c === CLOSE_ARRAY) return;
      if (c !== COMMA) this.#fail(c === -1 ? 'it ends inside an array' : 'a comma or ] expected', this.position - 1);
    }
  }

  /** Reads past the next value, checking it, holding none of it. */
  async skip(): Promise<void> {
    await this.#scan(undefined);
  }

  /** The next value, parsed; one of more than `maxBytes` (whitespace aside) is refused. */
  async value(maxBytes = MAX_JSON_VALUE_BYTES): Promise<unknown> {
    const start = this.position;
    const fast = this.#shortString() ?? this.#flatObject(maxBytes);
    if (fast !== undefined) return fast;
    const capture = new Capture(maxBytes, start);
    await this.#scan(capture);
    // The scan checked the grammar, so this parse does not fail; its message would quote the input.
    // Most values lie within one chunk: their one copy is decoded as it is, not copied again.
    const [only] = capture.parts;
    const bytes = capture.parts.length === 1 && only !== undefined ? only : Buffer.concat(capture.parts, capture.size);
    return JSON.parse(bytes.toString('utf8'));
  }

  /** Stops reading: the input is let go (a file closed, a zip entry's stream destroyed). */
  async close(): Promise<void> {
    await this.#chunks.return?.();
  }

  /** Checks that nothing but whitespace follows the document. */
  async end(): Promise<void> {
    if ((await this.peek()) !== -1) this.#fail('more after the end of the document');
  }

  /**
   * A string within the current chunk, without escapes: most keys. Read straight from the chunk,
   * it spares the scan and the parse; anything else is left to them (undefined).
   */
  #shortString(): string | undefined {
    const buf = this.#buf;
    let i = this.#pos;
    while (i < buf.length && isSpace(buf[i] as number)) i++;
    if (buf[i] !== QUOTE) return undefined;
    const from = i + 1;
    let j = from;
    for (; j < buf.length; j++) {
      const c = buf[j] as number;
      if (c === QUOTE) break;
      if (c === BACKSLASH || c < 0x20 || j - from > 256) return undefined;
    }
    if (j >= buf.length) return undefined;
    this.#pos = j + 1;
    return buf.toString('utf8', from, j);
  }

  /**
   * An object within the current chunk holding no object, array or escape (a filing's fact): parsed
   * straight from the chunk, sparing the scan and its copies. Anything else (a nested value, an
   * escape, an object running into the next chunk, any fault) is left to the scan and the parse
   * (undefined), which check it and name a fault.
   */
  #flatObject(maxBytes: number): Record<string, unknown> | undefined {
    const buf = this.#buf;
    const n = Math.min(buf.length, this.#pos + maxBytes);
    let i = this.#pos;
    while (i < n && isSpace(buf[i] as number)) i++;
    if (buf[i] !== OPEN_OBJECT) return undefined;
    const from = i;
    let inString = false;
    for (i++; i < n; i++) {
      const c = buf[i] as number;
      if (c === QUOTE) inString = !inString;
      else if (c === BACKSLASH || c === OPEN_OBJECT || c === OPEN_ARRAY || c === CLOSE_ARRAY) return undefined;
      else if (c === CLOSE_OBJECT && !inString) break;
    }
    if (i >= n) return undefined;
    let object: unknown;
    try {
      object = JSON.parse(buf.toString('utf8', from, i + 1));
    } catch {
      return undefined;
    }
    this.#pos = i + 1;
    return object as Record<string, unknown>;
  }

  #keep(capture: Capture | undefined, from: number, to: number): void {
    if (capture === undefined || to <= from) return;
    capture.size += to - from;
    if (capture.size > capture.max) {
      throw new ImportError([
        {
          file: this.source,
          line: 0,
          message: `holds a value larger than ${formatBytes(capture.max)} at byte ${capture.start}`,
        },
      ]);
    }
    // A copy: a slice would keep the whole chunk alive.
    capture.parts.push(Buffer.from(this.#buf.subarray(from, to)));
  }

  /**
   * Reads one whole value byte by byte, resuming across chunks, and checks it as `JSON.parse`
   * would; `capture` keeps its bytes but the whitespace between tokens.
   */
  async #scan(capture: Capture | undefined): Promise<void> {
    const stack = new Uint8Array(MAX_DEPTH);
    let depth = 0;
    let state = S.Value;
    let keyString = false;
    let hex = 0;
    let literal: Buffer = LITERALS[0x74] as Buffer;
    let literalAt = 0;
    for (;;) {
      const buf = this.#buf;
      const n = buf.length;
      let i = this.#pos;
      let kept = i;
      let done = false;
      scan: while (i < n) {
        const c = buf[i] as number;
        switch (state) {
          case S.String: {
            let j = i;
            while (j < n) {
              const d = buf[j] as number;
              if (d === QUOTE || d === BACKSLASH || d < 0x20) break;
              j++;
            }
            i = j;
            if (j === n) break scan;
            const d = buf[j] as number;
            i++;
            if (d === BACKSLASH) state = S.Escape;
            else if (d === QUOTE) {
              if (keyString) state = S.Colon;
              else if (depth === 0) done = true;
              else state = S.After;
            } else this.#fail('a control character in a string', this.#offset + j);
            if (done) break scan;
            continue;
          }
          case S.Escape:
            if (c === 0x75) {
              state = S.Hex;
              hex = 4;
            } else if (ESCAPES.has(c)) state = S.String;
            else this.#fail('a bad escape in a string', this.#offset + i);
            i++;
            continue;
          case S.Hex:
            if (!isHex(c)) this.#fail('a bad \\u escape in a string', this.#offset + i);
            i++;
            if (--hex === 0) state = S.String;
            continue;
          case S.Literal:
            if (c !== literal[literalAt]) this.#fail('an unknown word', this.#offset + i);
            i++;
            if (++literalAt === literal.length) {
              if (depth === 0) {
                done = true;
                break scan;
              }
              state = S.After;
            }
            continue;
          case S.Minus:
            if (c === ZERO) state = S.Zero;
            else if (isDigit(c)) state = S.Int;
            else this.#fail('a bad number', this.#offset + i);
            i++;
            continue;
          case S.Dot:
            if (!isDigit(c)) this.#fail('a bad number', this.#offset + i);
            state = S.Frac;
            i++;
            continue;
          case S.Exp:
            if (c === PLUS || c === MINUS) state = S.ExpSign;
            else if (isDigit(c)) state = S.ExpDigits;
            else this.#fail('a bad number', this.#offset + i);
            i++;
            continue;
          case S.ExpSign:
            if (!isDigit(c)) this.#fail('a bad number', this.#offset + i);
            state = S.ExpDigits;
            i++;
            continue;
          case S.Zero:
          case S.Int:
          case S.Frac:
          case S.ExpDigits:
            if (state !== S.Zero && isDigit(c)) {
              i++;
              while (i < n && isDigit(buf[i] as number)) i++;
              continue;
            }
            if (c === DOT && (state === S.Zero || state === S.Int)) {
              state = S.Dot;
              i++;
              continue;
            }
            if ((c === 0x65 || c === 0x45) && state !== S.ExpDigits) {
              state = S.Exp;
              i++;
              continue;
            }
            // The number ended at the byte before this one, which belongs to what follows.
            if (depth === 0) {
              done = true;
              break scan;
            }
            state = S.After;
            continue;
          default:
            break;
        }
        // Between tokens.
        if (isSpace(c)) {
          this.#keep(capture, kept, i);
          i++;
          while (i < n && isSpace(buf[i] as number)) i++;
          kept = i;
          continue;
        }
        switch (state) {
          case S.Value:
          case S.ValueOrClose:
            if (c === CLOSE_ARRAY && state === S.ValueOrClose) {
              depth--;
              state = S.After;
            } else if (c === QUOTE) {
              keyString = false;
              state = S.String;
            } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
              if (depth === MAX_DEPTH) this.#fail(`nesting deeper than ${MAX_DEPTH} levels`, this.#offset + i);
              stack[depth++] = c;
              state = c === OPEN_OBJECT ? S.KeyOrClose : S.ValueOrClose;
            } else if (c === MINUS) state = S.Minus;
            else if (c === ZERO) state = S.Zero;
            else if (isDigit(c)) state = S.Int;
            else if (LITERALS[c] !== undefined) {
              literal = LITERALS[c] as Buffer;
              literalAt = 1;
              state = S.Literal;
            } else this.#fail('a value expected', this.#offset + i);
            break;
          case S.KeyOrClose:
          case S.Key:
            if (c === CLOSE_OBJECT && state === S.KeyOrClose) {
              depth--;
              state = S.After;
            } else if (c === QUOTE) {
              keyString = true;
              state = S.String;
            } else this.#fail('a key expected', this.#offset + i);
            break;
          case S.Colon:
            if (c !== COLON) this.#fail('a colon expected', this.#offset + i);
            state = S.Value;
            break;
          case S.After: {
            const open = stack[depth - 1];
            if (c === COMMA) state = open === OPEN_OBJECT ? S.Key : S.Value;
            else if ((c === CLOSE_OBJECT && open === OPEN_OBJECT) || (c === CLOSE_ARRAY && open === OPEN_ARRAY)) depth--;
            else this.#fail('a comma or a closing bracket expected', this.#offset + i);
            break;
          }
        }
        i++;
        // A container just closed: at the outermost level the value is complete.
        if (depth === 0 && state === S.After) {
          done = true;
          break;
        }
      }
      this.#keep(capture, kept, i);
      this.#pos = i;
      if (done) return;
      if (!(await this.#more())) {
        // At the end of the input only a number can be complete without a byte after it.
        const number = state === S.Zero || state === S.Int || state === S.Frac || state === S.ExpDigits;
        if (number && depth === 0) return;
        this.#fail('it ends inside a value');
      }
    }
  }
}
