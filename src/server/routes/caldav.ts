import { endpoint } from '../../contracts/endpoints.js';
import { route } from '../route.js';

/** Two-way CalDAV accounts (domain/sync/caldav-service.ts). */
export const caldavRoutes = [
  route({
    ...endpoint('POST /calendar/sync/accounts'),
    tag: 'calendar',
    summary: 'Add a CalDAV collection to sync with (the credentials are tried first; the password is kept in the home folder, mode 0600)',
    auth: 'calendar:write',
    handler: ({ body, principal, services }) => services.caldav.add(principal, body),
  }),
  route({
    ...endpoint('GET /calendar/sync/accounts'),
    tag: 'calendar',
    summary: 'Your CalDAV accounts: last sync, its counts and last error (never the password)',
    auth: 'calendar:read',
    handler: ({ principal, services }) => ({ accounts: services.caldav.list(principal) }),
  }),
  route({
    ...endpoint('POST /calendar/sync/run'),
    tag: 'calendar',
    summary: 'Sync now: one account (name) or all of yours; the answer lists counts and conflicts',
    auth: 'calendar:write',
    handler: async ({ query, principal, services }) => ({ runs: await services.caldav.run(principal, query.name) }),
  }),
  route({
    ...endpoint('DELETE /calendar/sync/accounts/{name}'),
    tag: 'calendar',
    summary: 'Remove an account and its stored password; its events stay in kairos',
    auth: 'calendar:write',
    handler: ({ params, principal, services }) => services.caldav.remove(principal, params.name),
  }),
];
