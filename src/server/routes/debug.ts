import { TraceDumpRequest, TraceDumpResponse } from '../../contracts/memory.js';
import { route } from '../route.js';

export const debugRoutes = [
  route({
    method: 'post',
    path: '/debug/trace-dump',
    tag: 'system',
    summary: 'A trace (or a task’s or event’s traces) with causal links both ways and the profile',
    auth: 'memory:read',
    debugOnly: true,
    body: TraceDumpRequest,
    response: TraceDumpResponse,
    handler: ({ body, principal, services }) => {
      const { traces, links, user_id } = services.memory.dump(principal, body);
      return { traces, links, profile: services.users.profile(user_id) };
    },
  }),
];
