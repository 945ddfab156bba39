import { AgentStatus } from '../../contracts/status.js';
import { agentStatus } from '../../domain/status.js';
import { route } from '../route.js';
import { AGENT_ANY } from './agent.js';

export const statusRoutes = [
  route({
    method: 'get',
    path: '/agent/status',
    tag: 'agent',
    summary: 'Runtime status: uptime, version, plan queue counts, planner, store sizes',
    auth: AGENT_ANY,
    response: AgentStatus,
    handler: ({ principal, services }) =>
      agentStatus({
        store: services.store,
        clock: services.clock,
        version: services.version,
        startedAt: services.startedAt,
        planner: services.planner.info(),
        userId: principal.userId,
        model: services.semantic.modelStatus(),
      }),
  }),
];
