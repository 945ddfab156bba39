import { endpoint } from '../../contracts/endpoints.js';
import { agentStatus } from '../../domain/status.js';
import { route } from '../route.js';
import { AGENT_ANY } from './agent.js';

export const statusRoutes = [
  route({
    ...endpoint('GET /agent/status'),
    tag: 'agent',
    summary: 'Runtime status: uptime, version, plan queue counts, planner, store sizes',
    auth: AGENT_ANY,
    handler: async ({ principal, services }) => ({
      ...(await agentStatus({
        store: services.store,
        clock: services.clock,
        version: services.version,
        startedAt: services.startedAt,
        planner: services.planner.info(),
        userId: principal.userId,
        model: services.semantic.modelStatus(),
      })),
      sync: {
        accounts: services.caldav.list(principal).map(({ name, last_sync_at, last_counts, last_error }) => ({ name, last_sync_at, last_counts, last_error })),
        subscriptions: services.subscriptions
          .list(principal)
          .map(({ id, name, last_refresh_at, event_count, last_error }) => ({ id, name, last_refresh_at, event_count, last_error })),
      },
    }),
  }),
];
