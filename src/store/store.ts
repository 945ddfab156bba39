import { copyFile, mkdir, readdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { Low } from 'lowdb';
import { DIR_MODE, type HomePaths } from '../config/paths.js';
import { CorruptFileError, DurableJSONFile } from './durable-file.js';
import { Journal, type JournalEntry, type JournalOp } from './journal.js';
import { migrate } from './migrations.js';
import { COLLECTIONS, COLLECTION_NAMES, emptyDb, shapeProblem, type CollectionName, type DbFile, type Doc } from './schema.js';
import { Indexed } from './indexed.js';

/** Stored documents are shared with readers; freezing them turns an accidental mutation into an error. */
function deepFreeze<T>(v: T): T {
  if (v && typeof v === 'object' && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v)) deepFreeze(x);
  }
  return v;
}

/** The store refused to open: the message names the file and says how to recover. */
export class StoreOpenError extends Error {}

export interface StoreOptions {
  /** Snapshot after this many journalled operations… */
  snapshotEveryOps?: number;
  /** …or this long after the first unsnapshotted write. */
  snapshotEveryMs?: number;
  /** How many previous good db.json files to keep in backups/. */
  backups?: number;
  log?: (msg: string, extra?: Record<string, unknown>) => void;
}

/** Reads and staged writes of one transaction; see Store.transact. */
export interface Tx {
  get<T extends Doc = Doc>(c: CollectionName, id: string): T | undefined;
  byIndex<T extends Doc = Doc>(c: CollectionName, index: string, value: unknown): T[];
  all<T extends Doc = Doc>(c: CollectionName): T[];
  put(c: CollectionName, doc: Doc): void;
  delete(c: CollectionName, id: string): void;
  getMeta<T>(k: string): T | undefined;
  setMeta(k: string, v: unknown): void;
}

/**
 * The only code that touches db.json. Data lives in memory with indexes; every mutation is a
 * synchronous transaction whose operations are appended to an fsync'd journal (group commit)
 * before the promise resolves. db.json, written through lowdb, is the canonical snapshot: it is
 * rewritten in the background and the journal segments it covers are retired. Services never
 * see which of the two made a write durable.
 */
export class Store {
  private readonly cols = new Map<CollectionName, Indexed>();
  private meta: Record<string, unknown> = {};
  private seq = 0;
  private opsSinceSnapshot = 0;
  private snapshotTimer?: NodeJS.Timeout;
  private snapshotting?: Promise<void>;
  private closed = false;
  private readonly low: Low<unknown>;
  private readonly journal: Journal;
  private readonly listeners = new Set<(ops: JournalOp[]) => void>();

  private constructor(
    readonly paths: HomePaths,
    private readonly opts: Required<Omit<StoreOptions, 'log'>> & Pick<StoreOptions, 'log'>,
  ) {
    this.low = new Low<unknown>(new DurableJSONFile(paths.db), null);
    this.journal = new Journal(paths.journal);
    for (const n of COLLECTION_NAMES) this.cols.set(n, new Indexed(COLLECTIONS[n].key, COLLECTIONS[n].indexes));
  }

  static async open(paths: HomePaths, options: StoreOptions = {}): Promise<Store> {
    const store = new Store(paths, {
      snapshotEveryOps: options.snapshotEveryOps ?? 2000,
      snapshotEveryMs: options.snapshotEveryMs ?? 30_000,
      backups: options.backups ?? 3,
      log: options.log,
    });
    await store.load();
    return store;
  }

  // ------------------------------------------------------------------ reads

  get<T extends Doc = Doc>(c: CollectionName, id: string): T | undefined {
    return this.col(c).get(id) as T | undefined;
  }

  byIndex<T extends Doc = Doc>(c: CollectionName, index: string, value: unknown): T[] {
    return this.col(c).byIndex(index, value) as T[];
  }

  all<T extends Doc = Doc>(c: CollectionName): T[] {
    return this.col(c).all() as T[];
  }

  count(c: CollectionName): number {
    return this.col(c).size;
  }

  getMeta<T>(k: string): T | undefined {
    return this.meta[k] as T | undefined;
  }

  /** Called after every committed transaction with its operations (cache invalidation, live sync). */
  onCommit(fn: (ops: JournalOp[]) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  // ------------------------------------------------------------------ writes

  /**
   * Run `fn` against a staged view and commit what it staged, all or nothing. `fn` is synchronous,
   * so no other transaction interleaves with it: this is the single writer. The promise resolves
   * once the transaction is durable on disk.
   */
  async transact<R>(fn: (tx: Tx) => R): Promise<R> {
    if (this.closed) throw new Error('the store is closed');
    const { tx, ops } = this.stage();
    const result = fn(tx);
    if (result instanceof Promise) throw new Error('Store.transact takes a synchronous function');
    if (ops.length === 0) return result;
    const entry: JournalEntry = { seq: ++this.seq, ops };
    this.apply(ops);
    this.opsSinceSnapshot += ops.length;
    const durable = this.journal.append(entry);
    for (const l of this.listeners) {
      try {
        l(ops);
      } catch (e) {
        this.opts.log?.('commit listener failed', { err: String(e) });
      }
    }
    await durable;
    this.scheduleSnapshot();
    return result;
  }

  /** Run `fn` against a staged view and throw the staged writes away (dry runs). */
  simulate<R>(fn: (tx: Tx) => R): R {
    return fn(this.stage().tx);
  }

  private stage(): { tx: Tx; ops: JournalOp[] } {
    const ops: JournalOp[] = [];
    const overlay = new Map<CollectionName, Map<string, Doc | null>>();
    const metaOverlay = new Map<string, unknown>();
    const layer = (c: CollectionName) => {
      let m = overlay.get(c);
      if (!m) overlay.set(c, (m = new Map()));
      return m;
    };
    const keyOf = (c: CollectionName, doc: Doc) => {
      const id = doc[COLLECTIONS[c].key];
      if (typeof id !== 'string' || !id) throw new Error(`${c}: document without a string ${COLLECTIONS[c].key}`);
      return id;
    };
    const tx: Tx = {
      get: <T extends Doc>(c: CollectionName, id: string) => {
        const o = overlay.get(c);
        if (o?.has(id)) return (o.get(id) ?? undefined) as T | undefined;
        return this.get<T>(c, id);
      },
      byIndex: <T extends Doc>(c: CollectionName, index: string, value: unknown) => {
        const base = this.byIndex<T>(c, index, value);
        const o = overlay.get(c);
        if (!o?.size) return base;
        const key = COLLECTIONS[c].key;
        const out = base.filter((d) => !o.has(d[key] as string));
        for (const d of o.values()) if (d && d[index] === value) out.push(d as T);
        return out;
      },
      all: <T extends Doc>(c: CollectionName) => {
        const o = overlay.get(c);
        const base = this.all<T>(c);
        if (!o?.size) return base;
        const key = COLLECTIONS[c].key;
        const out = base.filter((d) => !o.has(d[key] as string));
        for (const d of o.values()) if (d) out.push(d as T);
        return out;
      },
      put: (c, doc) => {
        const copy = structuredClone(doc);
        layer(c).set(keyOf(c, copy), copy);
        ops.push({ op: 'put', c, doc: copy });
      },
      delete: (c, id) => {
        layer(c).set(id, null);
        ops.push({ op: 'del', c, id });
      },
      getMeta: <T>(k: string) => (metaOverlay.has(k) ? metaOverlay.get(k) : this.meta[k]) as T | undefined,
      setMeta: (k, v) => {
        metaOverlay.set(k, v);
        ops.push({ op: 'meta', k, v });
      },
    };
    return { tx, ops };
  }

  private apply(ops: JournalOp[]): void {
    for (const op of ops) {
      if (op.op === 'put') this.col(op.c as CollectionName).put(deepFreeze(op.doc));
      else if (op.op === 'del') this.col(op.c as CollectionName).delete(op.id);
      else this.meta[op.k] = op.v;
    }
  }

  private col(c: CollectionName): Indexed {
    const col = this.cols.get(c);
    if (!col) throw new Error(`unknown collection ${c}`);
    return col;
  }

  // ------------------------------------------------------------------ load, snapshot, close

  private async load(): Promise<void> {
    await mkdir(this.paths.home, { recursive: true, mode: DIR_MODE });
    let raw: unknown;
    try {
      raw = await this.low.adapter.read();
    } catch (e) {
      if (e instanceof CorruptFileError) throw await this.refuse(e.reason);
      throw e;
    }
    let db: DbFile;
    let fresh = false;
    if (raw === null) {
      db = emptyDb();
      fresh = true;
    } else {
      const problem = shapeProblem(raw);
      if (problem) throw await this.refuse(problem);
      try {
        db = migrate(raw as DbFile).db;
      } catch (e) {
        throw new StoreOpenError(`${this.paths.db}: ${(e as Error).message}`);
      }
    }
    for (const n of COLLECTION_NAMES) {
      const col = this.col(n);
      for (const doc of db.collections[n]) col.put(doc);
    }
    this.meta = { ...db.meta };
    this.seq = db.journal_seq;

    const { entries, damaged } = await this.journal.readAll();
    if (damaged) throw new StoreOpenError(`The journal is damaged: ${damaged}. Move the db.journal.* files aside to start from ${this.paths.db} alone (losing the writes since its last snapshot).`);
    let replayed = 0;
    for (const e of entries) {
      if (e.seq <= this.seq) continue;
      this.apply(e.ops);
      this.seq = e.seq;
      replayed++;
    }
    await this.journal.rollOver();
    // A fresh home, a migrated file or a replayed journal is folded into a snapshot straight away.
    if (fresh || replayed > 0 || db.schema_version !== (raw as DbFile | null)?.schema_version) await this.snapshot();
  }

  /** Keep the bad file as it is, save a copy, and explain how to restore the last good backup. */
  private async refuse(reason: string): Promise<StoreOpenError> {
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const copy = `${this.paths.db}.corrupt-${stamp}`;
    await copyFile(this.paths.db, copy).catch(() => {});
    const backups = await this.listBackups();
    const restore = backups.length
      ? `Restore the last good backup with:  cp ${join(this.paths.backups, backups[0]!)} ${this.paths.db}`
      : 'No backup exists yet; fix the file by hand or move it away to start empty.';
    return new StoreOpenError(`${this.paths.db} is corrupt: ${reason}. It was left untouched and copied to ${copy}. ${restore}`);
  }

  private async listBackups(): Promise<string[]> {
    try {
      return (await readdir(this.paths.backups)).filter((n) => n.endsWith('.json')).sort().reverse();
    } catch {
      return [];
    }
  }

  private scheduleSnapshot(): void {
    if (this.closed || this.snapshotting) return;
    if (this.opsSinceSnapshot >= this.opts.snapshotEveryOps) {
      void this.snapshot().catch((e) => this.opts.log?.('snapshot failed', { err: String(e) }));
      return;
    }
    this.snapshotTimer ??= setTimeout(() => {
      this.snapshotTimer = undefined;
      void this.snapshot().catch((e) => this.opts.log?.('snapshot failed', { err: String(e) }));
    }, this.opts.snapshotEveryMs);
    this.snapshotTimer.unref();
  }

  /**
   * Fold everything committed so far into db.json. New writes go to a fresh journal segment while
   * the file is written; once it is durable, the segments it covers are deleted.
   */
  snapshot(): Promise<void> {
    this.snapshotting ??= this.doSnapshot().finally(() => (this.snapshotting = undefined));
    return this.snapshotting;
  }

  private async doSnapshot(): Promise<void> {
    if (this.snapshotTimer) clearTimeout(this.snapshotTimer);
    this.snapshotTimer = undefined;
    // Switch segments first: every entry in an older segment was applied to memory before it was
    // appended, so the data taken next covers all of them and they can be retired afterwards.
    const keepFrom = await this.journal.rollOver();
    const data: DbFile = {
      schema_version: emptyDb().schema_version,
      journal_seq: this.seq,
      meta: { ...this.meta },
      collections: Object.fromEntries(COLLECTION_NAMES.map((n) => [n, this.col(n).all()])) as DbFile['collections'],
    };
    const opsFolded = this.opsSinceSnapshot;
    await this.backupCurrent();
    // Documents are frozen and replaced, never mutated, so `data` stays as it was taken above.
    this.low.data = data;
    await this.low.write();
    this.opsSinceSnapshot = Math.max(0, this.opsSinceSnapshot - opsFolded);
    await this.journal.retireBefore(keepFrom);
  }

  private async backupCurrent(): Promise<void> {
    try {
      await stat(this.paths.db);
    } catch {
      return;
    }
    await mkdir(this.paths.backups, { recursive: true, mode: DIR_MODE });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    await copyFile(this.paths.db, join(this.paths.backups, `db-${stamp}.json`));
    const all = await this.listBackups();
    for (const old of all.slice(this.opts.backups)) await unlink(join(this.paths.backups, old)).catch(() => {});
  }

  /** Bytes of db.json plus the journal (for status). */
  async bytes(): Promise<number> {
    let total = 0;
    for (const p of [this.paths.db, ...(await this.journal.segments()).map((n) => this.journal.segmentPath(n))]) {
      total += await stat(p).then((s) => s.size, () => 0);
    }
    return total;
  }

  /** Wait for in-flight writes, write a final snapshot, and stop. */
  async close(): Promise<void> {
    if (this.closed) return;
    await this.journal.drain();
    if (this.snapshotting) await this.snapshotting;
    if (this.opsSinceSnapshot > 0) await this.snapshot();
    this.closed = true;
    if (this.snapshotTimer) clearTimeout(this.snapshotTimer);
    await this.journal.close();
  }
}
