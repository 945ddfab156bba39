import { Readable } from 'node:stream';
import { ICS_LIMIT } from '../../contracts/calendar.js';
import { endpoint } from '../../contracts/endpoints.js';
import { PAGE_SIZE_TEXT } from '../../contracts/page.js';
import { badRequest } from '../../errors.js';
import { jsonInSlices } from '../../store/json-in-slices.js';
import { icsResponse } from '../ics-response.js';
import { route } from '../route.js';

export const calendarRoutes = [
  route({
    ...endpoint('POST /calendar/create'),
    tag: 'calendar',
    summary: 'Create an event (one-off or recurring); the answer lists the events it overlaps',
    auth: 'calendar:write',
    handler: ({ body, principal, services }) => services.calendar.create(principal, body),
  }),
  route({
    ...endpoint('GET /calendar/events'),
    tag: 'calendar',
    summary: 'Events in a range, recurring series expanded into occurrences',
    description: `Sorted by start. In pages of up to ${PAGE_SIZE_TEXT} (an occurrence repeats its series' texts): \`next_cursor\` is null on the last page.`,
    auth: 'calendar:read',
    // A page of 10,000 short items is as large as one of long texts: serialized a slice per turn of the event loop, not in one stringify.
    handler: async ({ query, principal, services, ctx }) => {
      const page = await services.calendar.listPage(principal.userId, query);
      const parts = await jsonInSlices(page, { indent: 0, levels: 2 });
      ctx.type = 'application/json';
      return Readable.from(parts);
    },
  }),
  route({
    ...endpoint('GET /calendar/free'),
    tag: 'calendar',
    summary: "Free time on one day: the profile's day less timed events and blocked time (all-day events take none)",
    auth: 'calendar:read',
    handler: ({ query, principal, services }) => services.calendar.free(principal.userId, query),
  }),
  route({
    ...endpoint('PATCH /calendar/edit'),
    tag: 'calendar',
    summary: 'Change an event (or, with recurrence_id, one occurrence of a series)',
    auth: 'calendar:write',
    handler: ({ body, principal, services }) => services.calendar.edit(principal, body),
  }),
  route({
    ...endpoint('DELETE /calendar/remove'),
    tag: 'calendar',
    summary: 'Remove an event (or, with recurrence_id, one occurrence of a series)',
    auth: 'calendar:write',
    handler: ({ query, principal, services }) => services.calendar.remove(principal, query.uid, query.recurrence_id),
  }),
  route({
    ...endpoint('POST /calendar/import'),
    tag: 'calendar',
    summary: 'Import an iCalendar file (text/calendar body, or JSON {ics}); idempotent by UID',
    description:
      'A file with broken events imports the rest and reports each broken one with its UID and line. Up to 10 MiB; a large file is read in a worker thread (import_parse_ms, import_parse_memory_mb) and stored 100 events per transaction.',
    auth: 'calendar:write',
    bodyLimit: ICS_LIMIT,
    handler: ({ body, raw, query, principal, services }) => {
      const text = raw ?? body?.ics;
      if (text === undefined || !text.trim()) throw badRequest('Send the iCalendar text as a text/calendar body, or as JSON {"ics": "..."}.');
      return services.calendar.import(principal, text, query?.name);
    },
  }),
  route({
    ...endpoint('GET /calendar/export.ics'),
    tag: 'calendar',
    summary: 'Events as an RFC 5545 iCalendar file',
    description: 'With a strong `ETag` and `Last-Modified`: `If-None-Match` / `If-Modified-Since` that still match answer 304.',
    auth: 'calendar:read',
    handler: async ({ query, principal, services, ctx }) => {
      const modified = services.calendar.exportModifiedAt(principal.userId);
      return icsResponse(ctx, 'kairos.ics', await services.calendar.exportIcs(principal.userId, query), modified);
    },
  }),
  route({
    ...endpoint('GET /calendar/feed.ics'),
    tag: 'calendar',
    summary: 'Subscription feed for calendar apps (key in the query: they cannot send headers)',
    description:
      'Authenticated by the `key` query parameter: an API key with calendar:feed (what `kairos cal subscribe-url` mints) or calendar:read (older subscriptions). ' +
      'With a strong `ETag` and `Last-Modified`: a poller that revalidates (`If-None-Match` / `If-Modified-Since`) gets 304 while nothing changed.',
    auth: { anyOf: ['calendar:feed', 'calendar:read'], keyIn: 'query' },
    handler: async ({ query, principal, services, ctx }) => {
      const modified = services.calendar.exportModifiedAt(principal.userId);
      const answer = await services.calendar.exportIcs(principal.userId, { ...(query.tag ? { tag: query.tag } : {}) }, 'kairos');
      return icsResponse(ctx, 'kairos-feed.ics', answer, modified);
    },
  }),
];
