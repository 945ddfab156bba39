import { readFile, stat } from 'node:fs/promises';
import { forEachLine, LineTooLongError } from './lines.js';

/**
 * The longest line read as one value. A document is a few MB at most (the API's 100,000
 * characters, escaped); a longer line means a file laid out some other way.
 */
const MAX_LINE_BYTES = 256 * 2 ** 20;
/** A file not laid out one value per line is parsed whole up to this size (V8's string limit is ~512 MiB). */
const WHOLE_PARSE_BYTES = 256 * 2 ** 20;

/** Why a file cannot be read as JSON, with the place and, for a large file, what to do. */
export class JsonFileError extends Error {}

type Container = { value: Record<string, unknown> | unknown[]; key?: string };

/**
 * Parse a JSON file laid out one value per line, as the snapshot writes it (and as any
 * pretty-printer does: every container opens at the end of a line and closes on a line of its
 * own, every other value is whole on one line). Each line is parsed on its own, so the file is
 * never one string and its size has no limit but the memory of what it holds. A file laid out
 * otherwise (one long line, say) is parsed whole while it is small enough to be one string.
 */
/**
 * Called with each value parsed from a line of its own, the keys of the containers it is in (the
 * top one first; the array is the reader's own, valid during the call), the line and the byte the
 * line starts at; what it returns is kept instead.
 */
export type LineValueHook = (value: unknown, keys: readonly (string | undefined)[], line: string, offset: number) => unknown;

export async function readJsonByLines(path: string, hook?: LineValueHook, onRead?: (bytes: number) => void): Promise<unknown> {
  const stack: Container[] = [];
  /** The keys of the containers on the stack, kept in step with it (what the hook is given). */
  const keys: (string | undefined)[] = [];
  let root: { value: unknown } | undefined;
  const fail = (n: number, why: string) => new JsonFileError(`line ${n}: ${why}`);
  const attach = (n: number, key: string | undefined, value: unknown) => {
    const top = stack.at(-1);
    if (!top) {
      if (root) throw fail(n, 'more after the end of the top value');
      root = { value };
    } else if (Array.isArray(top.value)) top.value.push(value);
    else if (key === '__proto__') Object.defineProperty(top.value, key, { value, writable: true, enumerable: true, configurable: true });
    else top.value[key!] = value;
  };
  try {
    await forEachLine(
      path,
      MAX_LINE_BYTES,
      (line, n, offset) => {
        // The value's bounds by character codes: one slice per line, not a trim, a slice and a
        // trimEnd (a snapshot's line is a document between spaces and a comma).
        let a = 0;
        let b = line.length;
        while (a < b && isSpace(line.charCodeAt(a))) a++;
        while (b > a && isSpace(line.charCodeAt(b - 1))) b--;
        if (b > a && line.charCodeAt(b - 1) === 44) {
          b--;
          while (b > a && isSpace(line.charCodeAt(b - 1))) b--;
        }
        if (a === b) return;
        let t = a === 0 && b === line.length ? line : line.slice(a, b);
        if (t === '}' || t === ']') {
          const done = stack.pop();
          keys.pop();
          if (!done || Array.isArray(done.value) !== (t === ']')) throw fail(n, `an unexpected "${t}"`);
          attach(n, done.key, done.value);
          return;
        }
        const top = stack.at(-1);
        let key: string | undefined;
        if (top && !Array.isArray(top.value)) [key, t] = splitMember(t, (why) => fail(n, why));
        if (t === '{' || t === '[') {
          if (!top && root) throw fail(n, 'more after the end of the top value');
          stack.push({ value: t === '{' ? {} : [], key });
          keys.push(key);
          return;
        }
        let value: unknown;
        try {
          value = JSON.parse(t);
        } catch (e) {
          throw fail(n, (e as Error).message);
        }
        if (hook) value = hook(value, keys, line, offset);
        attach(n, key, value);
      },
      onRead,
    );
  } catch (e) {
    if (!(e instanceof JsonFileError || e instanceof LineTooLongError)) throw e;
    return parseWhole(path, e);
  }
  if (stack.length || !root) return parseWhole(path, new JsonFileError('the file ends before its top value does'));
  return root.value;
}

/** What String.prototype.trim removes: JSON's whitespace, and the rest of JavaScript's (a BOM, say). */
function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || (c > 127 && /\s/.test(String.fromCharCode(c)));
}

/** `"name": rest` → [name, rest]. */
function splitMember(t: string, fail: (why: string) => JsonFileError): [string, string] {
  if (t.charCodeAt(0) !== 34) throw fail('a member without a quoted name');
  let i = 1;
  for (; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c === 92) i++;
    else if (c === 34) break;
  }
  let key: string;
  try {
    key = JSON.parse(t.slice(0, i + 1)) as string;
  } catch (e) {
    throw fail((e as Error).message);
  }
  const rest = t.slice(i + 1).trimStart();
  if (rest.charCodeAt(0) !== 58) throw fail('a member name without a ":"');
  return [key, rest.slice(1).trimStart()];
}

/** The fallback for a file laid out otherwise: JSON.parse of the whole, if it can be one string. */
async function parseWhole(path: string, why: Error): Promise<unknown> {
  const { size } = await stat(path);
  if (size > WHOLE_PARSE_BYTES) {
    throw new JsonFileError(
      `${why.message}, and at ${size} bytes it is too large to read other than one value per line (lay it out so with  jq . ${path} > ${path}.lines && mv ${path}.lines ${path}  if it is whole)`,
    );
  }
  try {
    return JSON.parse(await readFile(path, 'utf8'));
  } catch (e) {
    throw new JsonFileError(`it is not valid JSON (${(e as Error).message})`);
  }
}
