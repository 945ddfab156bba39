import { z } from 'zod';
import { ErrorBody } from '../contracts/common.js';
import type { RouteDef } from './route.js';
import { authSpec, describeAuth } from './route-auth.js';

/**
 * Converts zod schemas to JSON Schema for one document. Named schemas (`.meta({id})`) come out of
 * zod as `$defs` of each generated schema; in OpenAPI they belong in `components.schemas`, so they
 * are collected there and the refs rewritten. A name whose input and output shapes differ
 * (defaults, transforms) gets a separate `…Input` component.
 */
class SchemaSet {
  readonly components: Record<string, unknown> = {};

  convert(s: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
    const raw = z.toJSONSchema(s, { target: 'draft-2020-12', io, unrepresentable: 'any', reused: 'inline' }) as Record<string, unknown>;
    const defs = (raw.$defs ?? {}) as Record<string, unknown>;
    const names: Record<string, string> = {};
    for (const [name, def] of Object.entries(defs)) {
      const existing = this.components[name];
      names[name] = existing === undefined || JSON.stringify(existing) === JSON.stringify(this.relocate(def, {})) ? name : `${name}Input`;
    }
    for (const [name, def] of Object.entries(defs)) this.components[names[name]!] = this.relocate(def, names);
    const { $schema: _s, $defs: _d, ...rest } = this.relocate(raw, names) as Record<string, unknown>;
    return rest;
  }

  private relocate(v: unknown, names: Record<string, string>): unknown {
    if (Array.isArray(v)) return v.map((x) => this.relocate(x, names));
    if (!v || typeof v !== 'object') return v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      if (k === '$ref' && typeof x === 'string' && x.startsWith('#/$defs/')) {
        const name = x.slice('#/$defs/'.length);
        out[k] = `#/components/schemas/${names[name] ?? name}`;
      } else out[k] = this.relocate(x, names);
    }
    return out;
  }
}

/** Query or path schemas become OpenAPI parameters, one per property. */
function parameters(set: SchemaSet, s: z.ZodType | undefined, where: 'query' | 'path'): object[] {
  if (!s) return [];
  const js = set.convert(s, 'input') as { properties?: Record<string, Record<string, unknown>>; required?: string[] };
  return Object.entries(js.properties ?? {}).map(([name, schema]) => ({
    name,
    in: where,
    required: where === 'path' || (js.required ?? []).includes(name),
    ...(typeof schema.description === 'string' ? { description: schema.description } : {}),
    schema,
  }));
}

const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });

/**
 * The document, built at its first use and kept: converting every schema is work the daemon's
 * start (restart → /health) does not pay for a document few clients ever fetch.
 */
export function openApiOnDemand(routes: RouteDef[], info: { version: string }): () => object {
  let doc: object | undefined;
  return () => (doc ??= buildOpenApi(routes, info));
}

/** The OpenAPI 3.1 document, generated from the same route definitions and schemas that serve requests. */
export function buildOpenApi(routes: RouteDef[], info: { version: string }): object {
  const set = new SchemaSet();
  const paths: Record<string, Record<string, object>> = {};
  for (const r of routes) {
    const responses: Record<string, object> = {};
    const okContent = r.produces
      ? { [r.produces]: { schema: { type: 'string' } } }
      : r.response
        ? { 'application/json': { schema: set.convert(r.response, 'output') } }
        : undefined;
    responses[String(r.status ?? 200)] = { description: 'success', ...(okContent ? { content: okContent } : {}) };
    if (r.body || r.query || r.params) responses['422'] = errorResponse('validation failed');
    if (r.auth !== 'none') {
      responses['401'] = errorResponse('missing or invalid key or token');
      responses['403'] = errorResponse('the key lacks the scope or the data is another user’s');
    }
    responses['429'] = errorResponse('rate limited (Retry-After: 30)');
    if (r.method !== 'get') responses['507'] = errorResponse('storage_full: the disk refused the write; nothing of it was applied');
    const requestBody = r.body
      ? {
          required: true,
          content: {
            'application/json': { schema: set.convert(r.body, 'input') },
            ...Object.fromEntries((r.rawBodyTypes ?? []).map((t) => [t, { schema: { type: 'string' } }])),
          },
        }
      : undefined;
    const description = [
      r.description,
      r.debugOnly ? 'Only when the daemon runs with DEBUG=true; otherwise 404.' : undefined,
      r.auth !== 'none' ? `Needs ${describeAuth(r.auth)}${r.authNote ? `; ${r.authNote}` : ''}.` : undefined,
    ]
      .filter(Boolean)
      .join(' ');
    (paths[r.path] ??= {})[r.method] = {
      tags: [r.tag],
      summary: r.summary,
      ...(description ? { description } : {}),
      operationId: `${r.method}${r.path.replace(/[{}]/g, '').replace(/[/.-](\w)/g, (_m, c: string) => c.toUpperCase())}`,
      ...(r.auth === 'none' ? { security: [] } : typeof r.auth === 'object' && 'keyIn' in r.auth ? { security: [{ queryKey: [] }] } : {}),
      'x-kairos-auth': authSpec(r.auth, r.authNote),
      parameters: [...parameters(set, r.params, 'path'), ...parameters(set, r.query, 'query')],
      ...(requestBody ? { requestBody } : {}),
      responses,
    };
  }
  set.convert(ErrorBody, 'output'); // registers the Error component the error responses refer to
  return {
    openapi: '3.1.0',
    info: { title: 'kairos', version: info.version, description: 'Personal agent scheduling and memory service.' },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'API key or login token' },
        queryKey: { type: 'apiKey', in: 'query', name: 'key', description: 'API key in the URL, for calendar apps' },
      },
      schemas: set.components,
    },
  };
}
