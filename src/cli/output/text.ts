/** One line, at most `n` characters. */
export function clip(text: string, n: number): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > n ? `${one.slice(0, n - 1)}…` : one;
}

/** Prose on one line, at most `n` characters, cut after a whole word (a sentence a person reads, not a cell). */
export function clipWords(text: string, n: number): string {
  const one = text.replace(/\s+/g, ' ').trim();
  if (one.length <= n) return one;
  const cut = one.slice(0, n);
  const space = cut.lastIndexOf(' ');
  return `${(space > n / 2 ? cut.slice(0, space) : cut.slice(0, n - 1)).replace(/[\s,;:.]+$/, '')}…`;
}
