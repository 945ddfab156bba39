type Cell = string | number | null | undefined;

const cellText = (c: Cell) => (c === null || c === undefined ? '' : String(c));

/** A plain aligned table for a terminal; the width of each column is its widest cell. */
export function table(headers: string[], rows: Cell[][]): string {
  const cells = [headers, ...rows.map((r) => r.map(cellText))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  return cells.map((r) => r.map((c, i) => (i === r.length - 1 ? c : (c ?? '').padEnd(widths[i]!))).join('  ')).join('\n');
}

/**
 * The same rows for a pipe, as gh prints them: no header, one line per row, cells separated by a
 * tab (a tab or line break inside a cell becomes a space), nothing cut, so `cut -f` and `awk -F'\t'`
 * read every field whole.
 */
export function tsv(rows: Cell[][]): string {
  return rows.map((r) => r.map((c) => cellText(c).replace(/[\t\r\n]+/g, ' ')).join('\t')).join('\n');
}
