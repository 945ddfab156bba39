import { endpoint } from '../../contracts/endpoints.js';
import { LoopGapMonitor } from '../loop-gap.js';
import { route } from '../route.js';
import type { Services } from '../services.js';

/** One monitor per app (per daemon), started by its first read. */
const monitors = new WeakMap<Services, LoopGapMonitor>();

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
  route({
    ...endpoint('GET /debug/event-loop'),
    tag: 'system',
    summary: 'The longest the event loop was held since the previous read (a 5 ms timer’s worst gap); the first read starts the timer',
    auth: 'admin',
    debugOnly: true,
    handler: ({ services }) => {
      let m = monitors.get(services);
      if (!m) monitors.set(services, (m = new LoopGapMonitor()));
      m.start();
      return m.read();
    },
  }),
];
