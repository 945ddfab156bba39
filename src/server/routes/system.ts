import { endpoint } from '../../contracts/endpoints.js';
import { API_VERSION } from '../../contracts/system.js';
import { route } from '../route.js';

export const systemRoutes = [
  route({
    ...endpoint('GET /health'),
    tag: 'system',
    summary: 'Liveness check',
    auth: 'none',
    handler: () => ({ status: 'ok' }),
  }),
  route({
    ...endpoint('GET /version'),
    tag: 'system',
    summary: 'API version and build metadata',
    auth: 'none',
    handler: ({ services }) => ({
      api_version: API_VERSION,
      version: services.version,
      build: {
        node: process.version,
        ...(process.env.KAIROS_COMMIT ? { commit: process.env.KAIROS_COMMIT } : {}),
        started_at: services.startedAt.toISOString(),
      },
    }),
  }),
  route({
    ...endpoint('GET /openapi.json'),
    tag: 'system',
    summary: 'This OpenAPI 3.1 document',
    auth: 'none',
    // A function: the document is built at its first request (src/server/openapi.ts).
    handler: ({ ctx }) => (ctx.state.openapi as () => object)(),
  }),
];
