import { validationFailed } from '../../errors.js';
import { icsPieces } from '../../ical/export.js';
import { TurnSlice } from '../../platform/turn-slice.js';
import type { Reads } from '../../store/store.js';
import { byStartThenUid, inputInstant } from './event-listing.js';
import { keptSource, writeBackIcs } from './kept-source.js';
import { isSeries, occurrencesIn, type StoredEvent, span } from './occurrences.js';

/**
 * A user's events as iCalendar: all of them, or those with an occurrence in [start, end) (and
 * the tag). Built a slice per turn: a calendar of tens of thousands of events takes seconds.
 */
export async function exportIcs(
  store: Reads,
  userId: string,
  tz: string,
  now: Date,
  q: { start?: string; end?: string; tag?: string },
  name?: string,
): Promise<Buffer> {
  const from = q.start ? inputInstant(q.start, tz) : -Infinity;
  const to = q.end ? inputInstant(q.end, tz) : Infinity;
  if (!(to > from)) throw validationFailed('end must be after start.', [{ path: 'end', message: 'must be after start' }]);
  const bounded = Number.isFinite(from) && Number.isFinite(to);
  const slice = new TurnSlice();
  const events: StoredEvent[] = [];
  for (const e of store.byIndex('events', 'user_id', userId)) {
    await slice.maybeYield();
    if (q.tag !== undefined && e.tag !== q.tag) continue;
    if (from !== -Infinity || to !== Infinity) {
      const s = span(e);
      if (s.first >= to || (s.last !== undefined && s.last <= from)) continue;
      // A series spanning the range may still have no occurrence in it.
      if (isSeries(e) && bounded && occurrencesIn(e, from, to).length === 0) continue;
    }
    events.push(e);
  }
  events.sort(byStartThenUid);
  // Bytes, a piece at a time: one string joined from tens of thousands (and Koa's encoding of it)
  // holds the loop too long; Buffer.concat is one copy.
  const pieces: Buffer[] = [];
  // An event synced from a CalDAV server is written as the server's text with the user's edits in it,
  // stamped with the time of the edit: the same calendar exports the same bytes.
  const keptOf = (e: StoredEvent) => {
    const k = keptSource(store, e.uid);
    return k && writeBackIcs(e, e.ical_uid ?? e.uid, new Date(e.updated_at), k);
  };
  for (const piece of icsPieces(events, { now, spanOf: span, keptOf, ...(name ? { name } : {}) })) {
    if (piece) pieces.push(Buffer.from(piece));
    await slice.maybeYield();
  }
  return Buffer.concat(pieces);
}
