/**
 * What node-ical is allowed to see. node-ical stores every property under its (lower-cased, or
 * for X- properties as-written) name on a plain object, every parameter under its name, and
 * every component under its UID — `par[uid][key] = value` — so a UID `__proto__` or
 * `constructor` writes into Object.prototype or the Object function. Before the text reaches it,
 * each content line is reduced to the properties and parameters the importer reads, and each UID
 * is replaced by a token that cannot name anything; the tokens are mapped back afterwards.
 */

/** Properties the importer (or node-ical's time-zone resolution) reads; the rest are dropped. */
const KEPT_PROPERTIES = new Set([
  // events
  'UID',
  'DTSTART',
  'DTEND',
  'DURATION',
  'SUMMARY',
  'DESCRIPTION',
  'LOCATION',
  'STATUS',
  'CATEGORIES',
  'RRULE',
  'RDATE',
  'EXDATE',
  'RECURRENCE-ID',
  'SEQUENCE',
  // time zones and their observances
  'TZID',
  'TZOFFSETFROM',
  'TZOFFSETTO',
  'TZNAME',
]);

/** Parameters the importer reads (zone, value type, an override's range); the rest are dropped. */
const KEPT_PARAMETERS = new Set(['TZID', 'VALUE', 'RANGE']);

/** node-ical's own content-line grammar (name, `;name=value` parameters, `:` value). */
const CONTENT_LINE = /^([-0-9A-Za-z_]+)((?:;[-0-9A-Za-z_]+=(?:"[^"]*"|[^":;]+))*):(.*)$/s;
const PARAMETER = /;([-0-9A-Za-z_]+)=("[^"]*"|[^":;]+)/g;

/**
 * The line node-ical may see for a content line named `name` (upper case), or undefined to drop
 * it. A line node-ical's grammar does not match is skipped by node-ical as a whole, so it is
 * passed on unchanged. UID lines are the caller's (see UidTokens).
 */
export function safeContentLine(line: string, name: string): string | undefined {
  if (!KEPT_PROPERTIES.has(name) || name === 'UID') return undefined;
  const m = CONTENT_LINE.exec(line);
  if (!m) return line;
  let params = '';
  for (const p of m[2]!.matchAll(PARAMETER)) if (KEPT_PARAMETERS.has(p[1]!.toUpperCase())) params += p[0];
  return `${m[1]}${params}:${m[3]}`;
}

/**
 * UIDs ↔ tokens for one file: the same UID always gets the same token, so an override still
 * meets its series inside node-ical.
 */
export class UidTokens {
  private readonly byUid = new Map<string, string>();
  private readonly byToken = new Map<string, string>();

  token(uid: string): string {
    let t = this.byUid.get(uid);
    if (t === undefined) {
      // Lower-case letters and digits only: never a property name node-ical keeps (they are upper
      // case or X- prefixed), never a member of Object.prototype.
      t = `kairosuid${this.byUid.size}x`;
      this.byUid.set(uid, t);
      this.byToken.set(t, uid);
    }
    return t;
  }

  /** The UID a token stands for; anything else (no UID, a value node-ical made up) is undefined. */
  original(token: unknown): string | undefined {
    return typeof token === 'string' ? this.byToken.get(token) : undefined;
  }
}
