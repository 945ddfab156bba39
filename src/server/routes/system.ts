import { z } from 'zod';
import { API_VERSION, Health, VersionInfo } from '../../contracts/system.js';
import { route } from '../route.js';

export const systemRoutes = [
  route({
    method: 'get',
    path: '/health',
    tag: 'system',
    summary: 'Liveness check',
    auth: 'none',
    response: Health,
    handler: () => ({ status: 'ok' }),
  }),
  route({
    method: 'get',
    path: '/version',
    tag: 'system',
    summary: 'API version and build metadata',
    auth: 'none',
    response: VersionInfo,
    handler: ({ services }) => ({
      api_version: API_VERSION,
      version: services.version,
      build: { node: process.version, ...(process.env.KAIROS_COMMIT ? { commit: process.env.KAIROS_COMMIT } : {}), started_at: services.startedAt.toISOString() },
    }),
  }),
  route({
    method: 'get',
    path: '/openapi.json',
    tag: 'system',
    summary: 'This OpenAPI 3.1 document',
    auth: 'none',
    response: z.record(z.string(), z.unknown()),
    handler: ({ ctx }) => ctx.state.openapi,
  }),
];
