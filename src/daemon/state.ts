import { readFile, unlink } from 'node:fs/promises';
import { writeFileDurable } from '../store/durable-file.js';

/** daemon.json: how clients find the running daemon. */
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

export const writeDaemonState = (path: string, s: DaemonState) => writeFileDurable(path, JSON.stringify(s, null, 2) + '\n');

export async function removeDaemonState(path: string, pid: number): Promise<void> {
  const s = await readDaemonState(path);
  if (s?.pid === pid) await unlink(path).catch(() => {});
}
