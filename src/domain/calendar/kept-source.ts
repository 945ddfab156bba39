import { type EventSource, SourceFields } from '../../contracts/stored.js';
import { toIcs } from '../../ical/export.js';
import { rewriteSource } from '../../ical/lossless.js';
import type { Reads, Tx } from '../../store/store.js';
import { type StoredEvent, span } from './occurrences.js';

/**
 * The iCalendar text a synced event was read from (the CalDAV server's object), kept beside
 * the event (`event_sources`) with the fields it reads as, so an edit is written back into
 * it (src/ical/lossless.ts) rather than replacing it: attendees, alarms, categories and
 * properties kairos does not model stay.
 */

/**
 * A kept text is at most this size: the JSON body limit, far above a calendar object with
 * hundreds of overrides. A larger object keeps no source; its event is written from its fields.
 */
export const MAX_KEPT_SOURCE_BYTES = 1024 * 1024;

/** Keep `ics` as the source of the event as it is now (or none, when it is over the bound). */
export function stageKeptSource(tx: Tx, e: StoredEvent, ics: string): void {
  if (Buffer.byteLength(ics) <= MAX_KEPT_SOURCE_BYTES) tx.put('event_sources', { uid: e.uid, user_id: e.user_id, ics, base: sourceFieldsOf(e) });
  else dropKeptSource(tx, e.uid);
}

const SOURCE_KEYS = Object.keys(SourceFields.shape) as (keyof SourceFields)[];
const sourceFieldsOf = (e: StoredEvent): SourceFields =>
  Object.fromEntries(SOURCE_KEYS.filter((k) => e[k] !== undefined).map((k) => [k, e[k]])) as SourceFields;

/** The event's source goes with it. */
export function dropKeptSource(tx: Tx, uid: string): void {
  if (tx.get('event_sources', uid)) tx.delete('event_sources', uid);
}

export const keptSource = (r: Reads, uid: string): EventSource | undefined => r.get('event_sources', uid);

/** The event as one calendar object: VEVENT (with its overridden instances) and the VTIMEZONE of its zone, UID the server's. */
export function eventIcs(e: StoredEvent, icalUid: string, now: Date): string {
  return toIcs([{ ...e, uid: icalUid }], { now, spanOf: (x) => span(x as StoredEvent) });
}

/**
 * The event as the calendar object to write back: its kept source with the changes since the
 * source was read written in, else the object kairos writes from the fields.
 */
export function writeBackIcs(e: StoredEvent, icalUid: string, now: Date, kept?: EventSource): string {
  const generated = () => eventIcs(e, icalUid, now);
  if (!kept) return generated();
  return rewriteSource({ source: kept.ics, base: kept.base, current: e, generated, now }) ?? generated();
}
