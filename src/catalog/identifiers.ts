/** Shapes of the identifiers the API accepts, as the spec words them. */
export const ISIN_PATTERN = '^[A-Z]{2}[A-Z0-9]{9}[0-9]$';
export const LEI_PATTERN = '^[A-Z0-9]{18}[0-9]{2}$';
/** A UUID in either case, unanchored, to compose patterns from (a trace id is one or two). */
export const UUID_TEXT = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
export const TICKER_MAX_LENGTH = 15;

const ISIN_RE = new RegExp(ISIN_PATTERN);
const LEI_RE = new RegExp(LEI_PATTERN);

/** Letters count as two digits (A = 10 … Z = 35), as ISO 6166 and ISO 17442 both expand them. */
function expandLetters(code: string): string {
  let digits = '';
  for (const ch of code) {
    const c = ch.charCodeAt(0);
    digits += c >= 65 && c <= 90 ? String(c - 55) : ch;
  }
  return digits;
}

/** The ISO 6166 (Luhn) check digit of an ISIN's first 11 characters. */
export function isinCheckDigit(payload: string): number {
  const digits = expandLetters(payload);
  let sum = 0;
  // Luhn from the right, doubling every second digit starting with the rightmost of the payload.
  for (let i = digits.length - 1, double = true; i >= 0; i--, double = !double) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

/** True when `isin` has the spec's shape and a correct ISO 6166 (Luhn) check digit. */
export function isValidIsin(isin: string): boolean {
  return ISIN_RE.test(isin) && isinCheckDigit(isin.slice(0, 11)) === isin.charCodeAt(11) - 48;
}

/** Remainder of the number the characters stand for, divided by 97 (ISO 7064 MOD 97-10). */
function mod97(code: string): number {
  let rest = 0;
  for (const ch of expandLetters(code)) rest = (rest * 10 + (ch.charCodeAt(0) - 48)) % 97;
  return rest;
}

/** The two ISO 7064 MOD 97-10 check digits of an LEI's first 18 characters. */
export function leiCheckDigits(payload: string): string {
  return String(98 - mod97(`${payload}00`)).padStart(2, '0');
}

/** True when `lei` has the spec's shape and correct ISO 7064 MOD 97-10 check digits. */
export function isValidLei(lei: string): boolean {
  return LEI_RE.test(lei) && mod97(lei) === 1;
}
