/** A change pushed on /ws: `{id, type, at, data}`, type such as `plan.proposed` or `event.created`. */
export interface LiveEvent {
  id: string;
  type: string;
  at: string;
  data: unknown;
}

type Listener = (ev: LiveEvent) => void;
const listeners = new Set<Listener>();
let socket: WebSocket | undefined;
let stopped = false;

/** Listen to live changes; returns the function that stops listening. */
export function onLive(fn: Listener): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/**
 * Open /ws (the session cookie authenticates it) and keep it open: after a drop it reconnects
 * with a growing pause, and every listener hears a synthetic `reconnected` event so views reload
 * what they may have missed.
 */
export function connectLive(onState: (open: boolean) => void, attempt = 0): void {
  stopped = false;
  const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`);
  socket = ws;
  ws.onopen = () => {
    onState(true);
    if (attempt > 0) for (const fn of listeners) fn({ id: '', type: 'reconnected', at: new Date().toISOString(), data: null });
    attempt = 0;
  };
  ws.onmessage = (m) => {
    let ev: LiveEvent;
    try {
      ev = JSON.parse(String(m.data)) as LiveEvent;
    } catch {
      return;
    }
    if (typeof ev.type !== 'string' || ev.type === 'error') return;
    for (const fn of listeners) fn(ev);
  };
  ws.onclose = () => {
    onState(false);
    if (stopped || socket !== ws) return;
    setTimeout(() => connectLive(onState, attempt + 1), Math.min(30_000, 1000 * 2 ** attempt));
  };
}

/** Close /ws for good (sign-out). */
export function disconnectLive(): void {
  stopped = true;
  socket?.close();
  socket = undefined;
}
