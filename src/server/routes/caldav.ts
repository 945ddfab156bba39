import { endpoint } from '../../contracts/endpoints.js';
import { route } from '../route.js';

/** Two-way CalDAV accounts (domain/sync/caldav-service.ts). */
export const caldavRoutes = [
  route({
    ...endpoint('POST /calendar/sync/accounts'),
    tag: 'calendar',
    summary: 'Add a CalDAV collection to sync with (the credentials are tried first; the password is kept in the home folder, mode 0600)',
    auth: 'calendar:write',
    authNote:
      "with `oauth`: the provider must be the user's own and the key their login or `admin` (an agent key: 403 `oauth_grant_forbidden`), the URL on the provider's hosts",
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
  route({
    ...endpoint('GET /calendar/sync/oauth'),
    tag: 'calendar',
    summary: 'Your OAuth providers and the state of their grants (never a token or secret)',
    auth: 'calendar:read',
    authNote: "the user's own login or `admin`; an agent key gets 403 `oauth_grant_forbidden`",
    handler: async ({ principal, services }) => ({ providers: await services.oauthGrants.list(principal) }),
  }),
  route({
    ...endpoint('DELETE /calendar/sync/oauth/{name}'),
    tag: 'calendar',
    summary: 'Remove one of your OAuth providers: its tokens and client secret are deleted and the provider is asked to revoke the grant',
    auth: 'calendar:write',
    authNote: "the user's own login or `admin`; an agent key gets 403 `oauth_grant_forbidden`, another user's provider 404",
    handler: ({ params, principal, services }) => services.oauthGrants.remove(principal, params.name),
  }),
];
