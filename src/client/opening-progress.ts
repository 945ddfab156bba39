import { open } from 'node:fs/promises';
import { OPENING_EVERY_MS, OPENING_STORE } from '../config/daemon-state.js';

/** How much of daemon.log's end is searched for the last progress line. */
const TAIL_BYTES = 64 * 1024;

/** A progress line older than this means the daemon is no longer opening its store. */
const FRESH_MS = 5 * OPENING_EVERY_MS;

export interface OpeningProgress {
  read_mb: number;
  total_mb: number;
}

/**
 * How far the home's daemon is in opening its store, when its log says so in a line written in
 * the last few seconds: a large home takes longer to open than a command waits for a daemon,
 * and a command keeps waiting while such lines keep coming (see src/daemon/open-progress.ts).
 */
export async function openingProgress(log: string, now = Date.now()): Promise<OpeningProgress | undefined> {
  const fh = await open(log, 'r').catch(() => undefined);
  if (!fh) return undefined;
  try {
    const size = (await fh.stat()).size;
    const from = Math.max(0, size - TAIL_BYTES);
    const buf = Buffer.alloc(size - from);
    await fh.read(buf, 0, buf.length, from);
    const lines = buf.toString('utf8').split('\n');
    for (let i = lines.length - 1; i >= 0; i--) {
      const l = lines[i]!;
      if (!l.includes(OPENING_STORE)) continue;
      try {
        const o = JSON.parse(l) as { msg?: unknown; time?: unknown; read_mb?: unknown; total_mb?: unknown };
        if (o.msg !== OPENING_STORE || typeof o.time !== 'string') continue;
        if (now - Date.parse(o.time) > FRESH_MS) return undefined;
        return { read_mb: Number(o.read_mb) || 0, total_mb: Number(o.total_mb) || 0 };
      } catch {
        // A line cut by the tail's start, or not JSON: an older one may still say.
      }
    }
    return undefined;
  } finally {
    await fh.close();
  }
}

/** The one line a command prints when it keeps waiting for a daemon that opens a large store. */
export function openingNote(p: OpeningProgress): string {
  return `kairos: the daemon is opening a large home (${p.read_mb} of ${p.total_mb} MB read); waiting for it`;
}
