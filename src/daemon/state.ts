import { unlink } from 'node:fs/promises';
import { type DaemonState, readDaemonState } from '../config/daemon-state.js';
import { writeFileDurable } from '../platform/durable-write.js';

export const writeDaemonState = (path: string, s: DaemonState) => writeFileDurable(path, JSON.stringify(s, null, 2) + '\n');

export async function removeDaemonState(path: string, pid: number): Promise<void> {
  const s = await readDaemonState(path);
  if (s?.pid === pid) await unlink(path).catch(() => {});
}
