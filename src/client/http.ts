import type { EndpointName, EndpointResponse } from '../contracts/endpoints.js';
import { AppError } from '../errors.js';
import type { CallRest, RawBody } from './call-args.js';
import { type RawResponse, request } from './request.js';
import { timeoutFor } from './timeouts.js';

interface RequestOptions {
  query?: Record<string, unknown>;
  body?: unknown;
  raw?: RawBody;
  headers?: Record<string, string>;
}

export interface ClientOptions {
  baseUrl: string;
  apiKey?: string;
  agentId?: string;
  /** Waits before retries after 429; injected so tests need not sleep. */
  sleep?: (ms: number) => Promise<void>;
  maxTries?: number;
  /**
   * Give up on a request when the daemon sends nothing for this long (ms; 0 waits for ever).
   * Unset: 30 s, or 5 min for the endpoints whose work may be long (see `timeouts.ts`).
   */
  timeoutMs?: number;
  /**
   * Set when `baseUrl` is only what daemon.json says (no request has been answered there yet):
   * finds the daemon again (checks it, restarts or starts it) and gives its address. Used once,
   * when a request cannot connect, or by `confirmedBaseUrl()`.
   */
  rediscover?: () => Promise<string>;
}

/** Errors that mean the request never reached a server, so it is safe to send again elsewhere. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);

const trimSlash = (url: string) => url.replace(/\/+$/, '');

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Typed HTTP client of the kairos API: errors come back as AppError, 429s are retried with backoff. */
export class ApiClient {
  private base: string;
  private rediscover: (() => Promise<string>) | undefined;

  constructor(private readonly opts: ClientOptions) {
    this.base = trimSlash(opts.baseUrl);
    this.rediscover = opts.rediscover;
  }

  /** The daemon's address (the one found again, after a request could not connect to daemon.json's). */
  get baseUrl(): string {
    return this.base;
  }

  /**
   * The address checked to answer, for a caller that connects by other means than `call` (a
   * WebSocket): daemon.json's address is confirmed (or the daemon found again) first.
   */
  async confirmedBaseUrl(): Promise<string> {
    const again = this.rediscover;
    this.rediscover = undefined;
    if (again) this.base = trimSlash(await again());
    return this.base;
  }

  get apiKey(): string | undefined {
    return this.opts.apiKey;
  }

  /**
   * Call an endpoint by its name in the shared table (src/contracts/endpoints.ts), e.g.
   * `call('GET /memory/pull', { query })`: the arguments and the result are typed by its schemas.
   * Only the types come from the table: the name is the address, so nothing of zod loads here.
   */
  async call<K extends EndpointName>(name: K, ...[args]: CallRest<K>): Promise<EndpointResponse<K>> {
    // The signature checks the arguments against the endpoint; inside, they are plain values.
    const a = args as
      | { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown; raw?: RawBody; headers?: Record<string, string> }
      | undefined;
    const space = name.indexOf(' ');
    const params = a?.params ?? {};
    const path = name.slice(space + 1).replace(/\{(\w+)\}/g, (_m, p: string) => {
      if (params[p] === undefined) throw new Error(`${name}: the path parameter ${p} is missing.`);
      return encodeURIComponent(String(params[p]));
    });
    return this.send(
      name.slice(0, space),
      path,
      { query: a?.query, body: a?.body, raw: a?.raw, headers: a?.headers },
      timeoutFor(name, this.opts.timeoutMs),
    ) as Promise<EndpointResponse<K>>;
  }

  private async send(method: string, path: string, o: RequestOptions, timeoutMs: number): Promise<unknown> {
    const address = () => {
      const url = new URL(this.base + path);
      for (const [k, v] of Object.entries(o.query ?? {})) if (v !== undefined && v !== null && v !== '') url.searchParams.set(k, String(v));
      return url;
    };
    let url = address();
    const headers: Record<string, string> = { accept: 'application/json', ...o.headers };
    if (this.opts.apiKey) headers.authorization = `Bearer ${this.opts.apiKey}`;
    if (this.opts.agentId) headers['x-agent-id'] = this.opts.agentId;
    let body: string | undefined;
    if (o.raw) {
      body = o.raw.text;
      headers['content-type'] = o.raw.type;
    } else if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers['content-type'] = 'application/json';
    }
    const maxTries = this.opts.maxTries ?? 3;
    const sleep = this.opts.sleep ?? defaultSleep;
    for (let attempt = 1; ; attempt++) {
      let res: RawResponse;
      try {
        res = await request(url, { method, headers, body, timeoutMs });
      } catch (e) {
        // Connected, then nothing for timeoutMs: a hung (or stopped) daemon. Never sent again: it
        // may have received the request.
        if ((e as NodeJS.ErrnoException).code === 'ETIMEDOUT') throw daemonTimeout(this.baseUrl, timeoutMs);
        // daemon.json named a daemon that is gone (or stopping): find it again, send once more.
        if (this.rediscover && NOT_CONNECTED.has((e as NodeJS.ErrnoException).code ?? '')) {
          await this.confirmedBaseUrl();
          url = address();
          attempt--;
          continue;
        }
        throw new AppError(
          503,
          'daemon_unreachable',
          `Cannot reach the kairos daemon at ${this.baseUrl} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`,
        );
      }
      if (res.status === 429 && attempt < maxTries) {
        const retryAfter = Number(res.headers['retry-after']) || 1;
        // Exponential backoff on top of the server's Retry-After.
        await sleep(retryAfter * 1000 * 2 ** (attempt - 1));
        continue;
      }
      const { text } = res;
      if (res.status < 200 || res.status > 299) throw toAppError(res.status, text);
      // A body the server labels as something other than JSON (an .ics file) is given back as text.
      const type = res.headers['content-type'];
      if (type !== undefined && !/[/+]json\b/i.test(type)) return text;
      return text ? JSON.parse(text) : undefined;
    }
  }
}

function daemonTimeout(base: string, ms: number): AppError {
  const s = ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
  return new AppError(
    504,
    'daemon_timeout',
    `The kairos daemon at ${base} accepted the request but sent nothing for ${s}: it may be hung or stopped (see "kairos daemon status" and its log). Set KAIROS_TIMEOUT_MS to wait longer (0 waits for ever).`,
  );
}

function toAppError(status: number, text: string): AppError {
  try {
    const e = (JSON.parse(text) as { error?: { code?: string; message?: string; details?: { path: string; message: string }[] } }).error;
    if (e?.code) return new AppError(status, e.code, e.message ?? e.code, { details: e.details });
  } catch {
    /* not our envelope: fall through */
  }
  return new AppError(status, status === 404 ? 'not_found' : 'http_error', `HTTP ${status}: ${text.slice(0, 200)}`);
}
