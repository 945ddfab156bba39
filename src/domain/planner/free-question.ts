import { formatLocalDate } from '../../time/local-date.js';
import { dateOfWords, readTimeWords } from '../../time/time-words.js';
import { wallAt } from '../../time/zone-cache.js';
import { extractTimeAmounts } from './extract/durations.js';

const ASKS_FREE = /\b(?:when\s+(?:am\s+i|are\s+we|is\s+there)\s+free|(?:any|some)\s+free\s+time|free\s+slots?|when\s+do\s+i\s+have\s+time)\b/i;
/** The gap a question names no length for: the shortest meeting worth proposing. */
const DEFAULT_MINUTES = 30;

/**
 * A chat question about free time ("when am I free on tuesday?", "any free time tomorrow for 2h?"):
 * the local day it asks about (today when it names none) and the shortest gap worth listing, read
 * in `zone` at `now`, as every time a person types is.
 */
export const asksFree = (text: string) => ASKS_FREE.test(text);

/** The day and gap of a question `asksFree` accepted. */
export function freeQuestion(text: string, zone: string, now: Date): { date: string; minutes: number } {
  const lower = text.toLowerCase();
  const minutes = extractTimeAmounts(lower).durations[0]?.minutes ?? DEFAULT_MINUTES;
  const words = readTimeWords(text.replace(ASKS_FREE, ' '), zone, now);
  const day = words ? dateOfWords(words.start) : wallAt(now.getTime(), zone);
  return { date: formatLocalDate(day), minutes };
}
