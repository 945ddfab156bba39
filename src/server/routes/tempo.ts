import { endpoint } from '../../contracts/endpoints.js';
import { targetUser } from '../../domain/principal.js';
import { route } from '../route.js';

export const tempoRoutes = [
  route({
    ...endpoint('GET /tempo/tags'),
    tag: 'tempo',
    summary: "Tempo tags: the built-in ones and every tag used in the user's traces, events and profile",
    auth: 'tempo:read',
    handler: ({ query, principal, services }) => services.tempo.tags(targetUser(principal, query.user_id)),
  }),
  route({
    ...endpoint('GET /tempo/profile'),
    tag: 'tempo',
    summary: 'The tempo profile: time ranges, tag mappings, duration biases and the constraints on agents',
    auth: 'tempo:read',
    handler: ({ query, principal, services }) => services.tempo.profile(targetUser(principal, query.user_id)),
  }),
  route({
    ...endpoint('POST /tempo/adjust'),
    tag: 'tempo',
    summary: 'Change the tempo profile: a partial update that merges',
    description:
      'Objects (time_ranges, tag_mappings, duration_biases, cadence, budget, budget.per_agent) merge key by key and null removes a key; ' +
      '`blocked` replaces the whole list. Every range and tag is validated (422, `invalid_tempo_tag` for a malformed tag). Returns the profile.',
    auth: 'tempo:write',
    handler: ({ body, principal, services }) => services.tempo.adjust(targetUser(principal, body.user_id), body.preferences),
  }),
];
