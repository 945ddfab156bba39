import { readFile } from 'node:fs/promises';
import { type CliDeps, usage } from '../command-runtime.js';

async function readStream(s: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of s) chunks.push(typeof c === 'string' ? Buffer.from(c) : (c as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/** The text of a file argument: `-` (or no argument when stdin is not a terminal) is stdin. */
export async function readInput(file: string | undefined, deps: CliDeps): Promise<{ text: string; name: string }> {
  if (file === undefined && deps.streams.stdin.isTTY) throw usage('Give a file, or - to read stdin (e.g. cat traces.json | kairos trace push -).');
  if (file === undefined || file === '-') return { text: await readStream(deps.streams.stdin), name: 'stdin' };
  try {
    return { text: await readFile(file, 'utf8'), name: file };
  } catch (e) {
    throw usage(`Cannot read ${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}.`);
  }
}
