import type { GhgUnit } from '../../db/schema.js';

export const GHG_UNITS: readonly GhgUnit[] = ['t', 'kt', 'Mt'];
const DECIMAL_RE = /^(0|[1-9][0-9]*)(?:\.([0-9]+))?$/;
const SHIFT: Record<GhgUnit, number> = { t: 0, kt: 3, Mt: 6 };

/**
 * A reported figure in t, kt or Mt CO2e as whole tonnes, rounded half away from zero. Worked on
 * the decimal digits, never through a binary float, so 0.0005 kt is exactly 0.5 t and rounds to 1.
 * Throws a message fit for `file:line` on anything else.
 */
export function toTonnes(value: string, unit: string): number {
  if (!(GHG_UNITS as readonly string[]).includes(unit)) throw new Error(`unit "${unit}" is not one of t, kt, Mt`);
  const m = DECIMAL_RE.exec(value);
  if (m === null) throw new Error(`value "${value}" is not a non-negative decimal number`);
  const shift = SHIFT[unit as GhgUnit];
  const fraction = (m[2] ?? '').padEnd(shift + 1, '0');
  const whole = BigInt(`${m[1]}${fraction.slice(0, shift)}`);
  const rounded = (fraction[shift] ?? '0') >= '5' ? whole + 1n : whole;
  if (rounded > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error(`value ${value} ${unit} is beyond the safe integer range`);
  return Number(rounded);
}
