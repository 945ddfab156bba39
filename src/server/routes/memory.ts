import { endpoint } from '../../contracts/endpoints.js';
import type { TraceUpdates } from '../../contracts/memory.js';
import { PAGE_SIZE_TEXT } from '../../contracts/page.js';
import { route } from '../route.js';

export const memoryRoutes = [
  route({
    ...endpoint('POST /memory/push'),
    tag: 'memory',
    summary: 'Save a batch of traces, all or nothing',
    description:
      'One invalid trace refuses the whole batch (422 naming its index, e.g. `traces.3.type`); an existing uid → 409. Server-made uids start with `tr_`; `authored_by` is the agent id of an agent key.',
    auth: 'memory:write',
    handler: ({ body, principal, services }) => services.memory.push(principal, body.traces),
  }),
  route({
    ...endpoint('GET /memory/pull'),
    tag: 'memory',
    summary: 'List traces by user, task, tempo tag, type and time range',
    description: 'Ordered by timestamp then uid; time bounds inclusive; `next_cursor` is null on the last page.',
    auth: 'memory:read',
    handler: ({ query, principal, services }) => services.memory.pull(principal, query),
  }),
  route({
    ...endpoint('PATCH /memory/edit'),
    tag: 'memory',
    summary: 'Edit a trace: version + 1, with history',
    description:
      'uid, user_id, version, created_at, updated_at and authored_by are not editable (422). A stale `expected_version` → 409 version_conflict; a transition trace → 409 immutable_trace. A null value clears an optional field.',
    auth: 'memory:write',
    handler: ({ body, principal, services }) =>
      services.memory.edit(principal, { uid: body.uid, updates: body.updates as TraceUpdates, expected_version: body.expected_version }),
  }),
  route({
    ...endpoint('GET /memory/history'),
    tag: 'memory',
    summary: 'Every version of a trace with its RFC 6902 patch and actor',
    description:
      'Oldest first. Applying the patches in order to `{}` rebuilds the current trace (version 1 adds the whole trace at path ""). In pages of up to ' +
      `${PAGE_SIZE_TEXT}: \`next_cursor\` is null on the last page.`,
    auth: 'memory:read',
    handler: ({ query, principal, services }) => services.memory.history(principal, query),
  }),
  route({
    ...endpoint('POST /memory/search'),
    tag: 'memory',
    summary: "Keyword, semantic or hybrid search over the caller's traces",
    description:
      'keyword: BM25 with stemming, prefix and typo tolerance. semantic: cosine similarity of sentence vectors (built-in word vectors, or an OpenAI-compatible server when `KAIROS_EMBEDDINGS_BASE_URL` is set; if it fails the built-in model answers and `embeddings.fallback_reason` says why). hybrid (default): both fused into one confidence in [0,1]. Best first; type, tempo_tag and task_id filter every mode.',
    auth: 'memory:read',
    handler: ({ body, principal, services }) => services.memory.search(principal, body),
  }),
];
