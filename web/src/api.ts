import type { EndpointBody, EndpointName, EndpointResponse } from '../../src/contracts/endpoints.js';

/** An API error envelope turned back into an exception: the stable code, the message, the details. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: unknown[] = [],
  ) {
    super(message);
  }
}

// The CSRF token lives in memory only: a reload signs in again through the cookie (GET /app/session).
let csrfToken: string | undefined;

/** Remember the session's CSRF token (sent on every call that is not a GET). */
export function setCsrf(token: string | undefined): void {
  csrfToken = token;
}

export interface CallOptions<K extends EndpointName> {
  body?: EndpointBody<K>;
  query?: Record<string, string | number | boolean | undefined>;
  params?: Record<string, string>;
}

/** Any same-origin request with the session cookie; throws ApiError on an error envelope. */
export async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  const res = await fetch(path, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let json: any;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  if (!res.ok) {
    const e = json?.error;
    throw new ApiError(res.status, e?.code ?? 'http_error', e?.message ?? `${res.status} ${res.statusText}`, e?.details ?? []);
  }
  return json as T;
}

/** Call a public endpoint by its name in the endpoint table: `call('GET /agent/queue', { query })`. */
export function call<K extends EndpointName>(name: K, opts: CallOptions<K> = {}): Promise<EndpointResponse<K>> {
  const space = name.indexOf(' ');
  const method = name.slice(0, space);
  let path = name.slice(space + 1).replace(/\{(\w+)\}/g, (_, p: string) => encodeURIComponent(opts.params?.[p] ?? ''));
  const query = Object.entries(opts.query ?? {}).filter(([, v]) => v !== undefined && v !== '');
  if (query.length) path += `?${new URLSearchParams(query.map(([k, v]) => [k, String(v)])).toString()}`;
  return request(method, path, opts.body);
}

/** The paged GETs whose items the page shows whole, and the key of their items. */
type Paged = { 'GET /memory/history': 'versions'; 'GET /calendar/events': 'events'; 'GET /agent/queue': 'plans' };

/**
 * Every page of a paged GET (the daemon cuts long answers into pages with `next_cursor`), the
 * items of all of them in one answer: a history replays from its first version, a week shows
 * every event, the queue every proposed plan.
 */
export async function callWhole<K extends keyof Paged>(name: K, key: Paged[K], opts: CallOptions<K> = {}): Promise<EndpointResponse<K>> {
  let page = await call(name, opts);
  const items: unknown[] = [...(page as any)[key]];
  while (page.next_cursor) {
    page = await call(name, { ...opts, query: { ...opts.query, cursor: page.next_cursor } });
    for (const item of (page as any)[key]) items.push(item);
  }
  return { ...page, [key]: items };
}

/** One line for a person: the code, the message and each detail's path and message. */
export function describeError(e: unknown): string {
  if (!(e instanceof ApiError)) return e instanceof Error ? e.message : String(e);
  const details = e.details
    .map((d) => (d && typeof d === 'object' ? [(d as any).path, (d as any).message].filter(Boolean).join(': ') : String(d)))
    .filter(Boolean);
  return `${e.code}: ${e.message}${details.length && !e.message.includes(details[0]!) ? ` (${details.join('; ')})` : ''}`;
}
