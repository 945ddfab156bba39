import { endpoint } from '../../contracts/endpoints.js';
import { route } from '../route.js';

/** Subscriptions to remote .ics feeds (domain/sync/subscriptions-service.ts). */
export const subscriptionRoutes = [
  route({
    ...endpoint('POST /calendar/subscriptions'),
    tag: 'calendar',
    summary: 'Subscribe to a remote .ics feed (http, https or webcal); refreshed now and then every every_minutes',
    description:
      "The feed's events are imported with source `subscription` and are read-only. A refresh that fails (unreachable, HTTP error, not iCalendar, over 10 MiB) keeps the last good copy; the answer's `refresh` says what happened.",
    auth: 'calendar:write',
    handler: ({ body, principal, services }) => services.subscriptions.subscribe(principal, body),
  }),
  route({
    ...endpoint('GET /calendar/subscriptions'),
    tag: 'calendar',
    summary: 'Your subscriptions, with their last refresh, last error and event count',
    auth: 'calendar:read',
    handler: ({ principal, services }) => ({ subscriptions: services.subscriptions.list(principal) }),
  }),
  route({
    ...endpoint('POST /calendar/subscriptions/{id}/refresh'),
    tag: 'calendar',
    summary: 'Refresh a subscription now (conditional GET: ETag / If-Modified-Since)',
    auth: 'calendar:write',
    handler: ({ params, principal, services }) => services.subscriptions.refresh(principal, params.id),
  }),
  route({
    ...endpoint('DELETE /calendar/subscriptions/{id}'),
    tag: 'calendar',
    summary: 'Unsubscribe: the subscription and all the events of its feed are removed',
    auth: 'calendar:write',
    handler: ({ params, principal, services }) => services.subscriptions.remove(principal, params.id),
  }),
];
