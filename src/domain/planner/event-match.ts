import { editDistance } from './text/normalize.js';
import { FILLER_WORDS } from './text/words.js';
import type { CalendarItem } from './types.js';

/** Words that name a kind of event rather than which one: they count, but little. */
const GENERIC = new Set(['meeting', 'appointment', 'call', 'session', 'event', 'sync', 'chat', 'catchup', 'catch-up', 'thing', 'slot', 'booking']);
const IGNORED = new Set([
  'move',
  'moving',
  'reschedule',
  'push',
  'postpone',
  'delay',
  'shift',
  'bump',
  'bring',
  'pull',
  'change',
  'switch',
  'rearrange',
  'swap',
  'forward',
  'back',
  'later',
  'earlier',
  'sooner',
  'instead',
]);

function stem(word: string): string {
  const w = word.toLowerCase().replace(/'s$/, '');
  if (w.length > 4 && w.endsWith('ies')) return w.slice(0, -3) + 'y';
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) return w.slice(0, -1);
  return w;
}

export function titleTokens(title: string): string[] {
  return [...title.toLowerCase().matchAll(/[a-z0-9][a-z0-9:'-]*/g)].map((m) => stem(m[0].replace(/[:'-]+$/, ''))).filter((w) => w && !FILLER_WORDS.has(w));
}

const same = (a: string, b: string) => a === b || (a.length >= 5 && b.length >= 5 && editDistance(a, b, 1) <= 1);
const weight = (w: string) => (GENERIC.has(w) ? 0.25 : 1);

export interface EventMatch {
  item: CalendarItem;
  /** Share of the event title's words the prompt names (0–1). */
  score: number;
  matched: string[];
}

/**
 * The event a reschedule request means, found by its title words: the event whose title the
 * prompt covers best, at least one specific word (not just "meeting") in common; among equals the
 * next upcoming occurrence.
 */
export function matchEvent(promptWords: readonly string[], items: readonly CalendarItem[], now: number): EventMatch | undefined {
  const query = [...new Set(promptWords.map(stem).filter((w) => !IGNORED.has(w)))];
  if (!query.length) return undefined;
  let best: EventMatch | undefined;
  for (const item of items) {
    if (item.movable === false) continue;
    const tokens = [...new Set(titleTokens(item.title))];
    if (!tokens.length) continue;
    const matched = tokens.filter((t) => query.some((q) => same(q, t)));
    if (!matched.length) continue;
    const onlyGeneric = matched.every((t) => GENERIC.has(t)) && tokens.some((t) => !GENERIC.has(t));
    if (onlyGeneric) continue;
    const total = tokens.reduce((n, t) => n + weight(t), 0);
    const got = matched.reduce((n, t) => n + weight(t), 0);
    const extra = query.filter((q) => !tokens.some((t) => same(q, t)) && !GENERIC.has(q)).length;
    // Covering the title matters most; prompt words the title lacks cost a little.
    const score = Math.max(0, Math.min(1, got / total - extra * 0.05));
    const better = !best || score > best.score + 1e-9 || (Math.abs(score - best.score) < 1e-9 && preferTime(item, best.item, now));
    if (better) best = { item, score, matched };
  }
  return best;
}

/** Upcoming before past; among upcoming the soonest, among past the latest. */
function preferTime(a: CalendarItem, b: CalendarItem, now: number): boolean {
  const au = a.end > now;
  const bu = b.end > now;
  if (au !== bu) return au;
  return au ? a.start < b.start : a.start > b.start;
}
