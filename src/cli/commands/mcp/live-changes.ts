import { type LiveTarget, openLiveSocket } from '../../../client/live-socket.js';
import type { ChangeFeed } from '../../../mcp/server.js';

/**
 * The daemon's `/ws` feed as a ChangeFeed for the stdio MCP server: connected on the first
 * follower, reconnected after a drop (a daemon restart) every few seconds, closed by `stop`.
 */
export function liveChanges(client: LiveTarget, log: (m: string) => void): { follow: ChangeFeed; stop: () => void } {
  const followers = new Set<(c: { type: string; data: unknown }) => void>();
  let socket: { close(): void } | undefined;
  let started = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  const retry = () => {
    if (!stopped) timer = setTimeout(() => void open(), 5000).unref();
  };
  const open = async () => {
    if (stopped) return;
    let ws: Awaited<ReturnType<typeof openLiveSocket>>['ws'];
    try {
      ({ ws } = await openLiveSocket(client));
    } catch (e) {
      // The daemon could not be found (or started): say so and look again later.
      log(`live updates: ${(e as Error).message}`);
      return retry();
    }
    socket = ws;
    ws.on('message', (raw) => {
      try {
        const m = JSON.parse(String(raw)) as { type?: string; data?: unknown };
        if (typeof m.type === 'string') for (const f of followers) f({ type: m.type, data: m.data });
      } catch {
        // Not a change (a keepalive or an error frame): nothing to forward.
      }
    });
    // Closing a socket that is still connecting (a client that came and went at once) is an
    // error to ws, and no news to anyone once the feed is stopped.
    ws.on('error', (e) => {
      if (!stopped) log(`live updates: ${e.message}`);
    });
    ws.on('close', retry);
    if (stopped) ws.close();
  };

  return {
    follow: (fn) => {
      followers.add(fn);
      // Opened once, by the first follower; `retry` reconnects after that.
      if (!started) {
        started = true;
        void open();
      }
      return () => followers.delete(fn);
    },
    stop: () => {
      stopped = true;
      clearTimeout(timer);
      socket?.close();
    },
  };
}
