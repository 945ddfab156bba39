import type { ChangeFeed } from '../../../mcp/server.js';

/**
 * The daemon's `/ws` feed as a ChangeFeed for the stdio MCP server: connected on the first
 * follower, reconnected after a drop (a daemon restart) every few seconds, closed by `stop`.
 */
export function liveChanges(baseUrl: string, apiKey: string | undefined, log: (m: string) => void): { follow: ChangeFeed; stop: () => void } {
  const followers = new Set<(c: { type: string; data: unknown }) => void>();
  let socket: { close(): void } | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  const open = async () => {
    const { WebSocket } = await import('ws');
    if (stopped) return;
    const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/ws`, { headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {} });
    socket = ws;
    ws.on('message', (raw) => {
      try {
        const m = JSON.parse(String(raw)) as { type?: string; data?: unknown };
        if (typeof m.type === 'string') for (const f of followers) f({ type: m.type, data: m.data });
      } catch {
        // Not a change (a keepalive or an error frame): nothing to forward.
      }
    });
    ws.on('error', (e) => log(`live updates: ${e.message}`));
    ws.on('close', () => {
      if (!stopped) timer = setTimeout(() => void open(), 5000).unref();
    });
  };

  return {
    follow: (fn) => {
      followers.add(fn);
      if (!socket) void open();
      return () => followers.delete(fn);
    },
    stop: () => {
      stopped = true;
      clearTimeout(timer);
      socket?.close();
    },
  };
}
