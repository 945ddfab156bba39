import { endpoint } from '../../contracts/endpoints.js';
import { route } from '../route.js';

export const chatRoutes = [
  route({
    ...endpoint('POST /chat/plan-preview'),
    tag: 'chat',
    summary: 'What a prompt would plan: events and reflections, each with the reason for its time; nothing is committed',
    description:
      'The offline default planner (or the configured language model, falling back to the default) reads dates, times, durations, tempo tags, recurrences and reschedules. `context.now` and `context.timezone` fix the reference time; `context.calendar` adds busy time.',
    auth: 'agent:plan',
    handler: ({ body, principal, services }) => services.planner.preview(principal, body),
  }),
  route({
    ...endpoint('POST /chat/respond'),
    tag: 'chat',
    summary: 'Answer a chat prompt: a scheduling prompt becomes a plan in the queue, a note proposed traces, a question an answer from memory',
    description:
      'A plan enters the queue as proposed (like POST /agent/plan with a prompt). Notes are proposed, not saved. Questions are answered from memory search (needs memory:read), with the uids used. `commands` lists what the client could run next.',
    auth: 'agent:plan',
    authNote: 'a question, answered from memory, also needs `memory:read`',
    handler: ({ body, principal, services }) => services.chat.respond(principal, body),
  }),
];
