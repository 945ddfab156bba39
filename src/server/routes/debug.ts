import { endpoint } from '../../contracts/endpoints.js';
import { route } from '../route.js';

export const debugRoutes = [
  route({
    ...endpoint('POST /debug/trace-dump'),
    tag: 'system',
    summary: 'A trace (or a task’s or event’s traces) with causal links both ways and the profile',
    auth: 'memory:read',
    debugOnly: true,
    handler: ({ body, principal, services }) => {
      const { traces, links, user_id } = services.memory.dump(principal, body);
      return { traces, links, profile: services.users.profile(user_id) };
    },
  }),
];
