import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the test's feed server answers on a path; changed by the test between refreshes. */
export interface FeedRoute {
  status?: number;
  body?: string;
  etag?: string;
  lastModified?: string;
  headers?: Record<string, string>;
  /** Hold the answer this long (a slow feed). */
  delayMs?: number;
}

/**
 * A real HTTP server on a loopback port serving .ics feeds for subscription tests: answers 304 when
 * If-None-Match matches the route's ETag (or If-Modified-Since its Last-Modified), and records every
 * request's headers.
 */
export async function startFeedServer() {
  const routes = new Map<string, FeedRoute>();
  const requests: { path: string; headers: IncomingHttpHeaders }[] = [];
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    requests.push({ path, headers: req.headers });
    const r = routes.get(path);
    const answer = () => {
      if (!r) {
        res.writeHead(404).end('no such feed');
        return;
      }
      const h: Record<string, string> = { 'content-type': 'text/calendar; charset=utf-8', ...r.headers };
      if (r.etag) h.etag = r.etag;
      if (r.lastModified) h['last-modified'] = r.lastModified;
      const status = r.status ?? 200;
      if (status === 200 && r.etag && req.headers['if-none-match'] === r.etag) return void res.writeHead(304, h).end();
      if (status === 200 && !r.etag && r.lastModified && req.headers['if-modified-since'] === r.lastModified) return void res.writeHead(304, h).end();
      res.writeHead(status, h).end(r.body ?? '');
    };
    if (r?.delayMs) setTimeout(answer, r.delayMs);
    else answer();
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    routes,
    requests,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

/** A small VCALENDAR of the given events (`uid`, `summary`, start in UTC as 20310601T100000Z). */
export function ics(events: { uid: string; summary: string; start: string; extra?: string[] }[]): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//kairos-test//feed//EN'];
  for (const e of events)
    lines.push(
      'BEGIN:VEVENT',
      `UID:${e.uid}`,
      'DTSTAMP:20250101T000000Z',
      `DTSTART:${e.start}`,
      'DURATION:PT1H',
      `SUMMARY:${e.summary}`,
      ...(e.extra ?? []),
      'END:VEVENT',
    );
  lines.push('END:VCALENDAR', '');
  return lines.join('\r\n');
}
