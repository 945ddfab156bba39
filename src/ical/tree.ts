/**
 * iCalendar text as a tree of components whose lines keep their physical form (folding
 * included): what is written back out unchanged is byte-for-byte the input.
 */

/** A content line: its physical lines as written (CRLF-joined) and its unfolded text. */
export interface Line {
  raw: string;
  text: string;
}

export interface Comp {
  name: string;
  begin: Line;
  end: Line;
  items: (Line | Comp)[];
}

export const isComp = (x: Line | Comp): x is Comp => 'items' in x;
export const nameOf = (text: string) => /^([A-Za-z0-9-]+)[;:]/.exec(text)?.[1]?.toUpperCase();

/** The text as one VCALENDAR tree; undefined when it is not one well-formed VCALENDAR. */
export function parseCalendar(source: string): Comp | undefined {
  const lines: Line[] = [];
  for (const phys of source.split(/\r\n|\n|\r/)) {
    if (/^[ \t]/.test(phys) && lines.length) {
      const last = lines[lines.length - 1]!;
      last.raw += `\r\n${phys}`;
      last.text += phys.slice(1);
    } else if (phys !== '') lines.push({ raw: phys, text: phys });
  }
  const stack: Comp[] = [];
  let root: Comp | undefined;
  for (const l of lines) {
    const u = l.text.toUpperCase();
    if (u.startsWith('BEGIN:')) {
      const c: Comp = { name: u.slice(6).trim(), begin: l, end: l, items: [] };
      if (stack.length) stack[stack.length - 1]!.items.push(c);
      else if (root) return undefined;
      else root = c;
      stack.push(c);
    } else if (u.startsWith('END:')) {
      const c = stack.pop();
      if (!c || c.name !== u.slice(4).trim()) return undefined;
      c.end = l;
    } else if (stack.length) stack[stack.length - 1]!.items.push(l);
    else return undefined;
  }
  return root && !stack.length && root.name === 'VCALENDAR' ? root : undefined;
}

/** The component's physical lines. */
export function writeComp(c: Comp): string[] {
  return [c.begin.raw, ...c.items.flatMap((x) => (isComp(x) ? writeComp(x) : [x.raw])), c.end.raw];
}

/** The TZID a VTIMEZONE defines. */
export const zoneId = (c: Comp) => {
  const l = c.items.find((x): x is Line => !isComp(x) && nameOf(x.text) === 'TZID');
  return l?.text.slice(l.text.indexOf(':') + 1).trim();
};

/**
 * A calendar object's parts for a file of many: its VTIMEZONEs by TZID and its other components'
 * text (each line CRLF-terminated); undefined when the text is not one VCALENDAR.
 */
export function calendarParts(ics: string): { zones: Map<string, string>; body: string } | undefined {
  const cal = parseCalendar(ics);
  if (!cal) return undefined;
  const zones = new Map<string, string>();
  let body = '';
  for (const x of cal.items) {
    if (!isComp(x)) continue;
    const text = `${writeComp(x).join('\r\n')}\r\n`;
    const id = x.name === 'VTIMEZONE' ? zoneId(x) : undefined;
    if (x.name === 'VTIMEZONE') {
      if (id) zones.set(id, text);
    } else body += text;
  }
  return { zones, body };
}
