/**
 * The properties of one component as written, read from its unfolded lines (scan.ts): where
 * node-ical rewrites a value (an RRULE's UNTIL turned into UTC, quotes stripped from a SUMMARY,
 * a PERIOD cut to its start), the importer reads the file's own text here instead.
 */

export interface RawProp {
  params: Record<string, string>;
  value: string;
}

const NAME = /^([A-Za-z0-9-]+)/;
const PARAM = /^;([A-Za-z0-9-]+)=("[^"]*"|[^";:]*)/;

/** One content line split into name, parameters (quotes removed, names upper case) and value; undefined if it is not one. */
export function parseLine(line: string): ({ name: string } & RawProp) | undefined {
  const m = NAME.exec(line);
  if (!m) return undefined;
  const params: Record<string, string> = {};
  let rest = line.slice(m[0].length);
  for (let p = PARAM.exec(rest); p; p = PARAM.exec(rest)) {
    params[p[1]!.toUpperCase()] = p[2]!.replace(/^"|"$/g, '');
    rest = rest.slice(p[0].length);
  }
  if (rest.startsWith(':')) return { name: m[1]!.toUpperCase(), params, value: rest.slice(1) };
  // Exchange 2010 wrote `DTSTART;TZID="W. Europe Standard Time:20200609T090000"`: the closing quote after the value.
  if (rest === '' && /:[^":]*"$/.test(line)) return parseLine(line.replace(/:([^":]*)"$/, '":$1'));
  return undefined;
}

/**
 * The component's own properties by name, in file order; those of components nested in it
 * (VALARM) are left out. `lines` start with its BEGIN line.
 */
export function ownProps(lines: string[]): Map<string, RawProp[]> {
  const out = new Map<string, RawProp[]>();
  let depth = 0;
  for (const l of lines) {
    const u = l.toUpperCase();
    if (u.startsWith('BEGIN:')) depth++;
    else if (u.startsWith('END:')) depth--;
    else if (depth === 1) {
      const p = parseLine(l);
      if (p) out.set(p.name, [...(out.get(p.name) ?? []), { params: p.params, value: p.value }]);
    }
  }
  return out;
}

/** TEXT as RFC 5545 §3.3.11 escapes it (`\\,` `\\;` `\\n` `\\\\`), and nothing more: quotes are the text's own. */
export function unescapeText(t: string): string {
  return t.replace(/\\([\\;,nN])/g, (_, c: string) => (c === 'n' || c === 'N' ? '\n' : c));
}

/** A DATE or DATE-TIME value: its wall fields, whether it is a date, and whether it is UTC. */
export interface RawTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  date: boolean;
  utc: boolean;
}

export function parseTime(v: string): RawTime | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})?(Z)?)?$/.exec(v.trim());
  if (!m) return undefined;
  return {
    year: +m[1]!,
    month: +m[2]!,
    day: +m[3]!,
    hour: +(m[4] ?? 0),
    minute: +(m[5] ?? 0),
    second: +(m[6] ?? 0),
    date: m[4] === undefined,
    utc: m[7] === 'Z',
  };
}

/** An RFC 5545 §3.3.6 DURATION in seconds (`P1W`, `-PT15M`, `P1DT2H`), or undefined. */
export function parseDuration(v: string): number | undefined {
  const m = /^([+-])?P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/.exec(v.trim());
  if (
    !m ||
    v
      .trim()
      .replace(/^[+-]?P/, '')
      .replace(/T$/, '') === ''
  )
    return undefined;
  const s = (+(m[2] ?? 0) * 7 + +(m[3] ?? 0)) * 86_400 + +(m[4] ?? 0) * 3600 + +(m[5] ?? 0) * 60 + +(m[6] ?? 0);
  return m[1] === '-' ? -s : s;
}
