import type { RefreshOutcome } from '../../../../contracts/sync.js';

/** One line saying what a refresh did. */
export function refreshLine(r: RefreshOutcome): string {
  if (r.status === 'failed')
    return `Refresh failed (${r.error?.code}): ${r.error?.message} The last good copy is kept.`.replace('kept. The last good copy is kept.', 'kept.');
  if (r.status === 'not_modified') return 'Refreshed: the feed has not changed.';
  const bad = r.errors.length ? `, ${r.errors.length} event(s) unreadable (their last good copy kept)` : '';
  return `Refreshed: ${r.imported} new, ${r.updated} updated, ${r.removed} removed, ${r.unchanged} unchanged${bad}.`;
}
