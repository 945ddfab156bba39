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

export async function readDaemonState(path: string): Promise<DaemonState | undefined> {
  try {
    const s = JSON.parse(await readFile(path, 'utf8')) as DaemonState;
    return typeof s.port === 'number' && typeof s.pid === 'number' ? s : undefined;
  } catch {
    return undefined;
  }
}
