import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import type { Scope } from '../contracts/scopes.js';
import type { LiveEvent } from '../domain/live-bus.js';
import { hasScope, type Principal } from '../domain/principal.js';
import { AppError } from '../errors.js';
import { authenticate } from './auth.js';
import { forbiddenHost, hostAllowed, hostName } from './middleware/host-check.js';
import { limiterOf } from './middleware/rate-limit.js';
import type { Services } from './services.js';
import { type CredentialStamp, sessionsOf } from './sessions.js';
import { presentedCredential } from './web/cookie-credential.js';

export const TOPICS = ['plans', 'traces', 'events'] as const;
type Topic = (typeof TOPICS)[number];
const TOPIC_OF: Record<string, Topic> = { plan: 'plans', trace: 'traces', event: 'events' };

/** What a credential must allow to see a topic: the read scope of the data it carries. */
const TOPIC_SCOPES: Record<Topic, Scope[]> = {
  plans: ['agent:plan', 'agent:approve', 'agent:execute'],
  traces: ['memory:read'],
  events: ['calendar:read'],
};

export interface WebSocketOptions {
  /** Keep-alive: a ping this often; a connection that did not answer the previous one is dropped. */
  pingMs?: number;
  /** A client reading slower than events arrive is dropped once this much is queued for it. */
  maxBufferedBytes?: number;
}

interface Conn {
  socket: WebSocket;
  principal: Principal;
  /** Topics the credential may see. */
  allowed: Set<Topic>;
  /** Topics asked for (all allowed ones until a subscribe message). */
  topics: Set<Topic>;
  alive: boolean;
  /** The credential it was opened with, checked again before each frame and after each change. */
  stamp: CredentialStamp;
  /** Stops following the credential (the connection ended first). */
  unfollow: () => void;
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
};

function refuse(socket: Duplex, status: number, code: string, message: string, headers: Record<string, string> = {}): void {
  const body = JSON.stringify({ error: { code, message, trace_id: 'ws' } });
  const extra = Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  socket.write(
    `HTTP/1.1 ${status} ${REASONS[status] ?? 'Error'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}Connection: close\r\n\r\n${body}`,
  );
  socket.destroy();
}

/**
 * `GET /ws`: authenticated by header or `?access_token=` (401 on the upgrade otherwise); pushes
 * `{id, type, at, data}` for the owning user's changes, in commit order. Each topic needs the
 * scope that reads its data. A client may narrow topics with `?topics=plans,traces` on the upgrade
 * or later with `{"type":"subscribe","topics":[...]}`.
 * The connection ends (close code 4401) as soon as its credential stops standing: a key revoked,
 * rotated or expired, a login token outdated by a password change or expired, a user removed.
 */
export function attachWebSocket(server: Server, services: Services, opts: WebSocketOptions = {}): { close(): void } {
  const pingMs = opts.pingMs ?? 30_000;
  const maxBuffered = opts.maxBufferedBytes ?? 16 * 1024 * 1024;
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  const conns = new Set<Conn>();

  const sessions = sessionsOf(services);
  const forget = (c: Conn) => {
    conns.delete(c);
    c.unfollow();
  };
  const drop = (c: Conn, code: number, reason: string) => {
    forget(c);
    c.socket.close(code, reason);
  };
  const sendError = (c: Conn, code: string, message: string) => c.socket.send(JSON.stringify({ type: 'error', error: { code, message } }));

  const hostOk = hostAllowed(services.config.host);
  const limiter = limiterOf(services);
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!hostOk(hostName(req.headers.host))) {
      const e = forbiddenHost(req.headers.host);
      return refuse(socket, e.status, e.code, e.message);
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== '/ws') return refuse(socket, 404, 'not_found', `No WebSocket route ${url.pathname}.`);
    const token = url.searchParams.get('access_token');
    const header = req.headers.authorization ?? (token ? `Bearer ${token}` : undefined);
    // A browser cannot set headers on a WebSocket: the web page's session cookie stands in for one.
    const credential = () =>
      presentedCredential(services, header, { method: 'GET', cookie: req.headers.cookie, origin: req.headers.origin, host: req.headers.host, csrf: undefined });
    Promise.resolve()
      .then(() =>
        authenticate(services, credential(), {
          agentId: (req.headers['x-agent-id'] as string | undefined) ?? undefined,
          userId: (req.headers['x-user-id'] as string | undefined) ?? undefined,
        }),
      )
      .then(({ principal: p, stamp }) => {
        const allowed = new Set(TOPICS.filter((t) => TOPIC_SCOPES[t].some((s) => hasScope(p, s))));
        if (!allowed.size)
          return refuse(socket, 403, 'forbidden', 'This key reads none of plans, traces or events (it needs agent:*, memory:read or calendar:read).');
        // `?topics=plans,traces` narrows the stream from the first message on.
        const asked = url.searchParams
          .get('topics')
          ?.split(',')
          .map((t) => t.trim())
          .filter(Boolean);
        const unknown = asked?.filter((t) => !(TOPICS as readonly string[]).includes(t));
        if (unknown?.length) return refuse(socket, 422, 'validation_failed', `Unknown topic ${unknown.join(', ')}: use ${TOPICS.join(', ')}.`);
        const denied = (asked as Topic[] | undefined)?.filter((t) => !allowed.has(t));
        if (denied?.length) return refuse(socket, 403, 'forbidden', `This key may not read ${denied.join(', ')}.`);
        wss.handleUpgrade(req, socket, head, (ws) => {
          const conn: Conn = {
            socket: ws,
            principal: p,
            allowed,
            topics: new Set(asked?.length ? (asked as Topic[]) : allowed),
            alive: true,
            stamp,
            unfollow: () => {},
          };
          conn.unfollow = sessions.add(stamp, () => drop(conn, 4401, 'credential revoked or expired'));
          conns.add(conn);
          ws.on('pong', () => (conn.alive = true));
          ws.on('close', () => forget(conn));
          ws.on('error', () => forget(conn));
          ws.on('message', (raw) => {
            let msg: { type?: unknown; topics?: unknown };
            try {
              msg = JSON.parse(String(raw)) as typeof msg;
            } catch {
              return sendError(conn, 'bad_request', 'Messages must be JSON.');
            }
            if (msg?.type !== 'subscribe')
              return sendError(conn, 'bad_request', 'The only message is {"type":"subscribe","topics":["plans","traces","events"]}.');
            if (!Array.isArray(msg.topics) || !msg.topics.every((t) => (TOPICS as readonly unknown[]).includes(t))) {
              return sendError(conn, 'validation_failed', `topics must be an array of ${TOPICS.join(', ')}.`);
            }
            const denied = (msg.topics as Topic[]).filter((t) => !conn.allowed.has(t));
            if (denied.length) return sendError(conn, 'forbidden', `This key may not read ${denied.join(', ')}.`);
            conn.topics = new Set(msg.topics as Topic[]);
          });
        });
      })
      .catch((e: unknown) => {
        let err = e instanceof AppError ? e : new AppError(401, 'unauthorized', 'Unauthorized.');
        // A refused credential counts against the client's address, as on HTTP (rate-limit.ts):
        // past the limit the answer is 429, so upgrades buy no more guesses than requests do.
        if (err.status === 401) {
          try {
            limiter.chargeAnonymous(req.socket.remoteAddress ?? '');
          } catch (limited) {
            if (limited instanceof AppError) err = limited;
          }
        }
        refuse(socket, err.status, err.code, err.message, err.headers);
      });
  });

  const unsubscribe = services.bus.subscribe((ev: LiveEvent) => {
    const topic = TOPIC_OF[ev.type.split('.')[0]!];
    if (!topic) return;
    // A frame can carry a whole trace: it is written only once someone is there to read it.
    let frame: string | undefined;
    for (const c of conns) {
      if (c.principal.userId !== ev.user_id || !c.topics.has(topic)) continue;
      // The change that ended the credential may share this turn with the one being sent.
      if (!sessions.valid(c.stamp)) {
        drop(c, 4401, 'credential revoked or expired');
        continue;
      }
      if (c.socket.bufferedAmount > maxBuffered) {
        drop(c, 1013, 'client too slow');
        continue;
      }
      frame ??= JSON.stringify({ id: ev.id, type: ev.type, at: ev.at, data: ev.data });
      c.socket.send(frame);
    }
  });

  const ping = setInterval(() => {
    for (const c of conns) {
      if (!c.alive) {
        forget(c);
        c.socket.terminate();
        continue;
      }
      c.alive = false;
      c.socket.ping();
    }
  }, pingMs);
  ping.unref();

  return {
    close() {
      clearInterval(ping);
      unsubscribe();
      for (const c of conns) {
        c.unfollow();
        c.socket.close(1001, 'daemon stopping');
      }
      conns.clear();
      wss.close();
    },
  };
}
