import { z } from 'zod';
import { ErrorBody } from '../contracts/common.js';
import type { RouteDef } from './route.js';

const jsonSchema = (s: z.ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(s, { target: 'draft-2020-12', io, unrepresentable: 'any', reused: 'inline' }) as Record<string, unknown>;

function stripMeta(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _s, ...rest } = schema;
  return rest;
}

/** Query or path schemas become OpenAPI parameters, one per property. */
function parameters(s: z.ZodType | undefined, where: 'query' | 'path'): object[] {
  if (!s) return [];
  const js = jsonSchema(s, 'input') as { properties?: Record<string, Record<string, unknown>>; required?: string[] };
  return Object.entries(js.properties ?? {}).map(([name, schema]) => ({
    name,
    in: where,
    required: where === 'path' || (js.required ?? []).includes(name),
    ...(typeof schema.description === 'string' ? { description: schema.description } : {}),
    schema,
  }));
}

const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });

/** The OpenAPI 3.1 document, generated from the same route definitions and schemas that serve requests. */
export function buildOpenApi(routes: RouteDef[], info: { version: string }): object {
  const paths: Record<string, Record<string, object>> = {};
  for (const r of routes) {
    const responses: Record<string, object> = {};
    const okContent = r.produces
      ? { [r.produces]: { schema: { type: 'string' } } }
      : r.response
        ? { 'application/json': { schema: stripMeta(jsonSchema(r.response, 'output')) } }
        : undefined;
    responses[String(r.status ?? 200)] = { description: 'success', ...(okContent ? { content: okContent } : {}) };
    if (r.body || r.query || r.params) responses['422'] = errorResponse('validation failed');
    if (r.auth !== 'none') {
      responses['401'] = errorResponse('missing or invalid key or token');
      responses['403'] = errorResponse('the key lacks the scope or the data is another user’s');
    }
    responses['429'] = errorResponse('rate limited (Retry-After: 30)');
    const requestBody = r.body
      ? {
          required: true,
          content: {
            'application/json': { schema: stripMeta(jsonSchema(r.body, 'input')) },
            ...Object.fromEntries((r.rawBodyTypes ?? []).map((t) => [t, { schema: { type: 'string' } }])),
          },
        }
      : undefined;
    const description = [r.description, r.debugOnly ? 'Only when the daemon runs with DEBUG=true; otherwise 404.' : undefined, r.auth !== 'none' && r.auth !== 'user' ? `Needs scope \`${r.auth}\`.` : undefined]
      .filter(Boolean)
      .join(' ');
    (paths[r.path] ??= {})[r.method] = {
      tags: [r.tag],
      summary: r.summary,
      ...(description ? { description } : {}),
      operationId: `${r.method}${r.path.replace(/[{}]/g, '').replace(/[/.-](\w)/g, (_m, c: string) => c.toUpperCase())}`,
      ...(r.auth === 'none' ? { security: [] } : {}),
      parameters: [...parameters(r.params, 'path'), ...parameters(r.query, 'query')],
      ...(requestBody ? { requestBody } : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'kairos', version: info.version, description: 'Personal agent scheduling and memory service.' },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'API key or login token' } },
      schemas: { Error: stripMeta(jsonSchema(ErrorBody, 'output')) },
    },
  };
}
