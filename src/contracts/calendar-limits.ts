import { MAX_OCCURRENCES_PER_DAY } from '../time/rrule.js';

/**
 * Limits that keep one calendar event or one request from hurting the daemon (SPEC §7). One
 * place for the API (`POST /calendar/create`, `PATCH /calendar/edit`, listings) and the .ics
 * import, which applies the same per-event limits through `checkSeriesLimits`
 * (src/domain/calendar/series-limits.ts). A refusal is 422 `validation_failed` whose `details`
 * carry `{path, message, limit, max}` with `limit` one of the names below.
 */
export const CALENDAR_LIMITS = {
  /** RDATEs of one event. */
  max_rdates: 5000,
  /** EXDATEs of one event. */
  max_exdates: 5000,
  /** Changed occurrences (RECURRENCE-ID overrides) of one series. */
  max_overrides: 1000,
  /** Starts of one series on one local day (rule and RDATEs): HOURLY is the densest rule allowed. */
  max_occurrences_per_day: MAX_OCCURRENCES_PER_DAY,
  /** Occurrences a series expands to from its start; a longer (endless) series ends there. */
  max_series_occurrences: 100_000,
  /** Items one `GET /calendar/events` may return. */
  max_listing_occurrences: 10_000,
  /** Estimated bytes of one listing's JSON (each item's texts plus a fixed share for its fields). */
  max_listing_bytes: 16 * 1024 * 1024,
  /** Days one expanded listing may span (start to end). */
  max_listing_days: 366,
  /** Busy intervals the conflict check of a create or edit looks at (sort and sweep, then stops). */
  max_conflict_intervals: 20_000,
  /**
   * Steps of recurrence expansion one request may spend (a day tested against a rule, a candidate
   * time, a period: src/domain/calendar/expand.ts). A count, not a clock, so the same request gets
   * the same answer on any machine; at most about 100 ms of CPU on a slow one.
   */
  max_expansion_steps: 100_000,
  /** Wall-clock time (ms) reading one imported file may take, in its worker thread. */
  import_parse_ms: 120_000,
  /** Heap (MB) reading one imported file may use, in its worker thread. */
  import_parse_memory_mb: 512,
} as const;

export type CalendarLimit = keyof typeof CALENDAR_LIMITS;
