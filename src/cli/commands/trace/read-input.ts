import { readFile } from 'node:fs/promises';
import { usage, type CliDeps } from '../../kit.js';

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

/**
 * Traces from text: a JSON array, a `{traces: [...]}` body, a single object, or NDJSON (one
 * object per line; blank lines skipped). Parse errors name the line.
 */
export function parseTraces(text: string, name: string): unknown[] {
  const trimmed = text.trim();
  if (!trimmed) throw usage(`${name} is empty: expected a JSON array or NDJSON traces.`);
  try {
    const v: unknown = JSON.parse(trimmed);
    if (Array.isArray(v)) return v;
    if (v && typeof v === 'object' && Array.isArray((v as { traces?: unknown }).traces)) return (v as { traces: unknown[] }).traces;
    return [v];
  } catch {
    // not one JSON document: try NDJSON
  }
  const out: unknown[] = [];
  const lines = trimmed.split(/\r?\n/);
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    try {
      out.push(JSON.parse(line));
    } catch (e) {
      throw usage(`${name} line ${i + 1} is not JSON (${(e as Error).message}); expected a JSON array or one JSON object per line.`);
    }
  });
  return out;
}
