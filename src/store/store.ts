import { mkdir } from 'node:fs/promises';
import { DIR_MODE, type HomePaths } from '../config/paths.js';
import { storageFull } from '../errors.js';
import type { Opening } from '../platform/segmented-map.js';
import { thawFrom } from './cold-rows.js';
import { Commit } from './commit.js';
import { CorruptFileError, DurableJSONFile, isNoSpace } from './durable-file.js';
import { backupCurrent, journalDamage, refuseCorrupt, refuseWhatCannotFit, removeDeadSnapshots, StoreOpenError, totalSize } from './home-files.js';
import { Indexed } from './indexed.js';
import { Interner } from './intern.js';
import { Journal, type JournalEntry, type JournalOp, type RecordPlace } from './journal.js';
import { futureSchema, migrate } from './migrations.js';
import { RowMapBuilder, readRowMap } from './row-map.js';
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
import { lazyFile, type Place, SPILL_MIN_CHARS, spill, TextFile } from './spill.js';
import { deepFreeze, keyOf, type Reads, Staging, type Tx } from './staging.js';
import { type ResolvedStoreOptions, type StoreOptions, withDefaults } from './store-options.js';

export { StoreOpenError } from './home-files.js';
export type { Reads, Tx } from './staging.js';
export type { StoreOptions } from './store-options.js';

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
  /** Reading the rows left cold at the open (see loadCold), in the background; a snapshot waits for it. */
  private warming: Promise<void> = Promise.resolve();
  /** Writes on their way to disk, and the view transactions start from. */
  private readonly staging = new Staging({ col: (c) => this.col(c), meta: (k) => this.meta[k] }, this.interner);

  private constructor(
    readonly paths: HomePaths,
    private readonly opts: ResolvedStoreOptions,
  ) {
    this.file = new DurableJSONFile(paths.db);
    this.journal = new Journal(paths.journal);
    for (const n of COLLECTION_NAMES) this.cols.set(n, new Indexed(COLLECTIONS[n].key, COLLECTIONS[n].indexes));
  }

  static async open(paths: HomePaths, options: StoreOptions = {}): Promise<Store> {
    const store = new Store(paths, withDefaults(options));
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

  /**
   * Every key of `c` in the order all() lists them, without reading a document left cold at the
   * open, and each one's document by its place in that order, read when asked (undefined once it
   * was deleted or moved to another index value since).
   */
  listing<C extends CollectionName>(c: C): { readonly keys: string[]; doc(i: number): DocOf<C> | undefined } {
    return this.col(c).listing() as { keys: string[]; doc(i: number): DocOf<C> | undefined };
  }

  /**
   * Resolves once every document is in memory (at once unless the open left rows cold): work
   * that reads every document waits for it instead of reading them all in one turn.
   */
  warmed(): Promise<void> {
    return this.warming;
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
    const { tx, ops } = this.staging.stage();
    const result = fn(tx);
    if (result instanceof Promise) throw new Error('Store.transact takes a synchronous function');
    if (ops.length === 0) return result;
    const entry: JournalEntry = { seq: ++this.seq, ops };
    this.staging.add(entry);
    try {
      await this.journal.append(entry, {
        durable: (where) => this.commitDurable(entry, where),
        refused: () => this.staging.drop(entry),
      });
    } catch (e) {
      if (isNoSpace(e)) throw storageFull(e);
      throw e;
    }
    this.scheduleSnapshot();
    return result;
  }

  /** The journal synced this transaction (they arrive in order): readers and listeners see it now. */
  private commitDurable(entry: JournalEntry, where: RecordPlace): void {
    this.spillOps(entry.ops, where);
    this.apply(entry.ops);
    this.staging.drop(entry);
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

  /** Run `fn` against a staged view and throw the staged writes away (dry runs). */
  simulate<R>(fn: (tx: Tx) => R): R {
    return fn(this.staging.stage().tx);
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
  }

  private col(c: CollectionName): Indexed {
    const col = this.cols.get(c);
    if (!col) throw new Error(`unknown collection ${c}`);
    return col;
  }

  // ------------------------------------------------------------------ load, snapshot, close

  private async load(): Promise<void> {
    await mkdir(this.paths.home, { recursive: true, mode: DIR_MODE });
    await removeDeadSnapshots(this.paths.db);
    const total = await this.bytes();
    refuseWhatCannotFit(this.paths.db, total);
    let read = 0;
    const loading = this.opts.loading;
    const onRead = loading && ((bytes: number) => loading((read += bytes), total));
    const opening: Opening = { open: true };
    const cold = await this.loadCold(opening, onRead);
    const db = cold ? undefined : await this.loadWhole(opening, onRead);
    const fresh = !cold && db === undefined;
    // A map is used only for a file of this version (see loadCold).
    const version = db?.schema_version ?? SCHEMA_VERSION;
    // Replayed as it is read: a segment of any size is never held whole. Damage is known only at
    // the end; the store then refuses to open, so what was applied is never seen.
    let replayed = 0;
    const findings = await this.journal.replay((e, where) => {
      if (e.seq <= this.seq) return;
      // Interned as a transaction's puts are (a spilled copy is frozen already).
      for (const op of e.ops) if (op.op === 'put' && !Object.isFrozen(op.doc)) this.interner.doc(op.doc, COLLECTIONS[op.c as CollectionName]?.key);
      this.spillOps(e.ops, where);
      this.apply(e.ops);
      this.seq = this.durableSeq = e.seq;
      replayed++;
    }, onRead);
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
    if (version < SCHEMA_VERSION) {
      // Migrate what the file and its journal hold together: a record written after the last
      // snapshot by the older kairos (a key minted just before the upgrade, say) is carried
      // forward like the rest. The snapshot below then writes it all in the new shape.
      const seq = this.seq;
      try {
        this.fill(migrate({ ...this.state(), schema_version: version }).db, opening);
      } catch (e) {
        throw new StoreOpenError(`${this.paths.db}: ${(e as Error).message}`);
      }
      this.seq = this.durableSeq = seq;
    }
    opening.open = false;
    // Before any snapshot starts: it waits for this.
    if (cold) this.warming = this.warmUp();
    await this.journal.removeEmpty();
    await this.journal.rollOver();
    // A fresh home or a migrated file is folded into a snapshot straight away; a replayed journal
    // or a torn record in the background, as the daemon answers (a stop leaves its journal for
    // this start: rewriting db.json first would hold the start as long). If the disk refuses it,
    // the journal still holds everything: start anyway.
    if (fresh || version !== SCHEMA_VERSION) {
      await this.snapshot().catch((e) => this.opts.log?.('snapshot at start failed; the journal keeps every write', { err: String(e) }));
    } else if (replayed > 0 || findings.length > 0) this.background();
  }

  /**
   * Open from db.json's row map when it describes db.json as it is (see row-map.ts): keys and
   * indexes from the map, each document read from db.json when first asked for or by warmUp.
   * False (nothing changed) when db.json must be read whole.
   */
  private async loadCold(opening: Opening, onRead?: (bytes: number) => void): Promise<boolean> {
    let map: Awaited<ReturnType<typeof readRowMap>>;
    try {
      map = await readRowMap(rowMapPath(this.paths), this.paths.db);
    } catch (e) {
      this.opts.log?.('db.json.rows could not be read; reading db.json whole', { err: String(e) });
      return false;
    }
    if (!map || map.schema_version !== SCHEMA_VERSION) return false;
    try {
      // Opened now: a snapshot that renames a new db.json over this one later leaves these bytes be.
      const file = new TextFile(this.paths.db);
      const cols = new Map<CollectionName, Indexed>();
      for (const name of COLLECTION_NAMES) {
        const { key, indexes } = COLLECTIONS[name];
        const rows = map.collections[name];
        const col = new Indexed(key, indexes, opening, rows.keys.length);
        const parse = (json: string, offset: number) => this.parsed(JSON.parse(json) as Doc, key, { file: () => file, text: json, offset });
        if (rows.keys.length)
          col.putCold(
            rows.keys,
            (i, index) => {
              const { values, codes } = rows.index[index]!;
              const code = codes[i]!;
              return code < 0 ? undefined : values[code];
            },
            thawFrom(file, rows, parse),
          );
        cols.set(name, col);
      }
      for (const [name, col] of cols) this.cols.set(name, col);
    } catch (e) {
      this.opts.log?.('db.json.rows does not fit db.json; reading db.json whole', { err: String(e) });
      return false;
    }
    this.meta = { ...map.meta };
    this.seq = this.durableSeq = map.journal_seq;
    this.file.bytes = map.bytes;
    // Its documents are as good as read: each is read when asked for.
    onRead?.(map.bytes);
    return true;
  }

  /** Read db.json whole (or find none: undefined) and fill the collections from it. */
  private async loadWhole(opening: Opening, onRead?: (bytes: number) => void): Promise<DbFile | undefined> {
    let raw: unknown;
    /** Documents of each collection interned as they were parsed (fill() then leaves them be). */
    const interned = new Map<string, number>();
    try {
      const file = lazyFile(this.paths.db);
      raw = await this.file.read((v, keys, line, offset) => {
        if (keys.length !== 3 || keys[1] !== 'collections') return v;
        const known = Object.hasOwn(COLLECTIONS, keys[2]!) && typeof v === 'object' && v !== null && !Array.isArray(v);
        // A short line that is not a document of a known collection is left for shapeProblem.
        if (line.length < SPILL_MIN_CHARS && !known) return v;
        interned.set(keys[2]!, (interned.get(keys[2]!) ?? 0) + 1);
        return this.parsed(v as Doc, known ? COLLECTIONS[keys[2] as CollectionName].key : undefined, { file, text: line, offset });
      }, onRead);
    } catch (e) {
      if (e instanceof CorruptFileError) throw await refuseCorrupt(this.paths, e.reason);
      throw e;
    }
    if (raw === null) {
      this.fill(emptyDb(), opening);
      return undefined;
    }
    const problem = shapeProblem(raw);
    if (problem) throw await refuseCorrupt(this.paths, problem);
    const db = raw as DbFile;
    if (db.schema_version > SCHEMA_VERSION) throw new StoreOpenError(`${this.paths.db}: ${futureSchema(db.schema_version)}`);
    // The file's own version first: the journal after it was written by the same kairos, so its
    // records have the file's shape; both are migrated together once replayed (see load).
    this.fill(db, opening, onRead && (() => onRead(0)), interned);
    return db;
  }

  /**
   * A document just parsed from `place` (a line of db.json), as an open keeps it: a long one is
   * a frozen spilled copy whose large strings are read from the file when asked (fill() leaves it
   * be); a short one is interned at once, so the strings it gives up die young, where a
   * collection costs nothing, instead of being copied out of the young generation with the rest
   * of the document and freed by a full collection after the open.
   */
  private parsed(doc: Doc, key: string | undefined, place: Place): Doc {
    if (place.text.length >= SPILL_MIN_CHARS) return spill(doc, place);
    this.interner.doc(doc, key);
    return doc;
  }

  /**
   * Read every row the open left cold, a slice per turn of the event loop, so that the first
   * requests after a start are answered at once and the heap ends as a whole read leaves it.
   * Stops at close; a read that fails leaves the rest cold (read when asked for).
   */
  private warmUp(): Promise<void> {
    return new Promise((done) => {
      const step = () => {
        if (this.closed) return done();
        const deadline = performance.now() + WARM_SLICE_MS;
        try {
          for (const col of this.cols.values()) if (!col.warm(deadline)) return void setImmediate(step);
        } catch (e) {
          this.opts.log?.('reading db.json in the background failed; its documents are read when asked for', { err: String(e) });
        }
        done();
      };
      setImmediate(step);
    });
  }

  /**
   * Replace the in-memory state with a file's (collections, meta, journal position), its maps
   * growing as `opening` says (see Opening). `busy`, when given, is called every few thousand
   * documents: at a million, filling takes long enough that an open must go on saying it is busy
   * (see `loading`). `interned` counts the documents of each collection interned already: when
   * that is all of them (a file laid out one document per line), they are not interned again.
   */
  private fill(db: DbFile, opening: Opening, busy?: () => void, interned?: ReadonlyMap<string, number>): void {
    let n = 0;
    for (const name of COLLECTION_NAMES) {
      const { key, indexes } = COLLECTIONS[name];
      const docs = db.collections[name] ?? [];
      const col = new Indexed(key, indexes, opening, docs.length);
      const intern = interned?.get(name) !== docs.length;
      for (const doc of docs) {
        // A spilled copy is frozen already (and its large strings are read only on demand).
        if (intern && !Object.isFrozen(doc)) this.interner.doc(doc, key);
        col.put(doc);
        if ((++n & 4095) === 0) busy?.();
      }
      this.cols.set(name, col);
    }
    this.meta = { ...db.meta };
    this.seq = this.durableSeq = db.journal_seq ?? 0;
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
    // Every document is read before it is written again (see warmUp).
    await this.warming;
    signal.throwIfAborted();
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
    // Documents are frozen and replaced, never mutated, so `data` stays as it was taken above.
    // (Not handed to lowdb to keep: its arrays would hold every document as of this snapshot,
    // the old versions of those replaced since included, until the next one.)
    const moved: { c: CollectionName; old: Doc; doc: Doc }[] = [];
    let file: (() => TextFile) | undefined;
    const map = new RowMapBuilder();
    // The backup is linked once the new file is written, just before it replaces db.json: a
    // link changes db.json's ctime, so one made before a snapshot that is then stopped or fails
    // would leave a db.json its row map no longer names, and the next start would read it whole.
    const backup = () => backupCurrent(this.paths, this.opts.backups);
    await this.file.write(data, { signal, beforeReplace: backup }, (v, keys, json, offset, bytes, tmp) => {
      if (keys[0] !== 'collections' || keys.length !== 3) return;
      map.add(keys[1] as CollectionName, v as Doc, offset, bytes);
      if (json.length < SPILL_MIN_CHARS) return;
      file ??= lazyFile(tmp);
      const doc = spill(v as Doc, { file, text: json, offset });
      if (doc !== v) moved.push({ c: keys[1] as CollectionName, old: v as Doc, doc });
    });
    // Documents written in this snapshot read their large strings from it from now on: the
    // journal segments and the old db.json they pointed into are closed once nothing points there.
    for (const m of moved) {
      const id = keyOf(m.c, m.old);
      if (this.col(m.c).get(id) === m.old) this.col(m.c).swap(id, m.doc);
    }
    this.opsSinceSnapshot = Math.max(0, this.opsSinceSnapshot - opsFolded);
    this.journalBytesFolded = bytesFolded;
    await this.journal.retireBefore(keepFrom);
    // After db.json is in place (the map names it by its identity); without a map, or with one
    // that failed, the next start reads db.json whole.
    await map
      .write(rowMapPath(this.paths), this.paths.db, { schema_version: data.schema_version, journal_seq: data.journal_seq ?? 0, meta: data.meta }, signal)
      .catch((e) => this.opts.log?.('db.json.rows not written; the next start reads db.json whole', { err: String(e) }));
  }

  /** Bytes of db.json plus the journal (for status). */
  async bytes(): Promise<number> {
    return totalSize([this.paths.db, ...(await this.journal.segments()).map((n) => this.journal.segmentPath(n))]);
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
/** Reading cold rows per turn of the event loop (see warmUp). */
const WARM_SLICE_MS = 8;

/** Where db.json's row map lies (see row-map.ts). */
export const rowMapPath = (paths: HomePaths): string => `${paths.db}.rows`;
