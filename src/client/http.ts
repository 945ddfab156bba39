import { AppError } from '../errors.js';

export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined | null>;
  body?: unknown;
  /** A non-JSON body (e.g. iCalendar) with its content type. */
  raw?: { text: string; type: string };
  headers?: Record<string, string>;
  /** Give the raw text back instead of parsing JSON (for .ics). */
  text?: boolean;
}

export interface ApiResponse<T> {
  status: number;
  headers: Headers;
  data: T;
}

export interface ClientOptions {
  baseUrl: string;
  apiKey?: string;
  agentId?: string;
  /** Waits before retries after 429; injected so tests need not sleep. */
  sleep?: (ms: number) => Promise<void>;
  maxTries?: number;
}

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Typed HTTP client of the kairos API: errors come back as AppError, 429s are retried with backoff. */
export class ApiClient {
  readonly baseUrl: string;

  constructor(private readonly opts: ClientOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
  }

  get apiKey(): string | undefined {
    return this.opts.apiKey;
  }

  async request<T = unknown>(method: string, path: string, o: RequestOptions = {}): Promise<T> {
    return (await this.send<T>(method, path, o)).data;
  }

  async send<T = unknown>(method: string, path: string, o: RequestOptions = {}): Promise<ApiResponse<T>> {
    const url = new URL(this.baseUrl + path);
    for (const [k, v] of Object.entries(o.query ?? {})) if (v !== undefined && v !== null && v !== '') url.searchParams.set(k, String(v));
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
      let res: Response;
      try {
        res = await fetch(url, { method, headers, body });
      } catch (e) {
        throw new AppError(503, 'daemon_unreachable', `Cannot reach the kairos daemon at ${this.baseUrl} (${(e as { cause?: { code?: string } }).cause?.code ?? (e as Error).message}).`);
      }
      if (res.status === 429 && attempt < maxTries) {
        const retryAfter = Number(res.headers.get('retry-after')) || 1;
        // Exponential backoff on top of the server's Retry-After.
        await sleep(retryAfter * 1000 * 2 ** (attempt - 1));
        continue;
      }
      const text = await res.text();
      if (!res.ok) throw toAppError(res.status, text);
      const data = (o.text ? text : text ? JSON.parse(text) : undefined) as T;
      return { status: res.status, headers: res.headers, data };
    }
  }
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
