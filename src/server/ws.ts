import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { LiveEvent } from '../domain/events.js';
import { AppError } from '../errors.js';
import { bearerOf, resolvePrincipal } from './auth.js';
import type { Services } from './services.js';

const TOPIC_OF: Record<string, string> = { plan: 'plans', trace: 'traces', event: 'events' };
const PING_MS = 30_000;

interface Conn {
  socket: WebSocket;
  userId: string;
  topics: Set<string> | null; // null: everything
  alive: boolean;
}

function refuse(socket: Duplex, status: number, code: string, message: string): void {
  const body = JSON.stringify({ error: { code, message, trace_id: 'ws' } });
  socket.write(
    `HTTP/1.1 ${status} ${status === 401 ? 'Unauthorized' : status === 403 ? 'Forbidden' : 'Not Found'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
  socket.destroy();
}

/**
 * `GET /ws`: authenticated by header or `?access_token=`; pushes the owning user's live events in
 * commit order. A client may narrow them with `{"type":"subscribe","topics":[...]}`.
 */
export function attachWebSocket(server: Server, services: Services): { close(): void } {
  const wss = new WebSocketServer({ noServer: true });
  const conns = new Set<Conn>();

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== '/ws') return refuse(socket, 404, 'not_found', `No WebSocket route ${url.pathname}.`);
    const token = url.searchParams.get('access_token');
    const header = req.headers.authorization ?? (token ? `Bearer ${token}` : undefined);
    Promise.resolve()
      .then(() =>
        resolvePrincipal(services, bearerOf(header), {
          agentId: (req.headers['x-agent-id'] as string | undefined) ?? undefined,
          userId: (req.headers['x-user-id'] as string | undefined) ?? undefined,
        }),
      )
      .then((p) => {
        wss.handleUpgrade(req, socket, head, (ws) => {
          const conn: Conn = { socket: ws, userId: p.userId, topics: null, alive: true };
          conns.add(conn);
          ws.on('pong', () => (conn.alive = true));
          ws.on('close', () => conns.delete(conn));
          ws.on('error', () => conns.delete(conn));
          ws.on('message', (raw) => {
            try {
              const msg = JSON.parse(String(raw)) as { type?: string; topics?: unknown };
              if (msg.type === 'subscribe' && Array.isArray(msg.topics)) conn.topics = new Set(msg.topics.filter((t): t is string => typeof t === 'string'));
            } catch {
              ws.send(JSON.stringify({ type: 'error', error: { code: 'bad_request', message: 'Messages must be JSON.' } }));
            }
          });
        });
      })
      .catch((e: unknown) => {
        const err = e instanceof AppError ? e : new AppError(401, 'unauthorized', 'Unauthorized.');
        refuse(socket, err.status, err.code, err.message);
      });
  });

  const unsubscribe = services.bus.subscribe((ev: LiveEvent) => {
    const topic = TOPIC_OF[ev.type.split('.')[0]!];
    const frame = JSON.stringify({ id: ev.id, type: ev.type, at: ev.at, data: ev.data });
    for (const c of conns) {
      if (c.userId !== ev.user_id) continue;
      if (c.topics && topic && !c.topics.has(topic)) continue;
      c.socket.send(frame);
    }
  });

  const ping = setInterval(() => {
    for (const c of conns) {
      if (!c.alive) {
        c.socket.terminate();
        conns.delete(c);
        continue;
      }
      c.alive = false;
      c.socket.ping();
    }
  }, PING_MS);
  ping.unref();

  return {
    close() {
      clearInterval(ping);
      unsubscribe();
      for (const c of conns) c.socket.close(1001, 'daemon stopping');
      wss.close();
    },
  };
}
