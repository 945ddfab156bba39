import { safeContentLine, UidTokens } from './safe-lines.js';

/**
 * A line-level pass over iCalendar text before node-ical sees it: unfolds lines while remembering
 * where each started (node-ical reports no line numbers), finds the VEVENT blocks and their UIDs,
 * repairs what real-world producers commonly get wrong, and notes structural damage. The text it
 * hands on holds only the properties the importer reads, and tokens instead of UIDs (safe-lines.ts).
 */

export interface VeventBlock {
  /** 1-based physical line of BEGIN:VEVENT. */
  line: number;
  /** The UID as written (the block's lines hold its token). */
  uid?: string;
  /** 1-based physical line of END:VEVENT (the last line, for a block never closed). */
  end: number;
  isOverride: boolean;
  rrules: number;
  lines: string[];
}

/** Where a VTIMEZONE is written: its TZID and its first and last physical lines (1-based). */
export interface ZoneBlock {
  tzid?: string;
  line: number;
  end: number;
}

export interface Problem {
  line?: number;
  uid?: string;
  message: string;
}

export interface Scan {
  /** The repaired and reduced text, CRLF-terminated, for node-ical. */
  text: string;
  /** The tokens standing for UIDs in `text` and the blocks' lines. */
  uids: UidTokens;
  events: VeventBlock[];
  timezones: string[][];
  zoneBlocks: ZoneBlock[];
  /** The input's physical lines (after a byte order mark): the text an event was read from. */
  physical: string[];
  /** The calendar's X-WR-TIMEZONE (Google, Apple): the zone its floating times are meant in. */
  calendarTz?: string;
  /** Top-level components other than VEVENT/VTIMEZONE (VTODO, VJOURNAL, VFREEBUSY…). */
  otherComponents: number;
  /** What was repaired or ignored (reported as warnings; nothing here stops an event). */
  repairs: Problem[];
  /** Structural damage that cost content (a component never closed, swallowing what followed): reported as errors. */
  damage: Problem[];
}

const propName = (l: string) => {
  const m = /^([A-Za-z0-9-]+)[;:]/.exec(l);
  return m ? m[1]!.toUpperCase() : undefined;
};
const valueOfLine = (l: string) => {
  // The value starts after the first colon outside a quoted parameter value.
  let q = false;
  for (let i = 0; i < l.length; i++) {
    const c = l[i];
    if (c === '"') q = !q;
    else if (c === ':' && !q) return l.slice(i + 1);
  }
  return '';
};

/** TEXT unescaping as node-ical does it, so a UID reads the same here as it did there. */
const unescapeText = (t: string) =>
  t
    .replaceAll('\\,', ',')
    .replaceAll('\\;', ';')
    .replaceAll(/\\[nN]/g, '\n')
    .replaceAll('\\\\', '\\')
    .replace(/^"(.*)"$/, '$1');

/** Whether the innermost top-level component open is one the importer does not read (VTODO, VJOURNAL…). */
function insideOther(stack: string[]): boolean {
  const top = stack[stack[0] === 'VCALENDAR' ? 1 : 0];
  return top !== undefined && top !== 'VEVENT' && top !== 'VTIMEZONE' && top !== 'VCALENDAR';
}

export function scanIcs(input: string): Scan {
  const repairs: Problem[] = [];
  let src = input;
  if (src.charCodeAt(0) === 0xfeff) {
    src = src.slice(1);
    repairs.push({ line: 1, message: 'removed a byte order mark' });
  }
  const physical = src.split(/\r\n|\n|\r/);
  const logical: { line: number; text: string }[] = [];
  let blank = 0;
  physical.forEach((raw, i) => {
    if (/^[ \t]/.test(raw) && logical.length) {
      logical[logical.length - 1]!.text += raw.slice(1);
      return;
    }
    if (!raw.trim()) {
      blank++;
      return;
    }
    logical.push({ line: i + 1, text: raw });
  });
  if (blank > 1 || (blank === 1 && physical[physical.length - 1] !== '')) repairs.push({ message: 'ignored blank lines' });

  const out: string[] = [];
  const events: VeventBlock[] = [];
  const timezones: string[][] = [];
  const stack: string[] = [];
  let current: VeventBlock | undefined;
  let tz: string[] | undefined;
  let zoneAt = 0;
  const zoneBlocks: ZoneBlock[] = [];
  let otherComponents = 0;
  const damage: Problem[] = [];
  /** Line of each open component's BEGIN, parallel to `stack`. */
  const opened: number[] = [];
  /** A stream of several VCALENDARs (RFC 5545 §3.4) is read as one: their components together. */
  let calendars = 0;
  let calendarTz: string | undefined;
  const uids = new UidTokens();
  for (const { line, text: rawText } of logical) {
    let text = rawText;
    const hiddenBefore = insideOther(stack);
    const upper = text.toUpperCase();
    if (upper.startsWith('BEGIN:')) {
      const name = upper.slice(6).trim();
      if (name === 'VCALENDAR' && stack.length === 0 && calendars++ > 0) {
        stack.push(name);
        opened.push(line);
        continue;
      }
      if (name === 'VEVENT' && stack.length === 2 && stack[0] === 'VCALENDAR' && stack[1] !== 'VEVENT' && stack[1] !== 'VTIMEZONE') {
        // A top-level component left open (`END:VTOOD`): it would swallow this event and every one
        // after it. It is closed here, and what it cost is counted as an error.
        damage.push({ line: opened[1], message: `BEGIN:${stack[1]} is never closed (a misspelt END?): it was closed at the VEVENT of line ${line}` });
        stack.length = 1;
        opened.length = 1;
      }
      if (name === 'VEVENT' && (stack.length === 0 || stack.at(-1) === 'VCALENDAR')) current = { line, end: line, isOverride: false, rrules: 0, lines: [] };
      else if (name === 'VEVENT' && stack.includes('VEVENT')) repairs.push({ line, message: 'ignored a VEVENT nested inside another VEVENT' });
      else if (name === 'VTIMEZONE') {
        tz = [];
        zoneAt = line;
      } else if ((stack.length === 1 && stack[0] === 'VCALENDAR') || (stack.length === 0 && name !== 'VCALENDAR')) otherComponents++;
      stack.push(name);
      opened.push(line);
    } else if (upper.startsWith('END:')) {
      const name = upper.slice(4).trim();
      const at = stack.lastIndexOf(name);
      if (at < 0) {
        repairs.push({ line, message: `ignored END:${name} without BEGIN:${name}` });
        continue;
      }
      if (at !== stack.length - 1) repairs.push({ line, message: `closed BEGIN:${stack[stack.length - 1]} at END:${name}` });
      stack.length = at;
      opened.length = at;
      // The END of a calendar is written once, at the end, so a second VCALENDAR joins the first.
      if (name === 'VCALENDAR' && at === 0) continue;
      if (name === 'VEVENT' && current) {
        current.end = line;
        current.lines.push(text);
        events.push(current);
        current = undefined;
        out.push(text);
        continue;
      }
      if (name === 'VTIMEZONE' && tz) {
        const tzid = tz.map((l) => /^TZID[;:]/i.exec(l) && valueOfLine(l).trim()).find(Boolean);
        zoneBlocks.push({ ...(tzid ? { tzid } : {}), line: zoneAt, end: line });
        tz.push(text);
        timezones.push(['BEGIN:VTIMEZONE', ...tz]);
        tz = undefined;
        out.push(text);
        continue;
      }
    } else {
      const name = propName(text);
      if (!name) {
        repairs.push({ line, uid: current?.uid, message: `ignored a line that is not a content line: "${text.slice(0, 60)}"` });
        continue;
      }
      // An empty parameter (`DTSTART;;VALUE=DATE:…`) is dropped rather than failing the event.
      if (/^[^:"]*;;/.test(text)) {
        text = text.replace(/;;+/, ';');
        repairs.push({ line, uid: current?.uid, message: `removed an empty parameter in ${name}` });
      }
      if (name === 'RRULE' || name === 'EXRULE') {
        const cleaned = text.replace(/\s+/g, '');
        if (cleaned !== text) repairs.push({ line, uid: current?.uid, message: `removed spaces inside ${name}` });
        text = cleaned;
      }
      if (name === 'X-WR-TIMEZONE' && stack.length === 1) calendarTz ??= valueOfLine(text).trim();
      const inEvent = current !== undefined && stack.at(-1) === 'VEVENT';
      const firstUid = inEvent && name === 'UID' && current!.uid === undefined;
      if (current && inEvent) {
        if (firstUid) current.uid = unescapeText(valueOfLine(text)).trim() || undefined;
        else if (name === 'RECURRENCE-ID') current.isOverride = true;
        else if (name === 'RRULE') current.rrules++;
      }
      // Only an event's own UID reaches node-ical, as a token; a UID of an alarm or a to-do would
      // key (or merge into) an event there.
      const safe = name === 'UID' ? (firstUid && current!.uid !== undefined ? `UID:${uids.token(current!.uid)}` : undefined) : safeContentLine(text, name);
      if (safe === undefined) continue;
      text = safe;
    }
    if (current) current.lines.push(text);
    if (tz && !upper.startsWith('BEGIN:VTIMEZONE')) tz.push(text);
    // Components other than events and time zones are counted, not passed on: node-ical keys every
    // component by its UID, and a to-do without one overwrote the events around it.
    if (insideOther(stack) || (hiddenBefore && upper.startsWith('END:'))) continue;
    out.push(text);
  }
  if (current) {
    repairs.push({ line: current.line, uid: current.uid, message: 'VEVENT is never closed: END:VEVENT added' });
    current.lines.push('END:VEVENT');
    current.end = physical.length;
    events.push(current);
  }
  for (const [i, open] of [...stack.entries()].reverse()) {
    if (open !== 'VCALENDAR' && open !== 'VEVENT') repairs.push({ line: opened[i], message: `BEGIN:${open} is never closed` });
    out.push(`END:${open}`);
  }
  if (calendars > 0 && stack[0] !== 'VCALENDAR') out.push('END:VCALENDAR');
  return {
    text: out.join('\r\n') + '\r\n',
    uids,
    events,
    timezones,
    zoneBlocks,
    physical,
    otherComponents,
    repairs,
    damage,
    ...(calendarTz ? { calendarTz } : {}),
  };
}
