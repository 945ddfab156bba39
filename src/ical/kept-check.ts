/**
 * Whether an event's own text in a file is written back out as it is (lossless.ts) or the event
 * is written from its fields instead. A file's text is kept only where it is valid RFC 5545 and
 * says, read by any parser, what kairos read from it: an export passes a strict validator and
 * reads back as the same events. Many real files are not (lines over 75 octets, DURATION values
 * like `PT-2H`, no DTSTAMP, an all-day series with a date-time UNTIL, a SUMMARY kairos trims or
 * fills in): those events are written from their fields, as kairos read them, and lose what
 * kairos does not model. The check is all or nothing per event (the series and its overrides):
 * one object is either the file's or kairos'.
 */
import { parseLine, type RawProp } from './raw-props.js';

const MAX_OCTETS = 75;
const CTL = '\\x00-\\x08\\x0a-\\x1f\\x7f';
/** RFC 5545 §3.1 content line: name, parameters (quoted, or without `";:,`), `:` value. */
const CONTENT_LINE = new RegExp(`^[A-Za-z0-9-]+(?:;[A-Za-z0-9-]+=(?:"[^"${CTL}]*"|[^";:,${CTL}]*)(?:,(?:"[^"${CTL}]*"|[^";:,${CTL}]*))*)*:`);
/** RFC 5545 §3.3.6 dur-value: a week count alone, or days and/or a time part with H, M, S in order. */
const DUR_TIME = '(?:\\d+H(?:\\d+M(?:\\d+S)?)?|\\d+M(?:\\d+S)?|\\d+S)';
const DURATION = new RegExp(`^[+-]?P(?:\\d+W|\\d+D(?:T${DUR_TIME})?|T${DUR_TIME})$`);
const DATE_TIME = /^\d{8}(?:T\d{6}Z?)?$/;
const PERIOD_OR_TIME = /^\d{8}(?:T\d{6}Z?)?(?:\/(?:\d{8}T\d{6}Z?|[+-]?P[0-9WDTHMS]+))?$/;
const INTEGER = /^[+-]?\d+$/;
const UTC_OFFSET = /^[+-](?:[01]\d|2[0-3])[0-5]\d(?:[0-5]\d)?$/;
const GEO = /^[+-]?\d+(?:\.\d+)?;[+-]?\d+(?:\.\d+)?$/;

/** Properties whose values have a type a parser checks; what each value must look like. */
const TYPED: Record<string, (p: RawProp) => boolean> = {
  DTSTART: (p) => DATE_TIME.test(p.value),
  DTEND: (p) => DATE_TIME.test(p.value),
  DUE: (p) => DATE_TIME.test(p.value),
  DTSTAMP: (p) => DATE_TIME.test(p.value),
  CREATED: (p) => DATE_TIME.test(p.value),
  'LAST-MODIFIED': (p) => DATE_TIME.test(p.value),
  COMPLETED: (p) => DATE_TIME.test(p.value),
  'RECURRENCE-ID': (p) => DATE_TIME.test(p.value),
  EXDATE: (p) => p.value.split(',').every((v) => DATE_TIME.test(v)),
  RDATE: (p) => p.value.split(',').every((v) => PERIOD_OR_TIME.test(v)),
  DURATION: (p) => DURATION.test(p.value),
  TRIGGER: (p) => (p.params.VALUE?.toUpperCase() === 'DATE-TIME' ? DATE_TIME.test(p.value) : DURATION.test(p.value)),
  SEQUENCE: (p) => INTEGER.test(p.value),
  PRIORITY: (p) => INTEGER.test(p.value),
  REPEAT: (p) => INTEGER.test(p.value),
  'PERCENT-COMPLETE': (p) => INTEGER.test(p.value),
  GEO: (p) => GEO.test(p.value),
  TZOFFSETFROM: (p) => UTC_OFFSET.test(p.value),
  TZOFFSETTO: (p) => UTC_OFFSET.test(p.value),
};

const isDate = (p: RawProp | undefined) => p !== undefined && (p.params.VALUE?.toUpperCase() === 'DATE' || /^\d{8}$/.test(p.value));

/** A VEVENT's own properties: what RFC 5545 §3.6.1 requires, and what kairos reads as written. */
function eventKeepable(props: Map<string, RawProp[]>): boolean {
  const one = (name: string) => props.get(name)?.length === 1;
  if (!one('UID') || !one('DTSTAMP') || !one('DTSTART')) return false;
  if (props.has('DTEND') && props.has('DURATION')) return false;
  const start = props.get('DTSTART')![0];
  const end = props.get('DTEND')?.[0];
  if (end && isDate(end) !== isDate(start)) return false;
  // kairos trims a title and names an untitled event: the text must already say what kairos shows.
  const summary = props.get('SUMMARY');
  if (summary?.length !== 1) return false;
  const title = summary[0]!.value;
  if (title.trim() !== title || title === '') return false;
  // One rule at most (kairos turns further rules into dates), with UNTIL of DTSTART's type (§3.3.10).
  const rules = props.get('RRULE') ?? [];
  if (rules.length > 1) return false;
  const until = rules[0] && /(?:^|;)UNTIL=([^;]*)/i.exec(rules[0].value)?.[1];
  if (until && /^\d{8}$/.test(until) !== isDate(start)) return false;
  return true;
}

/**
 * Whether `lines` (the physical lines of an event's VEVENTs, or of a VTIMEZONE they name) may be
 * written back out as they are: every line within 75 octets and a well-formed content line, every
 * typed value readable, every VEVENT complete and read by kairos as written.
 */
export function keepableLines(lines: string[]): boolean {
  const content: string[] = [];
  for (const phys of lines) {
    if (phys === '' || Buffer.byteLength(phys) > MAX_OCTETS) return false;
    if (/^[ \t]/.test(phys) && content.length) content[content.length - 1] += phys.slice(1);
    else content.push(phys);
  }
  const stack: Map<string, RawProp[]>[] = [];
  const names: string[] = [];
  for (const text of content) {
    if (!CONTENT_LINE.test(text)) return false;
    const p = parseLine(text);
    if (!p) return false;
    if (p.name === 'BEGIN') {
      stack.push(new Map());
      names.push(p.value.toUpperCase());
    } else if (p.name === 'END') {
      const props = stack.pop();
      if (!props || names.pop() !== p.value.toUpperCase()) return false;
      if (p.value.toUpperCase() === 'VEVENT' && !eventKeepable(props)) return false;
    } else {
      const own = stack.at(-1);
      if (!own) return false;
      const check = TYPED[p.name];
      if (check && !check(p)) return false;
      own.set(p.name, [...(own.get(p.name) ?? []), { params: p.params, value: p.value }]);
    }
  }
  return stack.length === 0;
}
