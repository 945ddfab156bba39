import { copyFile, link, mkdir, readdir, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { getHeapStatistics } from 'node:v8';
import { DIR_MODE, type HomePaths } from '../config/paths.js';
import { storageFull } from '../errors.js';
import { Commit } from './commit.js';
import { CorruptFileError, copyFileDurable, DurableJSONFile, fsyncDir, isNoSpace } from './durable-file.js';
import { Indexed } from './indexed.js';
import { Interner } from './intern.js';
import { Journal, type JournalEntry, type JournalOp, type RecordPlace, type SegmentFinding } from './journal.js';
import { futureSchema, migrate } from './migrations.js';
import {
  type Change,
  COLLECTION_NAMES,
  COLLECTIONS,
  type CollectionName,
  type DbFile,
  type Doc,
  type DocOf,
  emptyDb,
  type IndexOf,
  SCHEMA_VERSION,
  shapeProblem,
} from './schema.js';
import { shareFirstVersion } from './share-first-version.js';
import { lazyFile, SPILL_MIN_CHARS, spill, type TextFile } from './spill.js';

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
  /**
   * Snapshot once at least this many operations were journalled and the journal has grown past
   * `snapshotJournalFraction` of db.json (as an append-only log is rewritten when it has grown by a
   * share of its base): a snapshot costs in proportion to the store, so it is taken after a number
   * of writes in proportion to the store too, and its cost per write stays the same at any size.
   */
  snapshotEveryOps?: number;
  /** The journal's size, as a share of db.json's, past which a snapshot is due (default 0.25). */
  snapshotJournalFraction?: number;
  /** Also fold the journal in this long after the first unsnapshotted write, at the first quiet second. */
  snapshotEveryMs?: number;
  /** How many previous good db.json files to keep in backups/. */
  backups?: number;
  log?: (msg: string, extra?: Record<string, unknown>) => void;
}

/** Reads and staged writes of one transaction; see Store.transact. */
export interface Tx extends Reads {
  put<C extends CollectionName>(c: C, doc: DocOf<C>): void;
  delete(c: CollectionName, id: string): void;
  setMeta(k: string, v: unknown): void;
}

/** Typed reads, the same on the store (durable state) and in a transaction (its staged view). */
export interface Reads {
  get<C extends CollectionName>(c: C, id: string): DocOf<C> | undefined;
  byIndex<C extends CollectionName>(c: C, index: IndexOf<C>, value: unknown): DocOf<C>[];
  all<C extends CollectionName>(c: C): DocOf<C>[];
  getMeta<T>(k: string): T | undefined;
}

/** A write staged by a transaction whose journal record is not durable yet. */
interface PendingWrite<T> {
  value: T;
  /** The transaction that wrote it last: only that one's outcome removes it. */
  seq: number;
}

/**
 * The only code that touches db.json. Data lives in memory with indexes; every mutation is a
 * synchronous transaction whose operations are appended to an fsync'd journal (group commit)
 * before the promise resolves. db.json, written through its lowdb adapter, is the canonical snapshot: it is
 * rewritten in the background and the journal segments it covers are retired. Services never
 * see which of the two made a write durable.
 *
 * Two layers in memory: the durable state, which every reader and commit listener sees, and the
 * writes of transactions still on their way to disk, which only later transactions see (they are
 * staged on top of them, as a single writer would). A transaction moves into the durable state
 * when the journal has synced it; if the journal refuses it, it and every transaction staged
 * after it vanish without a reader ever having seen them.
 */
export class Store implements Reads {
  private readonly cols = new Map<CollectionName, Indexed>();
  private meta: Record<string, unknown> = {};
  /** Last sequence number given to a transaction. */
  private seq = 0;
  /** Last sequence number in the durable state (what a snapshot covers). */
  private durableSeq = 0;
  private readonly pendingDocs = new Map<CollectionName, Map<string, PendingWrite<Doc | null>>>();
  private readonly pendingMeta = new Map<string, PendingWrite<unknown>>();
  /** The last snapshot failed (a full disk, say): retry on the timer, not after every write. */
  private snapshotFailed = false;
  private opsSinceSnapshot = 0;
  private snapshotTimer?: NodeJS.Timeout;
  private snapshotting?: Promise<void>;
  /** Aborted by close: a snapshot under way is dropped (the journal keeps what it would fold in). */
  private readonly stopSnapshot = new AbortController();
  /** durableSeq when the snapshot under way started: it covers at least that much. */
  private snapshotFrom = 0;
  private closed = false;
  private readonly file: DurableJSONFile;
  private readonly journal: Journal;
  /** journal.bytesWritten when the last snapshot switched segments: what came later is not in db.json. */
  private journalBytesFolded = 0;
  /** When the last transaction was acknowledged (a timed snapshot waits for a quiet moment). */
  private lastWriteAt = 0;
  private readonly listeners = new Set<(ops: JournalOp[]) => void>();
  /** The journal segment the last large strings were spilled to. */
  private segmentText?: { path: string; file: () => TextFile };
  /** Short strings kept once in memory (see intern.ts). */
  private readonly interner = new Interner();

  private constructor(
    readonly paths: HomePaths,
    private readonly opts: Required<Omit<StoreOptions, 'log'>> & Pick<StoreOptions, 'log'>,
  ) {
    this.file = new DurableJSONFile(paths.db);
    this.journal = new Journal(paths.journal);
    for (const n of COLLECTION_NAMES) this.cols.set(n, new Indexed(COLLECTIONS[n].key, COLLECTIONS[n].indexes));
  }

  static async open(paths: HomePaths, options: StoreOptions = {}): Promise<Store> {
    const store = new Store(paths, {
      snapshotEveryOps: options.snapshotEveryOps ?? 2000,
      snapshotEveryMs: options.snapshotEveryMs ?? 30_000,
      snapshotJournalFraction: options.snapshotJournalFraction ?? 0.25,
      backups: options.backups ?? 3,
      log: options.log,
    });
    await store.load();
    return store;
  }

  // ------------------------------------------------------------------ reads

  get<C extends CollectionName>(c: C, id: string): DocOf<C> | undefined {
    return this.col(c).get(id) as DocOf<C> | undefined;
  }

  byIndex<C extends CollectionName>(c: C, index: IndexOf<C>, value: unknown): DocOf<C>[] {
    return this.col(c).byIndex(index, value) as DocOf<C>[];
  }

  all<C extends CollectionName>(c: C): DocOf<C>[] {
    return this.col(c).all() as DocOf<C>[];
  }

  count(c: CollectionName): number {
    return this.col(c).size;
  }

  /** The number of documents in every collection (status pages, tools). */
  counts(): Record<CollectionName, number> {
    return Object.fromEntries(COLLECTION_NAMES.map((c) => [c, this.col(c).size])) as Record<CollectionName, number>;
  }

  getMeta<T>(k: string): T | undefined {
    return this.meta[k] as T | undefined;
  }

  /**
   * Follow every durable transaction: after each one, `fn` gets its typed changes (cache
   * invalidation, indexes, live sync). Returns the unsubscribe function. A follower that throws is
   * logged and does not stop the others.
   */
  commits(fn: (commit: Commit) => void): () => void {
    return this.onCommit((ops) => fn(new Commit(ops)));
  }

  /** Follow one collection: `fn` gets the changes of every durable transaction that touched it. */
  changes<C extends CollectionName>(c: C, fn: (changes: Change<C>[]) => void): () => void {
    return this.commits((commit) => {
      const mine = commit.changes(c);
      if (mine.length) fn(mine);
    });
  }

  /** The raw journal operations of every durable transaction: the store's own plumbing and its tests. */
  onCommit(fn: (ops: JournalOp[]) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  // ------------------------------------------------------------------ writes

  /**
   * Run `fn` against a staged view and commit what it staged, all or nothing. `fn` is synchronous,
   * so no other transaction interleaves with it: this is the single writer. The promise resolves
   * once the transaction is durable on disk, and only then do readers see it. If the disk refuses
   * it, it rejects with `storage_full` (ENOSPC, EFBIG, EDQUOT) or the file system's error, and
   * nothing of it was applied.
   */
  async transact<R>(fn: (tx: Tx) => R): Promise<R> {
    if (this.closed) throw new Error('the store is closed');
    const { tx, ops } = this.stage();
    const result = fn(tx);
    if (result instanceof Promise) throw new Error('Store.transact takes a synchronous function');
    if (ops.length === 0) return result;
    const entry: JournalEntry = { seq: ++this.seq, ops };
    this.stagePending(entry);
    try {
      await this.journal.append(entry, {
        durable: (where) => this.commitDurable(entry, where),
        refused: () => this.dropPending(entry),
      });
    } catch (e) {
      if (isNoSpace(e)) throw storageFull(e);
      throw e;
    }
    this.scheduleSnapshot();
    return result;
  }

  /** Make a transaction's writes visible to the transactions staged after it. */
  private stagePending(entry: JournalEntry): void {
    for (const op of entry.ops) {
      if (op.op === 'meta') this.pendingMeta.set(op.k, { value: op.v, seq: entry.seq });
      else {
        const c = op.c as CollectionName;
        let m = this.pendingDocs.get(c);
        if (!m) this.pendingDocs.set(c, (m = new Map()));
        if (op.op === 'put') m.set(this.keyOf(c, op.doc), { value: deepFreeze(op.doc), seq: entry.seq });
        else m.set(op.id, { value: null, seq: entry.seq });
      }
    }
  }

  /** Forget the pending writes this transaction was the last to make. */
  private dropPending(entry: JournalEntry): void {
    for (const op of entry.ops) {
      if (op.op === 'meta') {
        if (this.pendingMeta.get(op.k)?.seq === entry.seq) this.pendingMeta.delete(op.k);
        continue;
      }
      const m = this.pendingDocs.get(op.c as CollectionName);
      const id = op.op === 'put' ? this.keyOf(op.c as CollectionName, op.doc) : op.id;
      if (m?.get(id)?.seq === entry.seq) m.delete(id);
    }
  }

  /** The journal synced this transaction (they arrive in order): readers and listeners see it now. */
  private commitDurable(entry: JournalEntry, where: RecordPlace): void {
    this.spillOps(entry.ops, where);
    this.apply(entry.ops);
    this.dropPending(entry);
    this.durableSeq = entry.seq;
    this.opsSinceSnapshot += entry.ops.length;
    for (const l of this.listeners) {
      try {
        l(entry.ops);
      } catch (e) {
        this.opts.log?.('commit listener failed', { err: String(e) });
      }
    }
  }

  private keyOf(c: CollectionName, doc: Doc): string {
    const id = doc[COLLECTIONS[c].key];
    if (typeof id !== 'string' || !id) throw new Error(`${c}: document without a string ${COLLECTIONS[c].key}`);
    return id;
  }

  // The view a transaction starts from: the durable state under the pending writes.

  private viewGet(c: CollectionName, id: string): Doc | undefined {
    const p = this.pendingDocs.get(c);
    if (p?.has(id)) return p.get(id)!.value ?? undefined;
    return this.col(c).get(id);
  }

  private viewMerge(c: CollectionName, base: Doc[], keep: (d: Doc) => boolean): Doc[] {
    const p = this.pendingDocs.get(c);
    if (!p?.size) return base;
    const key = COLLECTIONS[c].key;
    const out = base.filter((d) => !p.has(d[key] as string));
    for (const w of p.values()) if (w.value && keep(w.value)) out.push(w.value);
    return out;
  }

  private viewByIndex(c: CollectionName, index: string, value: unknown): Doc[] {
    return this.viewMerge(c, this.col(c).byIndex(index, value), (d) => d[index] === value);
  }

  private viewAll(c: CollectionName): Doc[] {
    return this.viewMerge(c, this.col(c).all(), () => true);
  }

  private viewMeta(k: string): unknown {
    const p = this.pendingMeta.get(k);
    return p ? p.value : this.meta[k];
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
    const keyOf = (c: CollectionName, doc: Doc) => this.keyOf(c, doc);
    // The generic signatures are the Tx interface's; inside, documents are plain Docs.
    type T = Doc;
    const tx = {
      get: (c: CollectionName, id: string) => {
        const o = overlay.get(c);
        if (o?.has(id)) return (o.get(id) ?? undefined) as T | undefined;
        return this.viewGet(c, id) as T | undefined;
      },
      byIndex: (c: CollectionName, index: string, value: unknown) => {
        const base = this.viewByIndex(c, index, value) as T[];
        const o = overlay.get(c);
        if (!o?.size) return base;
        const key = COLLECTIONS[c].key;
        const out = base.filter((d) => !o.has(d[key] as string));
        for (const d of o.values()) if (d && d[index] === value) out.push(d as T);
        return out;
      },
      all: (c: CollectionName) => {
        const o = overlay.get(c);
        const base = this.viewAll(c) as T[];
        if (!o?.size) return base;
        const key = COLLECTIONS[c].key;
        const out = base.filter((d) => !o.has(d[key] as string));
        for (const d of o.values()) if (d) out.push(d as T);
        return out;
      },
      put: (c: CollectionName, doc: Doc) => {
        const copy = structuredClone(doc);
        this.interner.doc(copy);
        layer(c).set(keyOf(c, copy), copy);
        ops.push({ op: 'put', c, doc: copy });
      },
      delete: (c: CollectionName, id: string) => {
        layer(c).set(id, null);
        ops.push({ op: 'del', c, id });
      },
      getMeta: <T>(k: string) => (metaOverlay.has(k) ? metaOverlay.get(k) : this.viewMeta(k)) as T | undefined,
      setMeta: (k: string, v: unknown) => {
        metaOverlay.set(k, v);
        ops.push({ op: 'meta', k, v });
      },
    } as unknown as Tx;
    return { tx, ops };
  }

  /**
   * Large strings of the documents a record puts are read back from the record when needed
   * (see spill.ts): listeners and the collections get the spilled copies.
   */
  private spillOps(ops: JournalOp[], where: RecordPlace): void {
    if (where.line.length < SPILL_MIN_CHARS) return;
    if (this.segmentText?.path !== where.path) this.segmentText = { path: where.path, file: lazyFile(where.path) };
    const place = { file: this.segmentText.file, text: where.line, offset: where.offset };
    for (const op of ops) if (op.op === 'put') op.doc = spill(op.doc, place);
  }

  private apply(ops: JournalOp[]): void {
    for (const op of ops) {
      if (op.op === 'put') this.col(op.c as CollectionName).put(deepFreeze(op.doc));
      else if (op.op === 'del') this.col(op.c as CollectionName).delete(op.id);
      else this.meta[op.k] = op.v;
    }
    for (const op of ops) if (op.op === 'put' && op.c === 'trace_versions') this.share(op.doc);
  }

  /** A first history row shares its copy of the trace with the trace (see shareFirstVersion). */
  private share(row: Doc): void {
    const shared = shareFirstVersion(row, this.col('traces').get(row.uid as string));
    if (shared) this.col('trace_versions').swap(row.id as string, shared);
  }

  /**
   * After a start, share the first history rows of what db.json and the journal held, a slice per
   * turn of the event loop: memory, not correctness, so the daemon answers first. The turns are
   * ref'd immediates: Node runs unref'd ones only when something else wakes the loop (a request),
   * so the work would wait for traffic and then tax every request. It ends by itself, or at close.
   */
  private shareInBackground(): void {
    const rows = this.all('trace_versions');
    let at = 0;
    const step = () => {
      if (this.closed) return;
      const start = performance.now();
      while (at < rows.length && performance.now() - start < 5) {
        for (const end = Math.min(rows.length, at + 64); at < end; at++) {
          const row = rows[at]!;
          if (this.col('trace_versions').get(row.id) === row) this.share(row as unknown as Doc);
        }
      }
      if (at < rows.length) setImmediate(step);
    };
    setImmediate(step);
  }

  private col(c: CollectionName): Indexed {
    const col = this.cols.get(c);
    if (!col) throw new Error(`unknown collection ${c}`);
    return col;
  }

  // ------------------------------------------------------------------ load, snapshot, close

  private async load(): Promise<void> {
    await mkdir(this.paths.home, { recursive: true, mode: DIR_MODE });
    await this.removeDeadSnapshots();
    await this.refuseWhatCannotFit();
    let raw: unknown;
    try {
      const file = lazyFile(this.paths.db);
      raw = await this.file.read((v, keys, line, offset) =>
        keys.length === 3 && keys[1] === 'collections' && line.length >= SPILL_MIN_CHARS ? spill(v as Doc, { file, text: line, offset }) : v,
      );
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
      db = raw as DbFile;
      if (db.schema_version > SCHEMA_VERSION) throw new StoreOpenError(`${this.paths.db}: ${futureSchema(db.schema_version)}`);
    }
    // The file's own version first: the journal after it was written by the same kairos, so its
    // records have the file's shape; both are migrated together once replayed (below).
    this.fill(db);

    // Replayed as it is read: a segment of any size is never held whole. Damage is known only at
    // the end; the store then refuses to open, so what was applied is never seen.
    let replayed = 0;
    const findings = await this.journal.replay((e, where) => {
      if (e.seq <= this.seq) return;
      this.spillOps(e.ops, where);
      this.apply(e.ops);
      this.seq = this.durableSeq = e.seq;
      replayed++;
    });
    const damaged = findings.filter((f) => f.damagedLines);
    if (damaged.length) throw new StoreOpenError(journalDamage(damaged));
    for (const f of findings) {
      if (f.tornTail)
        this.opts.log?.('journal: dropped a torn record at the end of a segment (a crash or a refused write mid-append; it was never acknowledged)', {
          segment: f.path,
          line: f.tornTail.line,
          bytes: f.tornTail.bytes,
        });
    }
    if (db.schema_version < SCHEMA_VERSION) {
      // Migrate what the file and its journal hold together: a record written after the last
      // snapshot by the older kairos (a key minted just before the upgrade, say) is carried
      // forward like the rest. The snapshot below then writes it all in the new shape.
      const seq = this.seq;
      try {
        this.fill(migrate({ ...this.state(), schema_version: db.schema_version }).db);
      } catch (e) {
        throw new StoreOpenError(`${this.paths.db}: ${(e as Error).message}`);
      }
      this.seq = this.durableSeq = seq;
    }
    await this.journal.rollOver();
    // A fresh home or a migrated file is folded into a snapshot straight away; a replayed journal
    // or a torn record in the background, as the daemon answers (a stop leaves the journal of a
    // large store for this start: rewriting db.json first would hold the start as long). If the
    // disk refuses it, the journal still holds everything: start anyway.
    if (fresh || db.schema_version !== SCHEMA_VERSION) {
      await this.snapshot().catch((e) => this.opts.log?.('snapshot at start failed; the journal keeps every write', { err: String(e) }));
    } else if (replayed > 0 || findings.length > 0) this.background();
    this.shareInBackground();
  }

  /**
   * A snapshot cut short by a crash leaves its temp file (`db.json.<pid>.tmp`, as big as db.json):
   * never read, so removed at the next open. Only the daemon opens the store (it holds the lock).
   */
  private async removeDeadSnapshots(): Promise<void> {
    const prefix = `${basename(this.paths.db)}.`;
    for (const n of await readdir(dirname(this.paths.db)).catch(() => [] as string[])) {
      if (n.startsWith(prefix) && n.endsWith('.tmp') && n !== `${prefix}${process.pid}.tmp`) await unlink(join(dirname(this.paths.db), n)).catch(() => {});
    }
  }

  /**
   * What db.json and the journal hold is kept in memory (all but their large strings, which
   * stay on disk: spill.ts): a home larger than this process's heap may hold is refused up
   * front, with the command that gives it room, rather than failing with V8's out-of-memory
   * crash halfway through the reading. Homes of long texts need less than this asks for.
   */
  private async refuseWhatCannotFit(): Promise<void> {
    const bytes = await this.bytes();
    const limit = getHeapStatistics().heap_size_limit;
    if (bytes <= limit) return;
    const mb = (n: number) => Math.ceil(n / 2 ** 20);
    throw new StoreOpenError(
      `${this.paths.db} and its journal hold ${mb(bytes)} MB, more than this process's heap limit of ${mb(limit)} MB can hold. Nothing was changed. Start the daemon with a larger limit:  NODE_OPTIONS=--max-old-space-size=${2 * mb(bytes)} kairos daemon start`,
    );
  }

  /** Replace the in-memory state with a file's (collections, meta, journal position). */
  private fill(db: DbFile): void {
    for (const n of COLLECTION_NAMES) {
      const col = new Indexed(COLLECTIONS[n].key, COLLECTIONS[n].indexes);
      for (const doc of db.collections[n] ?? []) {
        // A spilled copy is frozen already (and its large strings are read only on demand).
        if (!Object.isFrozen(doc)) this.interner.doc(doc);
        col.put(doc);
      }
      this.cols.set(n, col);
    }
    this.borrowTraceStrings();
    this.meta = { ...db.meta };
    this.seq = this.durableSeq = db.journal_seq ?? 0;
  }

  /**
   * A history row repeats its trace's uid, and often its timestamps: the interner's window has
   * long moved on by the time the rows are read (they follow all the traces in db.json), so the
   * rows take the trace's own strings here. Rows just parsed, not frozen, held by nobody else.
   */
  private borrowTraceStrings(): void {
    const traces = this.col('traces');
    for (const row of this.col('trace_versions').all()) {
      if (Object.isFrozen(row)) continue;
      const t = traces.get(row.uid as string);
      if (!t) continue;
      row.uid = t.uid;
      if (row.timestamp === t.updated_at) row.timestamp = t.updated_at;
      else if (row.timestamp === t.created_at) row.timestamp = t.created_at;
    }
  }

  /** The in-memory state as a file of the current shape (what a snapshot writes, less its framing). */
  private state(): DbFile {
    return {
      schema_version: SCHEMA_VERSION,
      journal_seq: this.durableSeq,
      meta: { ...this.meta },
      collections: Object.fromEntries(COLLECTION_NAMES.map((n) => [n, this.col(n).all()])) as DbFile['collections'],
    };
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
      return (await readdir(this.paths.backups))
        .filter((n) => n.endsWith('.json'))
        .sort()
        .reverse();
    } catch {
      return [];
    }
  }

  /** Journal bytes not folded into db.json yet. */
  private get journalBytes(): number {
    return this.journal.bytesWritten - this.journalBytesFolded;
  }

  /** Enough was journalled that folding it in now costs no more per write than at any other size. */
  private snapshotDue(): boolean {
    return this.opsSinceSnapshot >= this.opts.snapshotEveryOps && this.journalBytes >= this.opts.snapshotJournalFraction * this.file.bytes;
  }

  private scheduleSnapshot(): void {
    this.lastWriteAt = performance.now();
    this.armSnapshot();
  }

  private armSnapshot(delay = this.opts.snapshotEveryMs): void {
    if (this.closed || this.snapshotting || this.opsSinceSnapshot === 0) return;
    if (this.snapshotDue() && !this.snapshotFailed) {
      this.background();
      return;
    }
    this.snapshotTimer ??= setTimeout(() => {
      this.snapshotTimer = undefined;
      // During a burst the timer waits for a quiet second: the size rule above takes the burst.
      if (performance.now() - this.lastWriteAt < QUIET_MS && !this.snapshotDue()) this.armSnapshot(QUIET_MS);
      else this.background();
    }, delay);
    this.snapshotTimer.unref();
  }

  private background(): void {
    if (this.closed) return;
    void this.snapshot().catch((e) => this.opts.log?.('snapshot failed; the journal keeps every write', { err: String(e) }));
  }

  /**
   * Fold everything committed so far into db.json. New writes go to a fresh journal segment while
   * the file is written; once it is durable, the segments it covers are deleted. A snapshot that
   * fails leaves no temp file, db.json and the backups as they were, and every segment in place.
   */
  async snapshot(signal: AbortSignal = this.stopSnapshot.signal): Promise<void> {
    // A snapshot already under way is enough if it started after the last write the caller saw.
    const wanted = this.durableSeq;
    while (this.snapshotting) {
      if (this.snapshotFrom >= wanted) return this.snapshotting;
      await this.snapshotting.catch(() => {});
    }
    this.snapshotFrom = this.durableSeq;
    this.snapshotting = this.doSnapshot(signal)
      .then(
        () => void (this.snapshotFailed = false),
        (e: unknown) => {
          this.snapshotFailed = true;
          throw e;
        },
      )
      .finally(() => {
        this.snapshotting = undefined;
        // Writes acknowledged while it ran are folded in by the next one (on the timer at least).
        if (!this.closed) this.armSnapshot();
      });
    return this.snapshotting;
  }

  private async doSnapshot(signal: AbortSignal): Promise<void> {
    if (this.snapshotTimer) clearTimeout(this.snapshotTimer);
    this.snapshotTimer = undefined;
    // Switch segments first: once rollOver resolves, every entry in an older segment is durable
    // and applied to the durable state, so the data taken next covers all of them and they can be
    // retired afterwards. Entries in the new segment that the data already holds are skipped at
    // replay by their seq.
    const keepFrom = await this.journal.rollOver();
    const bytesFolded = this.journal.bytesWritten;
    const data: DbFile = {
      schema_version: emptyDb().schema_version,
      journal_seq: this.durableSeq,
      meta: { ...this.meta },
      collections: Object.fromEntries(COLLECTION_NAMES.map((n) => [n, this.col(n).all()])) as DbFile['collections'],
    };
    const opsFolded = this.opsSinceSnapshot;
    await this.backupCurrent();
    // Documents are frozen and replaced, never mutated, so `data` stays as it was taken above.
    // (Not handed to lowdb to keep: its arrays would hold every document as of this snapshot,
    // the old versions of those replaced since included, until the next one.)
    const moved: { c: CollectionName; old: Doc; doc: Doc }[] = [];
    let file: (() => TextFile) | undefined;
    await this.file.write(data, signal, (v, keys, json, offset, tmp) => {
      if (keys[0] !== 'collections' || keys.length !== 3 || json.length < SPILL_MIN_CHARS) return;
      file ??= lazyFile(tmp);
      const doc = spill(v as Doc, { file, text: json, offset });
      if (doc !== v) moved.push({ c: keys[1] as CollectionName, old: v as Doc, doc });
    });
    // Documents written in this snapshot read their large strings from it from now on: the
    // journal segments and the old db.json they pointed into are closed once nothing points there.
    for (const m of moved) {
      const id = this.keyOf(m.c, m.old);
      if (this.col(m.c).get(id) === m.old) this.col(m.c).swap(id, m.doc);
    }
    this.opsSinceSnapshot = Math.max(0, this.opsSinceSnapshot - opsFolded);
    this.journalBytesFolded = bytesFolded;
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
    const backup = join(this.paths.backups, `db-${stamp}.json`);
    // A hard link, not a copy: db.json is only ever replaced by a rename, never written in place,
    // so the link keeps the previous snapshot's bytes (already synced) for the cost of a name.
    await unlink(backup).catch(() => {}); // two snapshots within one millisecond
    try {
      await link(this.paths.db, backup);
      await fsyncDir(this.paths.backups);
    } catch {
      // A file system without hard links: copy, as durably.
      await unlink(backup).catch(() => {});
      await copyFileDurable(this.paths.db, backup);
    }
    const all = await this.listBackups();
    for (const old of all.slice(this.opts.backups)) await unlink(join(this.paths.backups, old)).catch(() => {});
  }

  /** Bytes of db.json plus the journal (for status). */
  async bytes(): Promise<number> {
    let total = 0;
    for (const p of [this.paths.db, ...(await this.journal.segments()).map((n) => this.journal.segmentPath(n))]) {
      total += await stat(p).then(
        (s) => s.size,
        () => 0,
      );
    }
    return total;
  }

  /**
   * Wait for in-flight writes and stop. A snapshot under way is dropped and none is written:
   * every acknowledged write is in the journal, which the next open replays (and folds into
   * db.json in the background), so a stop waits for the last fdatasync and nothing else.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.snapshotTimer) clearTimeout(this.snapshotTimer);
    await this.journal.drain();
    this.stopSnapshot.abort(new Error('the store is closing'));
    if (this.snapshotting) await this.snapshotting.catch(() => {});
    await this.journal.close();
  }
}

/** How long without a write counts as quiet enough for a timed snapshot. */
const QUIET_MS = 1000;

/**
 * Why the journal cannot be replayed, and the command that keeps every intact record: it deletes
 * exactly the damaged lines, keeping the original beside it as `<segment>.damaged` (not a segment
 * name, so it is never replayed).
 */
function journalDamage(damaged: SegmentFinding[]): string {
  const where = damaged.map((f) => `${f.path} line${f.damagedLines!.length > 1 ? 's' : ''} ${f.damagedLines!.join(', ')}`).join('; ');
  const fix = damaged.map((f) => `sed -i.damaged '${f.damagedLines!.map((l) => `${l}d`).join(';')}' ${f.path}`).join(' && ');
  return `The journal is damaged: ${where} ${damaged.length > 1 || damaged[0]!.damagedLines!.length > 1 ? 'are' : 'is'} not a whole record, and later records follow. Nothing was changed. To drop only the damaged records and keep every intact one, run:  ${fix}`;
}
