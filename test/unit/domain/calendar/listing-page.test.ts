import { describe, expect, it } from 'vitest';
import { byStartThenUid } from '../../../../src/domain/calendar/event-listing.js';
import { listingPage } from '../../../../src/domain/calendar/listing-page.js';

// Items of 1.5 MB: two to a page of PAGE_BYTES.
const text = 'x'.repeat(1_500_000);
const at = '2031-01-17T09:00:00.000Z';
const ITEMS = [
  { scheduled_for: '2031-01-16T09:00:00.000Z', uid: 'a', text },
  // Three items on one start: an event and two occurrences of one series (one moved there by an override).
  { scheduled_for: at, uid: 'b', text },
  { scheduled_for: at, uid: 'c', recurrence_id: '2031-01-16T09:00:00.000Z', text },
  { scheduled_for: at, uid: 'c', recurrence_id: at, text },
  { scheduled_for: '2031-01-18T09:00:00.000Z', uid: 'a', text },
].sort(byStartThenUid);

describe('listingPage', () => {
  it('goes on exactly after the last item of a page, also between items sharing a start and uid', () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const p = listingPage(ITEMS, cursor);
      expect(p.events.length).toBeLessThanOrEqual(2);
      seen.push(...p.events.map((e) => `${e.scheduled_for} ${e.uid} ${e.recurrence_id ?? ''}`));
      cursor = p.next_cursor ?? undefined;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(ITEMS.map((e) => `${e.scheduled_for} ${e.uid} ${e.recurrence_id ?? ''}`));
  });

  it('a cursor past an item that is gone goes on from the next one', () => {
    const first = listingPage(ITEMS, undefined);
    const rest = ITEMS.filter((e) => e !== first.events[1]);
    expect(listingPage(rest, first.next_cursor!).events[0]).toBe(ITEMS[2]);
  });
});
