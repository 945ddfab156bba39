import { readFile, writeFile } from 'node:fs/promises';
import { AppError } from '../../../errors.js';

/** Lines starting with `#` are the loop's notes to the person; JSON never starts a line with one. */
const COMMENT = /^\s*#.*$/gm;

/** What the person saved: the text without the notes, or `empty` when nothing is left (cancel). */
export async function readEdited(file: string): Promise<{ empty: true } | { empty: false; body: string }> {
  const body = (await readFile(file, 'utf8')).replace(COMMENT, '').trim();
  return body ? { empty: false, body } : { empty: true };
}

/** The saved text as one JSON object, or the reason it is not one. */
export function parseObject(body: string): { ok: Record<string, unknown> } | { error: string } {
  let v: unknown;
  try {
    v = JSON.parse(body);
  } catch (e) {
    return { error: `the text is not valid JSON (${(e as Error).message})` };
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) return { error: 'the text must stay one JSON object ({ … })' };
  return { ok: v as Record<string, unknown> };
}

/** The lines of a refusal from the daemon: its message and each field it names. */
export function refusalLines(e: AppError): string[] {
  return [e.message, ...(e.details ?? []).map((d) => `  ${d.path}: ${d.message}`)];
}

/**
 * Reopen the file with why it was not saved as comments on top (as `git commit` and `kubectl edit`
 * do), above the person's own text, so nothing they typed is lost.
 */
export async function withError(file: string, body: string, why: string[]): Promise<void> {
  const notes = [
    `# kairos: not saved: ${why[0]}`,
    ...why.slice(1).map((l) => `# ${l}`),
    '# Fix the text below and save to try again, or empty the file (or save it unchanged) to give up.',
    '# Lines starting with # are ignored.',
  ];
  await writeFile(file, `${notes.join('\n')}\n${body}\n`, { mode: 0o600 });
}

export const editFailed = (why: string[], file: string) =>
  new AppError(422, 'validation_failed', `The edit was not saved: ${why.join('\n')}\nYour text is kept in ${file}.`);
