import { endpoint } from '../../contracts/endpoints.js';
import { route } from '../route.js';

/** The person's recent changes and taking them back (`kairos undo`), and bulk removal of events. */
export const changesRoutes = [
  route({
    ...endpoint('GET /changes'),
    tag: 'calendar',
    summary: 'Recent changes that can be undone (executed plans, imports, event edits), newest first',
    auth: 'calendar:read',
    handler: ({ query, principal, services }) => ({ changes: services.undo.list(principal, query.limit) }),
  }),
  route({
    ...endpoint('POST /changes/undo'),
    tag: 'calendar',
    summary: 'Undo the newest change (or the one named): remove what a plan or an import added, restore an edited event',
    auth: 'calendar:write',
    handler: ({ body, principal, services }) => services.undo.undo(principal, body),
  }),
  route({
    ...endpoint('POST /calendar/remove-many'),
    tag: 'calendar',
    summary: 'Remove every event an import created, or every event of a source, leaving one summary trace',
    auth: 'calendar:write',
    handler: ({ body, principal, services }) => services.calendar.removeMany(principal, body),
  }),
];
