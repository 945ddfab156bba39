import type { IncomingHttpHeaders, RequestOptions } from 'node:http';

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

export interface RawRequest {
  method: string;
  headers?: Record<string, string>;
  body?: string;
  /** Give up (an error with code ETIMEDOUT) after this long. */
  timeoutMs?: number;
}

/**
 * One HTTP(S) request on `node:http`, not `fetch`: loading undici costs a short-lived CLI time at
 * every start, and its keep-alive socket holds the process open after its output. Here
 * every request has its own connection, closed when the answer is read (`agent: false`,
 * `connection: close`), so the process exits as soon as its work is done. `node:https` loads only
 * for an https URL.
 */
export async function request(url: URL, o: RawRequest): Promise<RawResponse> {
  const { request: send } = url.protocol === 'https:' ? await import('node:https') : await import('node:http');
  const headers: Record<string, string> = { connection: 'close', ...o.headers };
  if (o.body !== undefined) headers['content-length'] = String(Buffer.byteLength(o.body));
  const options: RequestOptions = { method: o.method, headers, agent: false, ...(o.timeoutMs ? { timeout: o.timeoutMs } : {}) };
  return new Promise((resolve, reject) => {
    const req = send(url, options, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error(`no answer within ${o.timeoutMs} ms`), { code: 'ETIMEDOUT' })));
    req.on('error', reject);
    req.end(o.body);
  });
}
