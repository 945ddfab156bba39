import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { gzipSync } from 'node:zlib';

/**
 * A real HTTP server on loopback that answers like an attacker's feed, CalDAV or OAuth server. The
 * first path segment picks the behaviour, for any method and whatever follows it:
 *
 * - `/bomb/…`: 200 with `content-encoding: gzip`, a small body that inflates to `bombMiB` (64 MiB).
 * - `/endless/…`: 200 whose body never ends (a chunk every few milliseconds until the client leaves).
 * - `/slow/…`: 200 that sends one byte a second and never finishes.
 * - `/loop/…`: 302 to itself, forever.
 * - `/to/<status>/…?url=U`: that redirect status to U (a private address, another origin, a file: URL).
 * - `/endless-status/<status>/…`: that status (3xx, 304, 4xx) with a body that never ends.
 * - `/multistatus/<bytes>/…`: 207, a CalDAV multistatus of about that many bytes (a calendar
 *   collection at depth 0, many objects at depth 1).
 * - `/laughs/…`: 207, a multistatus whose DTD defines nested entities (billion laughs).
 * - `/status/<status>/…`: that status with a short body and a hostile reason phrase.
 *
 * It counts every connection it accepted and those still open, and records each request's
 * method, path and Authorization header.
 */
export interface HostileServer {
  base: string;
  /** Connections accepted since the start. */
  accepted(): number;
  /** Connections open now. */
  open(): number;
  requests: { method: string; path: string; authorization?: string }[];
  close(): Promise<void>;
}

/** A reason phrase with terminal escapes (clear screen, window title): it must never reach an error text. */
export const HOSTILE_REASON = 'Forbidden \u001b[2J\u001b]0;pwned\u0007';

export async function startHostileServer(opts: { host?: string; bombMiB?: number } = {}): Promise<HostileServer> {
  const host = opts.host ?? '127.0.0.1';
  const bomb = gzipSync(Buffer.alloc((opts.bombMiB ?? 64) * 1024 * 1024), { level: 9 });
  const sockets = new Set<Socket>();
  let accepted = 0;
  const requests: HostileServer['requests'] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((req, res) => {
    requests.push({ method: req.method ?? '', path: req.url ?? '/', authorization: req.headers.authorization });
    // The request body (a PROPFIND or REPORT) is read and dropped.
    req.resume();
    answer(req, res);
  });
  server.on('connection', (s) => {
    accepted++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  function endless(res: ServerResponse, everyMs: number, chunk: Buffer) {
    const t = setInterval(() => {
      if (res.destroyed || res.writableEnded) {
        clearInterval(t);
        timers.delete(t);
        return;
      }
      res.write(chunk);
    }, everyMs);
    timers.add(t);
    res.on('close', () => {
      clearInterval(t);
      timers.delete(t);
    });
  }

  function answer(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://x');
    const [kind, arg] = url.pathname.split('/').filter(Boolean);
    switch (kind) {
      case 'bomb':
        res.writeHead(200, { 'content-type': 'application/xml; charset=utf-8', 'content-encoding': 'gzip', 'content-length': bomb.length });
        return void res.end(bomb);
      case 'endless':
        res.writeHead(200, { 'content-type': 'text/calendar' });
        return endless(res, 5, Buffer.alloc(64 * 1024, 'x'));
      case 'slow':
        res.writeHead(200, { 'content-type': 'text/calendar' });
        return endless(res, 1000, Buffer.from('x'));
      case 'loop':
        return void res.writeHead(302, { location: url.pathname }).end();
      case 'to':
        return void res.writeHead(Number(arg), { location: url.searchParams.get('url') ?? '/' }).end();
      case 'endless-status':
        res.writeHead(Number(arg), { 'content-type': 'text/html' });
        return endless(res, 5, Buffer.alloc(16 * 1024, 'x'));
      case 'multistatus':
        res.writeHead(207, { 'content-type': 'application/xml; charset=utf-8' });
        return void res.end(multistatus(url.pathname, Number(arg)));
      case 'laughs':
        res.writeHead(207, { 'content-type': 'application/xml; charset=utf-8' });
        return void res.end(laughs(url.pathname));
      case 'status': {
        // Node refuses to write control characters in a reason phrase; an attacker writes raw bytes.
        const body = `status ${arg} \u001b[31mred\u001b[0m`;
        return void res.socket?.end(
          `HTTP/1.1 ${Number(arg)} ${HOSTILE_REASON}\r\ncontent-type: text/plain\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`,
        );
      }
      default:
        res.writeHead(404).end();
    }
  }

  await new Promise<void>((ok) => server.listen(0, host, () => ok()));
  const port = (server.address() as AddressInfo).port;
  return {
    base: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    accepted: () => accepted,
    open: () => sockets.size,
    requests,
    close: () =>
      new Promise<void>((ok) => {
        for (const t of timers) clearInterval(t);
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

/** A calendar collection with its ctag and sync token, then object entries until about `bytes`. */
export function multistatus(collection: string, bytes: number): string {
  const head = `<?xml version="1.0" encoding="utf-8"?>
<d:multistatus xmlns:d="DAV:" xmlns:cs="http://calendarserver.org/ns/" xmlns:c="urn:ietf:params:xml:ns:caldav">
<d:response><d:href>${collection}</d:href><d:propstat><d:prop><d:resourcetype><d:collection/><c:calendar/></d:resourcetype><cs:getctag>1</cs:getctag><d:sync-token>http://x/sync/1</d:sync-token></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>
`;
  const parts = [head];
  let size = head.length;
  for (let i = 0; size < bytes; i++) {
    const r = `<d:response><d:href>${collection}event-${i}.ics</d:href><d:propstat><d:prop><d:getetag>"etag-${i}"</d:getetag></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>\n`;
    parts.push(r);
    size += r.length;
  }
  parts.push('</d:multistatus>\n');
  return parts.join('');
}

function laughs(collection: string): string {
  const ents = ['<!ENTITY lol "lol">'];
  for (let i = 1; i <= 9; i++) ents.push(`<!ENTITY lol${i} "${`&lol${i === 1 ? '' : i - 1};`.repeat(10)}">`);
  return `<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE d:multistatus [${ents.join('')}]>
<d:multistatus xmlns:d="DAV:" xmlns:cs="http://calendarserver.org/ns/" xmlns:c="urn:ietf:params:xml:ns:caldav">
<d:response><d:href>${collection}</d:href><d:propstat><d:prop><d:resourcetype><d:collection/><c:calendar/></d:resourcetype><cs:getctag>&lol9;</cs:getctag></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>
</d:multistatus>
`;
}
