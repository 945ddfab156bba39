import { open, readFile, stat } from 'node:fs/promises';
import { homePaths, resolveHome } from '../../../config/paths.js';
import { AppError } from '../../../errors.js';
import type { CliDeps, RunInput } from '../../command-runtime.js';
import { readableLine } from '../../output/log-line.js';

export async function run({ opts }: RunInput<{ follow?: boolean; lines: number }>, deps: CliDeps): Promise<void> {
  const path = homePaths(resolveHome(deps.env)).daemonLog;
  const text = await readFile(path, 'utf8').catch(() => {
    throw new AppError(404, 'not_found', `No daemon log yet at ${path}.`);
  });
  const lines = text.split('\n').filter(Boolean);
  const show = (l: string) => (deps.io.json ? deps.io.jsonLine(l) : deps.io.line(readableLine(l)));
  for (const l of lines.slice(-opts.lines)) show(l);
  if (!opts.follow) return;
  let pos = Buffer.byteLength(text);
  // Follow by polling: portable, and the log is appended by one process.
  for (;;) {
    await new Promise((r) => setTimeout(r, 250));
    const size = (await stat(path).catch(() => ({ size: pos }))).size;
    if (size < pos) pos = 0; // truncated or replaced
    if (size === pos) continue;
    const fh = await open(path, 'r');
    const buf = Buffer.alloc(size - pos);
    await fh.read(buf, 0, buf.length, pos);
    await fh.close();
    // Whole lines only: a line being written is read on the next turn.
    const end = buf.lastIndexOf(0x0a) + 1;
    pos += end;
    for (const l of buf.subarray(0, end).toString('utf8').split('\n').filter(Boolean)) show(l);
  }
}
