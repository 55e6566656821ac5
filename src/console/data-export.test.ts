import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvCell } from './data-export.js';
import { yearsOf } from './explorer-routes.js';

/** An RFC 4180 reader of one line of cells: the reference the writer is checked against. */
function readCsvLine(line: string): string[] {
  const cells: string[] = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      let cell = '';
      i += 1;
      while (i < line.length) {
        if (line[i] === '"' && line[i + 1] === '"') {
          cell += '"';
          i += 2;
        } else if (line[i] === '"') {
          i += 1;
          break;
        } else cell += line[i++];
      }
      cells.push(cell);
      i += 1;
    } else {
      const end = line.indexOf(',', i);
      cells.push(line.slice(i, end < 0 ? line.length : end));
      i = end < 0 ? line.length + 1 : end + 1;
    }
  }
  return cells;
}

describe('CSV cells of the downloads', () => {
  it('read back as written, never starting as a spreadsheet formula', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme-composite' }), { minLength: 1, maxLength: 5 }), (texts) => {
        const line = texts.map(csvCell).join(',');
        const back = readCsvLine(line);
        expect(back).toHaveLength(texts.length);
        back.forEach((cell, i) => {
          const text = texts[i] ?? '';
          expect(cell).toBe(/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);
          expect(cell).not.toMatch(/^[=+\-@\t\r]/);
        });
      }),
    );
  });

  it('write numbers as they are, negative ones included, and null as empty', () => {
    fc.assert(
      fc.property(fc.integer(), (n) => {
        expect(csvCell(n)).toBe(String(n));
      }),
    );
    expect(csvCell(null)).toBe('');
  });
});

describe('the periods a buy names', () => {
  it('are four-digit years, given repeated or comma-separated', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1000, max: 9999 }), { maxLength: 100 }), (years) => {
        expect(yearsOf(years.map(String))).toEqual(years);
        expect(yearsOf(years.join(','))).toEqual(years.length === 0 ? [] : years);
      }),
    );
  });

  it('refuse anything else whole', () => {
    for (const bad of ['24', '2024;1', '-2024', '20245', ['2024', 'x'], [2024], Array(101).fill('2024')]) {
      expect(yearsOf(bad)).toBeUndefined();
    }
  });
});
