/**
 * Text in the fixed-width cells of a grid (`cal week`, `cal month`): measured in terminal columns,
 * so a wide character (CJK, most emoji) counts two and a grid line never spills past its width.
 */

// East Asian Wide/Fullwidth blocks and the emoji planes: what terminals draw two columns wide.
const WIDE =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1f64f}\u{1f900}-\u{1f9ff}\u{20000}-\u{3fffd}]/u;
// Combining marks and zero-width joiners/selectors take no column.
const ZERO: [number, number][] = [
  [0x300, 0x36f],
  [0x200b, 0x200f],
  [0x20d0, 0x20ff],
  [0xfe00, 0xfe0f],
];

function charWidth(ch: string): number {
  const cp = ch.codePointAt(0)!;
  if (ZERO.some(([a, b]) => cp >= a && cp <= b)) return 0;
  return WIDE.test(ch) ? 2 : 1;
}

/** Columns a plain text (no colour codes) takes on a terminal. */
export function columns(text: string): number {
  let n = 0;
  for (const ch of text) n += charWidth(ch);
  return n;
}

/** One line of `text` (white space collapsed) in at most `w` columns, cut with an ellipsis. */
export function fitCell(text: string, w: number): string {
  const one = text.replace(/\s+/g, ' ').trim();
  if (columns(one) <= w) return one;
  let out = '';
  let n = 0;
  for (const ch of one) {
    const cw = charWidth(ch);
    if (n + cw > w - 1) break;
    out += ch;
    n += cw;
  }
  return `${out.trimEnd()}…`;
}

/** `text` padded with spaces to exactly `w` columns (cut first when longer). */
export function padCell(text: string, w: number): string {
  const t = fitCell(text, w);
  return t + ' '.repeat(Math.max(0, w - columns(t)));
}

/**
 * `text` on at most `lines` lines of `w` columns, broken at spaces where it can be (inside a word
 * longer than a line otherwise); what does not fit ends the last line with an ellipsis.
 */
export function wrapCell(text: string, w: number, lines: number): string[] {
  const out: string[] = [];
  let rest = text.replace(/\s+/g, ' ').trim();
  while (rest && out.length < lines) {
    if (columns(rest) <= w) {
      out.push(rest);
      rest = '';
      break;
    }
    if (out.length === lines - 1) {
      out.push(fitCell(rest, w));
      rest = '';
      break;
    }
    // The longest head of `rest` that fits; back up to its last space when there is one.
    let head = '';
    let n = 0;
    for (const ch of rest) {
      if (n + charWidth(ch) > w) break;
      head += ch;
      n += charWidth(ch);
    }
    const space = head.lastIndexOf(' ');
    if (space > 0 && rest[head.length] !== ' ') head = head.slice(0, space);
    out.push(head.trimEnd());
    rest = rest.slice(head.length).trimStart();
  }
  return out;
}

/** A cell of a grid row: its text and the style (colour) of it once padded. */
export interface StyledCell {
  text: string;
  style?: (s: string) => string;
}

/**
 * Cells of `w` columns joined by `sep`, each padded then styled; the last one is not padded, so a
 * line has no trailing blanks on a terminal (inside colour codes) or on a pipe alike.
 */
export function gridRow(cells: readonly StyledCell[], w: number, sep: string): string {
  return cells
    .map((cell, i) => {
      const text = i === cells.length - 1 ? padCell(cell.text, w).trimEnd() : padCell(cell.text, w);
      return text && cell.style ? cell.style(text) : text;
    })
    .join(sep);
}
