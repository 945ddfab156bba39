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
