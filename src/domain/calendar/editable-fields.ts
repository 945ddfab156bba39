import type { StoredEvent } from '../../contracts/stored.js';
import type { EventDraft } from './normalize-event.js';

/** The fields of an event its owner sets (what an edit, an import or a sync may change). */
export const CORE_KEYS = [
  'title',
  'scheduled_for',
  'duration_minutes',
  'task_id',
  'tag',
  'description',
  'location',
  'all_day',
  'timezone',
  'rrule',
  'rdates',
  'exdates',
  'status',
] as const;

/**
 * The fields a remote calendar (a feed or a CalDAV collection) sets: the core without `task_id`
 * (a link to memory is local only), plus the series' `overrides`, which travel with it.
 */
export const FEED_FIELDS = [...CORE_KEYS.filter((k): k is Exclude<(typeof CORE_KEYS)[number], 'task_id'> => k !== 'task_id'), 'overrides'] as const;

/** The owner-set fields of a stored event, as a draft to merge updates into. */
export function coreOf(e: StoredEvent): EventDraft {
  const out: Record<string, unknown> = {};
  for (const k of CORE_KEYS) if (e[k] !== undefined) out[k] = e[k];
  return out as unknown as EventDraft;
}

/** A stored event without its owner-set fields (so a normalized core can replace them wholesale). */
export function stripCore(e: StoredEvent): StoredEvent {
  const copy: Record<string, unknown> = { ...e };
  for (const k of CORE_KEYS) delete copy[k];
  return copy as StoredEvent;
}
