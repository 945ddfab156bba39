import { endpoint } from '../../contracts/endpoints.js';
import { route } from '../route.js';

export const chatSummaryRoutes = [
  route({
    ...endpoint('POST /chat/trace-summary'),
    tag: 'chat',
    summary: 'Compressed summaries of traces for token-efficient grounding',
    description: 'Tokens counted with the o200k BPE tokenizer; with `max_token_count` the summaries’ tokens never sum above it.',
    auth: 'memory:read',
    handler: ({ body, principal, services }) => services.memory.summaries(principal, body),
  }),
];
