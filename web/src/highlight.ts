/** Text cut into plain and matched pieces: each word of the query (2+ letters) is a match, case-insensitively. */
export function highlight(text: string, query: string): { text: string; hit: boolean }[] {
  const words = [...new Set(query.toLowerCase().match(/[\p{L}\p{N}]{2,}/gu) ?? [])].sort((a, b) => b.length - a.length);
  if (!words.length) return [{ text, hit: false }];
  const escaped = words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  // Prefixes match too: the keyword index stems, so "flossing" also finds "floss".
  const re = new RegExp(`(${escaped.join('|')})[\\p{L}\\p{N}]*`, 'giu');
  const out: { text: string; hit: boolean }[] = [];
  let last = 0;
  for (const m of text.matchAll(re)) {
    if (m.index > last) out.push({ text: text.slice(last, m.index), hit: false });
    out.push({ text: m[0], hit: true });
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push({ text: text.slice(last), hit: false });
  return out;
}
