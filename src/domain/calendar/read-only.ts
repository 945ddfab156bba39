import { conflict } from '../../errors.js';
import type { StoredEvent } from './occurrences.js';

/**
 * Events of a subscription change only with their feed: an edit would be undone at the next
 * refresh, so it is refused with the reason (409 `read_only_event`) instead of silently lost.
 */
export function assertWritable(e: StoredEvent): void {
  if (e.source !== 'subscription') return;
  const name = e.subscription?.name ?? 'a subscription';
  throw conflict(
    `Event ${e.uid} comes from the subscription "${name}" and is read-only: it changes only when the feed does. Change it at its source, or unsubscribe (kairos cal unsubscribe ${e.subscription?.id ?? ''}).`.replace(
      ' ()',
      '',
    ),
    'read_only_event',
    [{ path: 'uid', message: 'a subscription event is read-only', subscription_id: e.subscription?.id ?? null }],
  );
}
