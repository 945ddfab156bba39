import { endpoint } from '../../contracts/endpoints.js';
import { route } from '../route.js';

export const exportRoutes = [
  route({
    ...endpoint('GET /context/export'),
    tag: 'export',
    summary: "Export a user's memory context: summary, full, linked or diff",
    description:
      '`summary`: items `{uid, type, task_id, timestamp, summary}` ranked by importance and recency, `token_count` (o200k) never above `max_token_count`. ' +
      '`full`: traces oldest first. `linked`: the matching traces and everything they link to (linked_trace_ids, child_trace_ids, shared linked_event_uid), each once, with its `depth`. ' +
      '`diff`: `{added, removed, changed: [{uid, from_version, to_version, patch}]}` between `since` or `from_checkpoint` and `until`, `to_checkpoint` or now. ' +
      '`checkpoint=<name>` saves the version of every selected trace (409 when the name is taken). authored_by and chat_url never appear. ' +
      'Responses are cached per (user, parameters) for the configured lifetime and cleared by any write to the user’s data: `X-Cache: HIT|MISS`.',
    auth: 'export:read',
    handler: async ({ query, principal, services, ctx }) => {
      const { body, cache } = await services.exporter.export(principal, query);
      ctx.set('X-Cache', cache);
      return body;
    },
  }),
  route({
    ...endpoint('GET /context/checkpoints'),
    tag: 'export',
    summary: 'The export checkpoints of a user, oldest first',
    auth: 'export:read',
    handler: ({ query, principal, services }) => services.exporter.checkpoints(principal, query.user_id),
  }),
];
