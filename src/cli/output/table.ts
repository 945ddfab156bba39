import { STYLE_CODE, visible } from './terminal-text.js';

type Cell = string | number | null | undefined;

// A cell is measured as the terminal will show it: control characters in data made visible.
const cellText = (c: Cell) => (c === null || c === undefined ? '' : visible(String(c)));

/** Columns a text takes on a terminal: the CLI's colour codes take none. */
export const visibleWidth = (s: string) => [...s.replace(STYLE_CODE, '')].length;

const padVisible = (s: string, w: number) => s + ' '.repeat(Math.max(0, w - visibleWidth(s)));

/** A cell cut to `w` columns with an ellipsis (its colour dropped: a cut code would bleed). */
function cut(s: string, w: number): string {
  if (visibleWidth(s) <= w) return s;
  const plain = [...s.replace(STYLE_CODE, '')];
  return `${plain.slice(0, Math.max(0, w - 1)).join('')}…`;
}

/**
 * A plain aligned table for a terminal: the width of each column is its widest cell, measured as
 * the terminal shows it (colour codes take no room). Given the terminal's `width`, the widest
 * columns are narrowed (cells cut with …) until a row fits, so no row wraps and breaks the columns.
 */
export function table(headers: string[], rows: Cell[][], width?: number): string {
  const cells = [headers, ...rows.map((r) => r.map(cellText))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => visibleWidth(r[i] ?? ''))));
  if (width && width > 0) {
    const total = () => widths.reduce((a, b) => a + b, 0) + 2 * (widths.length - 1);
    const floor = headers.map((h) => Math.max(visibleWidth(h), 6));
    while (total() > width) {
      let widest = -1;
      for (let i = 0; i < widths.length; i++) if (widths[i]! > floor[i]! && (widest < 0 || widths[i]! > widths[widest]!)) widest = i;
      if (widest < 0) break;
      widths[widest] = Math.max(floor[widest]!, widths[widest]! - (total() - width));
    }
  }
  return cells
    .map((r) =>
      r
        .map((c, i) => {
          const v = cut(c ?? '', widths[i]!);
          return i === r.length - 1 ? v : padVisible(v, widths[i]!);
        })
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/**
 * The same rows for a pipe, as gh prints them: no header, one line per row, cells separated by a
 * tab (a tab or line break inside a cell becomes a space), nothing cut, so `cut -f` and `awk -F'\t'`
 * read every field whole.
 */
export function tsv(rows: Cell[][]): string {
  return rows.map((r) => r.map((c) => cellText(c).replace(/[\t\r\n]+/g, ' ')).join('\t')).join('\n');
}
