import { readFile } from 'node:fs/promises';

/** daemon.json: how clients find the running daemon (written by src/daemon/state.ts). */
export interface DaemonState {
  pid: number;
  host: string;
  port: number;
  url: string;
  version: string;
  started_at: string;
  tls: boolean;
  /** The configured port, when it was taken and the daemon listens on a free one instead. */
  port_fallback_from?: number;
}

/**
 * What a daemon logs every few seconds while it opens a large store, with `read_mb` and
 * `total_mb`: a command waiting for it to answer keeps waiting while such lines keep coming.
 */
export const OPENING_STORE = 'opening the store';

/** How often a daemon opening its store says how far it is. */
export const OPENING_EVERY_MS = 2000;

export async function readDaemonState(path: string): Promise<DaemonState | undefined> {
  try {
    const s = JSON.parse(await readFile(path, 'utf8')) as DaemonState;
    return typeof s.port === 'number' && typeof s.pid === 'number' ? s : undefined;
  } catch {
    return undefined;
  }
}
