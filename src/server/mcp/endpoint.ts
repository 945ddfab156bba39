import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Context, Next } from 'koa';
import type { Principal } from '../../domain/principal.js';
import { AppError, badRequest } from '../../errors.js';
import { authenticate, bearerOf } from '../auth.js';
import { isLocalOrigin } from '../middleware/cors.js';
import type { RateLimiter } from '../middleware/rate-limit.js';
import type { RouteDef } from '../route.js';
import type { Services } from '../services.js';
import { type CredentialStamp, sessionsOf } from '../sessions.js';
import { inProcessPort } from './in-process-port.js';
import { workIn } from './work.js';

export const MCP_PATH = '/mcp';
/** Sessions the daemon keeps at once; the one idle longest is closed to make room. */
const MAX_SESSIONS = 64;
/** A session unused this long is closed (a client that went away without DELETE). */
const IDLE_MS = 30 * 60_000;
const MAX_BODY = 1024 * 1024;

interface Session {
  transport: StreamableHTTPServerTransport;
  /** Whose it is: the same credential (key, or a login token's user) and acting user on every request. */
  owner: string;
  seen: number;
  close: () => void;
  /** Stops following the credential (the session ended first). */
  unfollow: () => void;
}

const ownerOf = (p: Principal) => `${p.keyId ?? `token:${p.authUserId}`}>${p.userId}`;

const tooLarge = (headers?: Record<string, string>) => new AppError(413, 'payload_too_large', 'An MCP message may be at most 1 MiB.', { headers });

/**
 * The body of an MCP message, at most MAX_BODY bytes. A larger one without a declared length is
 * refused once it passes the limit, with `Connection: close` and the rest left unread: leaving a
 * `for await` over the request destroyed its socket at once, and a client handed that socket
 * again for its next request saw it reset.
 */
function readJson(req: IncomingMessage): Promise<unknown> {
  // Refused on its declared length before a byte is read, Node reads and drops the body after the
  // answer and the connection stays usable (koa-body does the same for the other routes).
  if (Number(req.headers['content-length']) > MAX_BODY) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY) return void chunks.push(c);
      req.off('data', onData).off('end', onEnd).off('error', onError);
      req.pause();
      reject(tooLarge({ connection: 'close' }));
    };
    const onEnd = () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        reject(badRequest('The body is not valid JSON.'));
      }
    };
    const onError = (e: Error) => reject(e);
    req.on('data', onData).once('end', onEnd).once('error', onError);
  });
}

const isInitialize = (body: unknown) =>
  (Array.isArray(body) ? body : [body]).some((m) => m !== null && typeof m === 'object' && (m as { method?: unknown }).method === 'initialize');

/**
 * MCP over streamable HTTP at `/mcp`: the credential is checked on every request (a revoked key
 * stops a session at once), a browser page from elsewhere is refused (`Origin`), and each session
 * gets a server whose tools its credential's scopes allow, calling the route table in-process.
 * Notifications follow the same commit feed as `/ws`.
 */
export function mcpEndpoint(services: Services, routes: RouteDef[], openapi: () => object, limiter: RateLimiter) {
  const sessions = new Map<string, Session>();
  const credentials = sessionsOf(services);
  const drop = (id: string | undefined) => {
    const s = id ? sessions.get(id) : undefined;
    if (!s || !id) return;
    sessions.delete(id);
    s.unfollow();
    s.close();
  };
  const makeRoom = () => {
    const now = Date.now();
    for (const [id, s] of sessions) if (now - s.seen > IDLE_MS) void s.transport.close().finally(() => drop(id));
    if (sessions.size < MAX_SESSIONS) return;
    const [oldest] = [...sessions.entries()].sort((a, b) => a[1].seen - b[1].seen);
    if (oldest) void oldest[1].transport.close().finally(() => drop(oldest[0]));
  };

  async function open(principal: Principal, stamp: CredentialStamp): Promise<Session> {
    makeRoom();
    // The MCP SDK loads at the first session, not at every start of the daemon.
    const [{ StreamableHTTPServerTransport }, { createMcpServer }] = await Promise.all([
      import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
      import('../../mcp/server.js'),
    ]);
    const port = inProcessPort(routes, services, openapi, principal);
    // Nothing more is sent once the credential stops standing, even in the turn that ends it.
    const changes = (fn: (c: { type: string; data: unknown }) => void) =>
      services.bus.subscribe((ev) => ev.user_id === principal.userId && credentials.valid(stamp) && fn(ev));
    const { server, close } = await createMcpServer(port, { version: services.version, changes });
    const session: Session = {
      owner: ownerOf(principal),
      seen: Date.now(),
      unfollow: () => {},
      close: () => {
        close();
        void server.close().catch(() => {});
      },
      transport: new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void sessions.set(id, session),
        onsessionclosed: (id) => drop(id),
      }),
    };
    session.transport.onclose = () => drop(session.transport.sessionId);
    await server.connect(session.transport);
    // A revoked or rotated key, an outdated token or a removed user ends the session at once:
    // its open SSE stream closes, and its id is forgotten.
    session.unfollow = credentials.add(stamp, () => void session.transport.close().finally(() => drop(session.transport.sessionId)));
    return session;
  }

  return async (ctx: Context, next: Next) => {
    if (ctx.path !== MCP_PATH) return next();
    const origin = ctx.get('origin');
    if (origin && !isLocalOrigin(origin)) {
      throw new AppError(403, 'forbidden_origin', `Origin "${origin}" may not use ${MCP_PATH}: only pages served from this machine may.`);
    }
    if (!['GET', 'POST', 'DELETE'].includes(ctx.method)) throw new AppError(405, 'method_not_allowed', `${MCP_PATH} takes GET, POST and DELETE.`);
    let principal: Principal;
    let stamp: CredentialStamp;
    try {
      ({ principal, stamp } = await authenticate(services, bearerOf(ctx.get('authorization') || undefined), {
        agentId: ctx.get('x-agent-id') || undefined,
        userId: ctx.get('x-user-id') || undefined,
      }));
    } catch (e) {
      if (e instanceof AppError && e.status === 401) {
        ctx.set('WWW-Authenticate', 'Bearer realm="kairos"');
        limiter.chargeAnonymous(ctx.ip, ctx);
      }
      throw e;
    }
    const body = ctx.method === 'POST' ? await readJson(ctx.req) : undefined;
    // Work counts like API calls, each message of a batch on its own; the rest of a session's
    // traffic (initialize, notifications, listings, the SSE stream, DELETE) only in a wider bucket.
    const work = workIn(body);
    if (work) limiter.charge(ctx, principal, work);
    else limiter.chargeSessionControl(ctx, principal);
    const id = ctx.get('mcp-session-id');
    let session: Session | undefined;
    if (id) {
      session = sessions.get(id);
      if (!session || session.owner !== ownerOf(principal)) {
        throw new AppError(404, 'not_found', 'No such MCP session (it ended, or the daemon restarted): initialize a new one.');
      }
    } else if (isInitialize(body)) session = await open(principal, stamp);
    else throw badRequest('Start with an initialize request (no Mcp-Session-Id header was sent).');
    session.seen = Date.now();
    ctx.respond = false;
    await session.transport.handleRequest(ctx.req, ctx.res, body);
  };
}
