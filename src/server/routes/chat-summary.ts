import { TraceSummaryRequest, TraceSummaryResponse } from '../../contracts/memory.js';
import { route } from '../route.js';

export const chatSummaryRoutes = [
  route({
    method: 'post',
    path: '/chat/trace-summary',
    tag: 'chat',
    summary: 'Compressed summaries of traces for token-efficient grounding',
    description: 'Tokens counted with the o200k BPE tokenizer; with `max_token_count` the summaries’ tokens never sum above it.',
    auth: 'memory:read',
    body: TraceSummaryRequest,
    response: TraceSummaryResponse,
    handler: ({ body, principal, services }) => services.memory.summaries(principal, body),
  }),
];
