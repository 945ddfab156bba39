import type { ChalkInstance } from 'chalk';

/** What a search hit carries of its trace: the text and where it sits in the content. */
export interface HitTextView {
  content?: string;
  snippet?: { text: string; start: number; end: number };
  highlights: number[][];
  content_length: number;
}

/** Characters shown before the first match, so it is read in its sentence. */
const LEAD = 20;

/**
 * A hit's text on one line, from a little before its first match, with every match marked: in
 * inverse video with colour, in [brackets] without. `width` cuts it with an ellipsis (undefined:
 * whole, for a pipe). The marks go on after cutting, so a cut never splits one; the text passes
 * through the IO's chalk and `forTerminal` like any other text from the daemon.
 */
export function markedMatch(hit: HitTextView, chalk: ChalkInstance, width?: number): string {
  const text = hit.content ?? hit.snippet?.text ?? '';
  const base = hit.snippet?.start ?? 0;
  const marks = hit.highlights.map(([s = 0, e = 0]) => [s - base, e - base] as const).filter(([s, e]) => s >= 0 && e <= text.length && s < e);
  let from = marks.length && width !== undefined ? Math.max(0, marks[0]![0] - LEAD) : 0;
  while (from > 0 && !/\s/.test(text[from - 1]!)) from--;
  let to = text.length;
  const before = from > 0 || base > 0 ? '…' : '';
  if (width !== undefined && [...text.slice(from)].length + before.length > width) to = from + Math.max(1, width - before.length - 1);
  const after = to < text.length || base + text.length < hit.content_length ? '…' : '';
  const mark = (s: string) => (chalk.level > 0 ? chalk.inverse(s) : `[${s}]`);
  const one = (s: string) => s.replace(/\s+/g, ' ');
  let out = before;
  let at = from;
  for (const [s, e] of marks) {
    if (e <= from || s >= to) continue;
    const ms = Math.max(s, at);
    const me = Math.min(e, to);
    out += one(text.slice(at, ms)) + mark(one(text.slice(ms, me)));
    at = me;
  }
  return (out + one(text.slice(at, to)) + after).trim();
}
