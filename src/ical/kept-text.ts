import { isTimeZone } from '../time/zoned-time.js';
import { foldLines } from './export.js';
import { keepableLines } from './kept-check.js';
import type { Scan, VeventBlock } from './scan.js';

/**
 * An event's blocks as written, with the VTIMEZONEs they name, as one calendar object; undefined
 * when the text alone does not place the event in time (a floating time, read in the calendar's
 * X-WR-TIMEZONE or the user's zone; a TZID that is neither an IANA name nor defined in the file)
 * or is not text to write out again (kept-check.ts).
 */
export function sourceText(scan: Scan, blocks: VeventBlock[]): string | undefined {
  const raw = (b: { line: number; end: number }) => refold(scan.physical.slice(b.line - 1, b.end));
  const events = blocks.map(raw);
  const lines = events.flatMap((t) => t.replace(/\r?\n[ \t]/g, '').split(/\r?\n/));
  if (lines.some((l) => /^(DTSTART|DTEND|RECURRENCE-ID|RDATE|EXDATE)(;(?![^:]*TZID=)[^:]*)?:[^Z]*\d{8}T\d{6}(?!Z)(,|$)/i.test(l))) return undefined;
  const tzids = new Set(lines.flatMap((l) => [...l.matchAll(/;TZID=("[^"]*"|[^;:]*)/gi)].map((m) => m[1]!.replace(/^"|"$/g, ''))));
  const defined = new Set(scan.zoneBlocks.map((z) => z.tzid));
  if ([...tzids].some((id) => !defined.has(id) && !isTimeZone(id))) return undefined;
  const zones = scan.zoneBlocks.filter((z) => z.tzid !== undefined && tzids.has(z.tzid)).map(raw);
  if (![...events, ...zones].every((t) => keepableLines(t.split('\r\n')))) return undefined;
  return `${['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//kairos//kept source//EN', ...zones, ...events, 'END:VCALENDAR'].join('\r\n')}\r\n`;
}

/**
 * Physical lines CRLF-joined, a content line with a physical line over 75 octets folded again
 * (RFC 5545 §3.1: folding carries no meaning); every other content line as written.
 */
function refold(physical: string[]): string {
  const out: string[][] = [];
  for (const l of physical) {
    if (/^[ \t]/.test(l) && out.length) out[out.length - 1]!.push(l);
    else out.push([l]);
  }
  return out.map((c) => (c.some((l) => Buffer.byteLength(l) > 75) ? foldLines(c.map((l, i) => (i ? l.slice(1) : l)).join('')) : c.join('\r\n'))).join('\r\n');
}
