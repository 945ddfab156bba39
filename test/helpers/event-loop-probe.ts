import { expect } from 'vitest';
import type { TestDaemon } from './daemon.js';

/** What `GET /debug/event-loop` (DEBUG=true) saw since the previous read. */
export interface Gap {
  worst_gap_ms: number;
  worst_hold_ms: number;
  hold_measured: string;
}

/**
 * Issue 14's measure of "no request holds the event loop": `gap()` reads the daemon's worst gap
 * since the last read, `held(name, fn)` runs `fn` between two reads and prints the figures.
 */
export function eventLoopProbe(d: Pick<TestDaemon, 'api'>) {
  const gap = async (): Promise<Gap> => {
    const r = await d.api<Gap>('GET', '/debug/event-loop');
    expect(r.status, r.text).toBe(200);
    return r.json;
  };
  async function held<T>(name: string, fn: () => Promise<T>): Promise<{ result: T; g: Gap }> {
    await gap();
    const result = await fn();
    const g = await gap();
    console.log(`event loop during ${name}: worst gap ${g.worst_gap_ms} ms, held ${g.worst_hold_ms} ms (${g.hold_measured})`);
    return { result, g };
  }
  return { gap, held };
}

/** `n` instants an hour apart from `from`, as ISO strings. */
export const hourly = (from: number, n: number) => Array.from({ length: n }, (_, i) => new Date(from + i * 3_600_000).toISOString());
