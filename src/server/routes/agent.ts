import { endpoint } from '../../contracts/endpoints.js';
import { PAGE_SIZE_TEXT } from '../../contracts/page.js';
import { requireScope } from '../../domain/principal.js';
import { type RouteAuth, route } from '../route.js';

/** Reading the queue and plans: any agent scope. */
export const AGENT_ANY: RouteAuth = { anyOf: ['agent:plan', 'agent:approve', 'agent:execute'] };

export const agentRoutes = [
  route({
    ...endpoint('POST /agent/plan'),
    tag: 'agent',
    summary: 'Propose a plan: an agent’s own actions, or a prompt for the planner; it enters the queue as proposed',
    description:
      'Actions are checked structurally (422 plan_invalid) and against the user’s agent constraints — blocked slots, cadence, budgets (422 constraint_violation, every violation in details). The plan gets an agent_plan trace; agent_id comes from the key.',
    auth: 'agent:plan',
    handler: ({ body, principal, services }) => services.plans.propose(principal, body),
  }),
  route({
    ...endpoint('GET /agent/queue'),
    tag: 'agent',
    summary: 'Plans by status (default: proposed, i.e. awaiting review), oldest first',
    description: `In pages of up to ${PAGE_SIZE_TEXT}: \`next_cursor\` is null on the last page.`,
    auth: AGENT_ANY,
    handler: ({ query, principal, services }) => services.plans.queue(principal, query),
  }),
  route({
    ...endpoint('GET /agent/plans/{plan_id}'),
    tag: 'agent',
    summary: 'One plan, whatever its status',
    auth: AGENT_ANY,
    handler: ({ params, principal, services }) => services.plans.get(principal, params.plan_id),
  }),
  route({
    ...endpoint('POST /agent/approve'),
    tag: 'agent',
    summary: 'Approve a proposed plan, optionally with edited actions (re-checked) and executing it at once',
    description: 'Edited actions mark the plan edited: true. With execute: true, approval and execution commit together or not at all.',
    auth: 'agent:approve',
    handler: ({ body, principal, services }) => services.plans.approve(principal, body),
  }),
  route({
    ...endpoint('POST /agent/reject'),
    tag: 'agent',
    summary: 'Reject a proposed plan (the reason is kept)',
    auth: 'agent:approve',
    handler: ({ body, principal, services }) => services.plans.reject(principal, body),
  }),
  route({
    ...endpoint('POST /agent/execute'),
    tag: 'agent',
    summary: 'Execute an approved plan (or every approved plan of a task) atomically, or simulate it',
    description:
      'Executing needs agent:approve (the person stays in the loop); a simulation (simulate: true) also works with agent:execute, and commits nothing — the store stays byte-identical.',
    auth: { anyOf: ['agent:approve', 'agent:execute'] },
    authNote: 'executing (simulate absent or false) needs `agent:approve`',
    handler: ({ body, principal, services }) => {
      if (!body.simulate) requireScope(principal, 'agent:approve');
      return services.plans.execute(principal, body);
    },
  }),
  route({
    ...endpoint('POST /agent/feedback'),
    tag: 'agent',
    summary: 'Rate, comment on or revise a trace or a plan; logged as a trace, used to learn duration biases',
    auth: 'memory:write',
    handler: ({ body, principal, services }) => services.plans.feedback(principal, body),
  }),
];
