import type { ParsedComponents, ParsedResult } from 'chrono-node';
import * as chrono from 'chrono-node/en';
import { addDays, type LocalDate, type LocalDateTime } from './local-date.js';
import { fromZoned, offsetMinutes } from './zoned-time.js';

/**
 * Dates and times in words ("tomorrow 3pm", "next friday", "in 2 weeks"), read by chrono-node in a
 * person's zone. The one place chrono is called: the CLI's flags and the planner's prompts read
 * words the same way, and "tomorrow" is the zone's tomorrow whatever the machine's zone is.
 */
export type TimeWords = ParsedResult;
export type TimeWordsParts = ParsedComponents;

/** What chrono reads relative to: the instant and the zone's offset at it (chrono takes a fixed offset). */
export interface WordsReference {
  instant: Date;
  timezone: number;
}

export const wordsReference = (now: Date, zone: string): WordsReference => ({ instant: now, timezone: offsetMinutes(now, zone) });

/** Every date or time found in `text`, dates read forward (a bare "friday" is the coming one). */
export function findTimeWords(text: string, ref: WordsReference): TimeWords[] {
  return chrono.casual.parse(text, ref, { forwardDate: true });
}

/** The first date or time in `text`, read in `zone` at `now`. */
export function readTimeWords(text: string, zone: string, now: Date): TimeWords | undefined {
  return findTimeWords(text, wordsReference(now, zone))[0];
}

/** The day the words name. */
export const dateOfWords = (c: TimeWordsParts): LocalDate => ({ year: c.get('year')!, month: c.get('month')!, day: c.get('day')! });

/** The wall time the words name; a day without a clock time is its midnight. */
export function wallOfWords(c: TimeWordsParts): Required<LocalDateTime> {
  const clock = c.isCertain('hour');
  return { ...dateOfWords(c), hour: clock ? c.get('hour')! : 0, minute: clock ? (c.get('minute') ?? 0) : 0, second: clock ? (c.get('second') ?? 0) : 0 };
}

/** Whether the words name a moment (a clock time or a written offset), not only a day. */
export const hasClock = (c: TimeWordsParts) => c.isCertain('hour') || c.isCertain('timezoneOffset');

/** The instant the words name: their own offset when one is written, else the wall time in `zone`. */
export function instantOfWords(c: TimeWordsParts, zone: string): Date {
  if (c.isCertain('timezoneOffset')) return c.date();
  return fromZoned(wallOfWords(c), zone);
}

/** The midnight that ends the day the words name, in `zone` (an end given as a date includes it). */
export const endOfWordsDay = (c: TimeWordsParts, zone: string): Date => fromZoned({ ...addDays(dateOfWords(c), 1), hour: 0, minute: 0 }, zone);
