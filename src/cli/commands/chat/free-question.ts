import { parseDuration } from '../../input/when.js';

const ASKS_FREE = /\b(?:when\s+(?:am\s+i|are\s+we|is\s+there)\s+free|(?:any|some)\s+free\s+time|free\s+slots?|when\s+do\s+i\s+have\s+time)\b/i;
const FOR = /\bfor\s+(?:an?\s+)?((?:\d+(?:\.\d+)?\s*(?:h(?:ours?)?|m(?:in(?:utes?)?)?|hrs?)\s*)+|hour|half\s+an\s+hour)\b/i;

/**
 * A chat question about free time ("when am I free on tuesday?", "any free time tomorrow for 2h?"):
 * the day in words and the shortest gap, or undefined for anything else.
 */
export function freeQuestion(prompt: string): { day: string; minutes: number } | undefined {
  if (!ASKS_FREE.test(prompt)) return undefined;
  const f = FOR.exec(prompt);
  const spoken = f?.[1]?.toLowerCase().replace(/\s+/g, '');
  const minutes = !spoken ? 30 : spoken === 'hour' ? 60 : spoken === 'halfanhour' ? 30 : parseDuration(spoken, 'for');
  const day =
    prompt
      .replace(ASKS_FREE, ' ')
      .replace(f?.[0] ?? '', ' ')
      .replace(/[?!.,]/g, ' ')
      .replace(/\b(?:on|this|coming|do\s+i\s+have|have|i|time)\b/gi, ' ')
      .replace(/\s+/g, ' ')
      .trim() || 'today';
  return { day, minutes };
}
