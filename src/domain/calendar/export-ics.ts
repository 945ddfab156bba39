import { createHash } from 'node:crypto';
import { PAGE_BYTES } from '../../contracts/page.js';
import type { EventSource } from '../../contracts/stored.js';
import { validationFailed } from '../../errors.js';
import { icsPieces } from '../../ical/export.js';
import { TurnSlice } from '../../platform/turn-slice.js';
import type { Reads } from '../../store/store.js';
import { byStartThenUid, inputInstant } from './event-listing.js';
import { keptSource, writeBackIcs } from './kept-source.js';
import { isSeries, occurrencesIn, type StoredEvent, span } from './occurrences.js';

/** A calendar as iCalendar, ready to send: its strong validator first, then its bytes as a stream. */
export interface IcsAnswer {
  /** SHA-256 (base64url) of the bytes of `body`. */
  sha256: string;
  /** The bytes: whole when small, else a VEVENT (or a VTIMEZONE) at a time, so memory holds one whatever the calendar's size. */
  body: Buffer | AsyncIterable<Buffer>;
}

/**
 * A user's events as iCalendar: all of them, or those with an occurrence in [start, end) (and
 * the tag). The validator has to be known before the first byte is sent, so the body is made
 * twice: once to hash it, once as it is sent. An answer up to PAGE_BYTES is kept from the first
 * pass instead; a larger one is made again from the same events and kept texts (store documents
 * are frozen, and `now` is fixed), so the bytes sent are the bytes hashed. Both passes go a
 * slice per turn: a calendar of tens of thousands of events takes seconds.
 */
export async function exportIcs(
  store: Reads,
  userId: string,
  tz: string,
  now: Date,
  q: { start?: string; end?: string; tag?: string },
  name?: string,
): Promise<IcsAnswer> {
  const from = q.start ? inputInstant(q.start, tz) : -Infinity;
  const to = q.end ? inputInstant(q.end, tz) : Infinity;
  if (!(to > from)) throw validationFailed('end must be after start.', [{ path: 'end', message: 'must be after start' }]);
  const bounded = Number.isFinite(from) && Number.isFinite(to);
  const slice = new TurnSlice();
  const events: StoredEvent[] = [];
  const sources = new Map<string, EventSource>();
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
    const k = keptSource(store, e.uid);
    if (k) sources.set(e.uid, k);
  }
  events.sort(byStartThenUid);
  // An event synced from a CalDAV server is written as the server's text with the user's edits in it,
  // stamped with the time of the edit: the same calendar exports the same bytes.
  const keptOf = (e: StoredEvent) => {
    const k = sources.get(e.uid);
    return k && writeBackIcs(e, e.ical_uid ?? e.uid, new Date(e.updated_at), k);
  };
  // Bytes, a piece at a time: one string joined from tens of thousands (and Koa's encoding of it)
  // holds the loop too long.
  async function* pieces(): AsyncGenerator<Buffer> {
    for (const piece of icsPieces(events, { now, spanOf: span, keptOf, ...(name ? { name } : {}) })) {
      if (piece) yield Buffer.from(piece);
      await slice.maybeYield();
    }
  }
  const hash = createHash('sha256');
  let kept: Buffer[] | undefined = [];
  let size = 0;
  for await (const piece of pieces()) {
    hash.update(piece);
    size += piece.length;
    if (size > PAGE_BYTES) kept = undefined;
    else kept?.push(piece);
  }
  return { sha256: hash.digest('base64url'), body: kept ? Buffer.concat(kept) : pieces() };
}
