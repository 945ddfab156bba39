import { z } from 'zod';
import { rruleProblem } from '../time/rrule.js';
import { CALENDAR_LIMITS } from './calendar-limits.js';
import { IsoDateTime, QueryBool } from './common.js';
import { NextCursor, PageCursor } from './page.js';
import { TimeZone } from './users.js';

export const EVENT_STATUSES = ['confirmed', 'tentative', 'cancelled'] as const;
export const EVENT_SOURCES = ['api', 'import', 'agent', 'subscription', 'caldav'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];
export type EventSource = (typeof EVENT_SOURCES)[number];

/** Start of an event: a date-time with offset, or a plain date for an all-day event. */
export const EventStart = z.union([IsoDateTime, z.iso.date()]).describe('ISO 8601 date-time with offset; a plain date (YYYY-MM-DD) only with all_day: true');

const Title = z.string().trim().min(1).max(1000);
const Duration = z
  .number()
  .int('whole minutes')
  .positive('must be > 0')
  .max(366 * 1440, 'at most a year');
const Text = z.string().max(100_000);
const Tag = z.string().trim().min(1).max(100).describe('free label used to filter listings and exports (e.g. a tempo tag such as @deep-work)');
const TaskId = z.string().min(1).max(255);
export const Rrule = z
  .string()
  .superRefine((v, ctx) => {
    const problem = rruleProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: `malformed RRULE: ${problem}` });
  })
  .describe('RFC 5545 RRULE value, e.g. FREQ=WEEKLY;BYDAY=MO,WE;COUNT=10 (expanded in the event time zone)');
const limitedInstants = (limit: 'max_rdates' | 'max_exdates', what: string) =>
  z.array(IsoDateTime).max(CALENDAR_LIMITS[limit], `at most ${CALENDAR_LIMITS[limit]} ${what} per event (limit ${limit})`);
const Rdates = limitedInstants('max_rdates', 'RDATEs');
const Exdates = limitedInstants('max_exdates', 'EXDATEs');

/** A changed instance of a series (iCalendar RECURRENCE-ID), kept on the series. */
export const EventOverride = z
  .object({
    recurrence_id: IsoDateTime.describe('original start of the occurrence it replaces (UTC)'),
    scheduled_for: IsoDateTime,
    duration_minutes: z.number(),
    title: z.string().optional(),
    description: z.string().optional().describe("the instance's own; '' when it has none though the series has one; absent: the series'"),
    location: z.string().optional().describe("the instance's own; '' when it has none though the series has one; absent: the series'"),
    status: z.enum(EVENT_STATUSES).optional(),
    all_day: z.boolean().optional().describe('the instance is all-day where its series is not, or the reverse (an imported override)'),
  })
  .meta({ id: 'EventOverride' });
export type EventOverride = z.infer<typeof EventOverride>;

const eventFields = {
  uid: z.string(),
  ical_uid: z.string().optional().describe("the imported iCalendar UID, when it differs from uid (another user's event already had that uid)"),
  import_id: z.string().optional().describe('im_ id of the import that created the event (undo and remove-by-import find it by this)'),
  user_id: z.string(),
  title: z.string(),
  scheduled_for: IsoDateTime.describe('start (UTC); for an occurrence, the occurrence start'),
  duration_minutes: z.number(),
  task_id: z.string().nullable(),
  tag: z.string().nullable(),
  description: z.string().optional(),
  location: z.string().optional(),
  all_day: z.boolean(),
  timezone: z.string().describe('IANA zone whose wall clock the event keeps (recurrence, all-day dates)'),
  rrule: z.string().optional(),
  rdates: z.array(IsoDateTime).optional().describe('extra occurrence starts (iCalendar RDATE)'),
  exdates: z.array(IsoDateTime).optional().describe('excluded occurrence starts (iCalendar EXDATE)'),
  overrides: z.array(EventOverride).optional(),
  status: z.enum(EVENT_STATUSES),
  source: z.enum(EVENT_SOURCES),
  subscription: z
    .object({ id: z.string(), name: z.string(), uid: z.string().describe("the event's UID in the feed") })
    .optional()
    .describe('the feed a subscription event comes from (read-only: it changes only with the feed)'),
  created_at: IsoDateTime,
  updated_at: IsoDateTime,
  version: z.number().int().min(1),
};

export const CalendarEvent = z.object(eventFields).meta({ id: 'CalendarEvent' });

/** One item of a listing: an event, or one occurrence of a recurring series. */
export const EventItem = z
  .object({
    ...eventFields,
    occurrence_of: z.string().optional().describe('uid of the series this occurrence belongs to'),
    recurrence_id: IsoDateTime.optional().describe('original start of this occurrence (identifies it in edit/remove)'),
  })
  .meta({ id: 'CalendarEventItem' });
export type EventItem = z.infer<typeof EventItem>;

export const CreatedEvent = CalendarEvent.extend({
  conflicts: z.array(z.string()).describe('uids of events (or series) overlapping the new event'),
  conflicts_truncated: z
    .literal(true)
    .optional()
    .describe('present when the conflict check stopped at its cap (max_conflict_intervals or the expansion budget): conflicts may be incomplete'),
}).meta({ id: 'CreatedEvent' });

export const CreateEventRequest = z
  .object({
    title: Title,
    scheduled_for: EventStart,
    duration_minutes: Duration.optional().describe('default 60 (all-day: 1440 per day)'),
    task_id: TaskId.optional(),
    tag: Tag.optional(),
    description: Text.optional(),
    location: z.string().max(1000).optional(),
    all_day: z.boolean().optional(),
    timezone: TimeZone.optional().describe("IANA zone; default the user's"),
    rrule: Rrule.optional(),
    rdates: Rdates.optional(),
    exdates: Exdates.optional(),
    status: z.enum(EVENT_STATUSES).optional(),
  })
  .strict();
export type CreateEventInput = z.infer<typeof CreateEventRequest>;

export const EventUpdates = z
  .object({
    title: Title,
    scheduled_for: EventStart,
    duration_minutes: Duration,
    task_id: TaskId.nullable(),
    tag: Tag.nullable(),
    description: Text.nullable(),
    location: z.string().max(1000).nullable(),
    all_day: z.boolean(),
    timezone: TimeZone,
    rrule: Rrule.nullable(),
    rdates: Rdates.nullable(),
    exdates: Exdates.nullable(),
    status: z.enum(EVENT_STATUSES),
  })
  .partial()
  .strict()
  .refine((u) => Object.keys(u).length > 0, { message: 'name at least one field to change' });
export type EventUpdates = z.infer<typeof EventUpdates>;

export const EditEventRequest = z
  .object({
    uid: z.string().min(1),
    updates: EventUpdates,
    expected_version: z.number().int().min(1).optional().describe('refuse with 409 version_conflict unless the event is at this version'),
    recurrence_id: IsoDateTime.optional().describe(
      'edit only this occurrence of a series (an override); title, scheduled_for, duration_minutes, description, location, status',
    ),
  })
  .strict();

const QueryInstant = z.union([IsoDateTime, z.iso.date()]).describe("ISO 8601 date-time with offset, or a date (midnight in the user's zone)");

export const EventsQuery = z.object({
  start: QueryInstant.optional().describe('default: now (with expand=false: no lower bound)'),
  end: QueryInstant.optional().describe('default: start + 30 days (with expand=false: no upper bound)'),
  tag: z.string().optional(),
  expand: QueryBool.optional().describe('default true; false lists each series once, as stored (with its rule, exdates and overrides)'),
  cursor: PageCursor,
});

export const EventList = z.object({ events: z.array(EventItem), next_cursor: NextCursor });

export const RemoveQuery = z.object({
  uid: z.string().min(1),
  recurrence_id: IsoDateTime.optional().describe('remove only this occurrence of a series (adds an EXDATE)'),
});
export const Removed = z.object({ deleted: z.string(), recurrence_id: IsoDateTime.optional() });

export const ImportRequest = z.object({ ics: z.string().describe('iCalendar text') }).strict();
export const ImportQuery = z.object({ name: z.string().trim().min(1).max(200).optional().describe('the file name, for the summary trace') });

const ImportProblem = z.object({ uid: z.string().optional(), line: z.number().int().optional(), message: z.string() });
export const ImportReport = z
  .object({
    imported: z.number().int().describe('new events'),
    updated: z.number().int().describe('events whose UID existed and whose content changed'),
    skipped: z.number().int().describe('events already present unchanged, and components that are not events'),
    errors: z.array(ImportProblem).describe('events that could not be imported (the rest was)'),
    warnings: z.array(ImportProblem).describe('imported with a change: a derived UID, an unsupported property dropped…'),
    import_id: z.string().optional().describe('im_ id of this import, when it stored anything: `kairos undo` and remove-by-import use it'),
    trace_uid: z.string().optional().describe('the one calendar_event trace that summarises the import'),
  })
  .meta({ id: 'ImportReport' });
export type ImportReport = z.infer<typeof ImportReport>;

export const ExportQuery = z.object({
  start: QueryInstant.optional().describe('only events with an occurrence at or after this'),
  end: QueryInstant.optional().describe('only events with an occurrence before this'),
  tag: z.string().optional(),
});

export const FeedQuery = z.object({
  key: z.string().min(1).describe('an API key with the calendar:feed (or calendar:read) scope'),
  tag: z.string().optional(),
});

export const ICS_MIME = 'text/calendar';
export const ICS_LIMIT = 10 * 1024 * 1024;

export { CALENDAR_LIMITS, type CalendarLimit } from './calendar-limits.js';

export const FreeTimeQuery = z.object({
  date: z.iso.date().describe("the day (YYYY-MM-DD) in the person's zone"),
  duration_minutes: z.coerce.number().int().min(1).max(1440).describe('shortest gap worth listing'),
  tag: z.string().optional().describe("search inside this tag's time range instead of the waking day"),
});
const Span = z.object({ start: IsoDateTime, end: IsoDateTime });
export const FreeTime = z
  .object({
    date: z.iso.date(),
    timezone: z.string(),
    duration_minutes: z.number().int(),
    day: z.array(Span).describe("the profile's day searched (a tag's range, or waking hours)"),
    slots: z.array(Span.extend({ minutes: z.number().int() })).describe('free gaps of at least duration_minutes, in order'),
    all_day: z.array(z.string()).describe('titles of all-day events that day (they take no time)'),
    blocked: z.array(Span.extend({ label: z.string().optional() })).describe('blocked time of the profile that day'),
  })
  .meta({ id: 'FreeTime' });
export type FreeTime = z.infer<typeof FreeTime>;
