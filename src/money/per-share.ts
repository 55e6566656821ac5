/**
 * Per-share values (design §18.2: diluted EPS) travel and are stored as whole millionths of their
 * currency per share, so that every comparison and conversion stays in integers.
 */
export const PER_SHARE_SCALE = 1_000_000;

/** {@link PER_SHARE_SCALE}'s decimal places. */
export const PER_SHARE_PLACES = 6;

/** A per-share USD value is rounded to 4 decimals (design §18.2): to hundreds of millionths. */
export const PER_SHARE_USD_STEP = 100;

const PER_SHARE_UNIT_RE = /^([A-Z]{3})\/shares?$/;

/** The currency of a per-share unit (`EUR/shares` → `EUR`); undefined for any other unit. */
export function perShareCurrency(unit: string): string | undefined {
  return PER_SHARE_UNIT_RE.exec(unit)?.[1];
}

/** The per-share unit of a currency, as facts carry it. */
export const perShareUnit = (currency: string): string => `${currency}/shares`;

const DECIMAL_TEXT_RE = /^-?[0-9]+(\.[0-9]+)?$/;

/**
 * A per-share value in millionths, from its decimal text or a JSON number ("3.28", 3.28 →
 * 3,280,000), rounded half away from zero; undefined when it is no plain decimal or too large.
 */
export function perShareMillionths(value: number | string): number | undefined {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value;
  if (!DECIMAL_TEXT_RE.test(text)) return undefined;
  const negative = text.startsWith('-');
  const [whole = '', fraction = ''] = text.replace('-', '').split('.');
  const digits = BigInt(whole + fraction.padEnd(7, '0').slice(0, 7));
  // Seven places kept: the seventh rounds the sixth, half away from zero.
  const millionths = (digits + 5n) / 10n;
  const result = Number(negative ? -millionths : millionths);
  return Number.isSafeInteger(result) ? result : undefined;
}

/** A per-share value in millionths as the API's decimal number (3,280,000 → 3.28). */
export const perShareNumber = (millionths: number): number => millionths / PER_SHARE_SCALE;

/** A per-share value in millionths as plain decimal text, no more places than it has ("3.28", "-0.5"). */
export function perShareText(millionths: number): string {
  const negative = millionths < 0;
  const abs = Math.abs(millionths);
  const whole = Math.floor(abs / PER_SHARE_SCALE);
  const fraction = String(abs % PER_SHARE_SCALE)
    .padStart(PER_SHARE_PLACES, '0')
    .replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction === '' ? '' : `.${fraction}`}`;
}
