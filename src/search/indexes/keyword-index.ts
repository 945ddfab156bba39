import { stemmer } from 'stemmer';
import { type StoredTrace, traceScope } from '../../contracts/memory.js';
import type { KeywordHit, KeywordSearchOptions, KeywordSearchPort } from '../../domain/memory/search-port.js';
import type { Store } from '../../store/store.js';
import type { SearchLog } from '../search-log.js';
import { textHash } from '../text/text-hash.js';
import { STOP_WORDS } from '../text/tokenize.js';
import { IndexBacklog } from './backlog.js';
import { followTraces } from './follow-traces.js';
import { KeywordFileReader, type KeywordRow } from './keyword-file.js';
import { KeywordFileLoader, keywordSaveJob } from './keyword-persistence.js';
import { PersistedFile } from './persisted-file.js';
import { Posting } from './posting.js';
import { SlotTerms, type Terms } from './slot-terms.js';
import { type Entry, TimelineIndex } from './timeline-index.js';
import { TopK } from './top-k.js';

/** A query waits (without holding the event loop) until at most this many writes are left to index, then takes those in itself. */
export const SETTLE_IN_QUERY = 1000;
/** A changed index is persisted at most this often (and once its fill is over). */
const SAVE_EVERY_MS = 120_000;
/** The largest index a stop saves: a fraction of a second of writing. */
const CLOSE_SAVE_ROWS = 20_000;
/** Rows of the persisted file per block, read or written in one turn (a few ms). */
const FILE_SLICE = 2000;
/** A turn's share of writing the persisted file. */
const SAVE_SLICE_MS = 3;
/** How far past the next listed trace a start looks for a row's trace before it looks the row up in the store. */
const LOOK_AHEAD = 16;
/** A turn's share of reading the persisted file at a start. */
const LOAD_SLICE_MS = 8;

/**
 * A keyword index of every user's traces: the memory service searches it through its port; the
 * store feeds it (followStore below).
 */
export interface TraceIndex extends KeywordSearchPort {
  upsert(trace: StoredTrace): void;
  remove(uid: string): void;
}

/** Field weights: what a trace says counts more than its labels. */
const FIELDS = [
  ['content', 2],
  ['notes', 1],
  ['task_id', 1],
  ['tempo_tag', 1],
  ['type', 0.5],
] as const;
// BM25 parameters (the usual ones).
const K1 = 1.2;
const B = 0.7;
// A prefix or one-typo match is worth less than the word itself.
const PREFIX_WEIGHT = 0.375;
const FUZZY_WEIGHT = 0.45;
const MIN_PREFIX = 4;
const MIN_FUZZY = 5;

// Stemming on both sides lets "meetings" find "meeting" and "planned" find "planning". Stop words
// are left out of the index and of queries: in a large memory "the" or "my" match almost every
// trace, which costs time and memory and ranks nothing.
function processTerm(raw: string): string | null {
  const t = raw.toLowerCase();
  if (!t || STOP_WORDS.has(t)) return null;
  if (t.length <= 2) return t;
  let stem = stems.get(t);
  if (stem === undefined) {
    // Stemming is most of the cost of indexing; a memory repeats the same few thousand words.
    if (stems.size >= 200_000) stems.clear();
    stems.set(t, (stem = stemmer(t)));
  }
  return stem;
}
const stems = new Map<string, string>();

/**
 * What a trace's keyword entry is made of (its scope and the fields indexed), hashed: a row of the
 * persisted index is used only while its trace still has this tag.
 */
export function keywordTag(t: StoredTrace): number {
  let s = traceScope(t);
  for (const [field] of FIELDS) {
    const v = t[field];
    s += `\u0000${typeof v === 'string' ? v : ''}`;
  }
  return textHash(s);
}

/** The scope and keyword slot a trace's timeline entry records (none for a trace not entered, or not given a slot yet). */
function placeOf(entry: Readonly<Entry> | undefined): { was: string | undefined; wasSlot: number | undefined } {
  return { was: entry?.timeline.scope, wasSlot: entry && entry.slot >= 0 ? entry.slot : undefined };
}

/** Index terms of a text, in order (repeats kept). */
export function keywordTerms(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split(/[^\p{L}\p{N}]+/u)) {
    const t = processTerm(raw);
    if (t) out.push(t);
  }
  return out;
}

/** True when a and b differ by exactly one insertion, deletion or substitution (no allocation: it runs over the whole vocabulary). */
function oneEditApart(a: string, b: string): boolean {
  const la = a.length;
  const lb = b.length;
  if (la - lb > 1 || lb - la > 1 || a === b) return false;
  let i = 0;
  while (i < la && i < lb && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  // Skip the one differing character on the longer side (both sides when equally long).
  let j = la >= lb ? i + 1 : i;
  let k = lb >= la ? i + 1 : i;
  while (j < la && k < lb) if (a.charCodeAt(j++) !== b.charCodeAt(k++)) return false;
  return true;
}

/**
 * One user's inverted index. Documents get append-only slots; a removed or replaced document
 * leaves a tombstone that queries skip, and the index is rebuilt from the live documents once
 * tombstones outnumber them (so edits stay O(terms) and postings never need searching).
 */
class UserIndex {
  /** Postings by term id (ids come from the KeywordIndex's shared dictionary). */
  readonly postings = new Map<number, Posting>();
  uids: (string | undefined)[] = [];
  lens: number[] = [];
  /** Each slot's terms, kept to rebuild and to maintain df. */
  docTerms = new SlotTerms();
  totalLen = 0;
  dead = 0;
  /** Documents held (slots not removed). */
  live = 0;

  /** Where each trace's slot is kept (the timeline's entries: see TimelineIndex.entryOf). */
  constructor(private readonly slots: Pick<TimelineIndex, 'setSlot'>) {}

  add(uid: string, terms: Terms, len: number): void {
    const slot = this.docTerms.push(terms);
    this.uids.push(uid);
    this.lens.push(len);
    this.slots.setSlot(uid, slot);
    this.live++;
    this.totalLen += len;
    for (let i = 0; i < terms.ids.length; i++) {
      let p = this.postings.get(terms.ids[i]!);
      if (!p) this.postings.set(terms.ids[i]!, (p = new Posting()));
      p.add(slot, terms.tfs[i]!);
    }
  }

  /** Whether the document in `slot` (of a trace held here) has exactly these terms (as add() takes them). */
  holds(slot: number | undefined, terms: Terms): boolean {
    return slot !== undefined && this.docTerms.equals(slot, terms);
  }

  /** Remove the document in `slot` (of a trace held here). */
  remove(slot: number | undefined): void {
    if (slot === undefined || this.uids[slot] === undefined) return;
    this.uids[slot] = undefined;
    this.live--;
    this.totalLen -= this.lens[slot]!;
    const { ids } = this.docTerms.get(slot);
    for (let i = 0; i < ids.length; i++) {
      const p = this.postings.get(ids[i]!)!;
      if (--p.live === 0) this.postings.delete(ids[i]!);
    }
    this.dead++;
    if (this.dead > 1000 && this.dead > this.live) this.compact();
  }

  private compact(): void {
    const old = this.docTerms;
    const docs = this.uids.flatMap((uid, slot) => (uid === undefined ? [] : [{ uid, slot, len: this.lens[slot]! }]));
    this.postings.clear();
    this.uids = [];
    this.lens = [];
    this.docTerms = new SlotTerms();
    this.totalLen = 0;
    this.dead = 0;
    this.live = 0;
    for (const d of docs) this.add(d.uid, old.get(d.slot), d.len);
  }
}

/** What endLoad becomes once done: a function made outside any scope that holds a listing. */
const NOTHING = (): void => {};

/**
 * BM25 keyword index with stemming, prefix and one-typo matching, one per user so that scores
 * come from that user's own corpus and no query ever touches another user's traces. Hand-made on
 * typed arrays: at 100,000 traces a query of common words matches tens of thousands of traces,
 * and a general-purpose engine built an object per match (hundreds of ms, megabytes of garbage).
 */
export class KeywordIndex implements TraceIndex {
  private readonly perUser = new Map<string, UserIndex>();
  /** One string per distinct term, shared by every user's postings. */
  private readonly termIds = new Map<string, number>();
  private readonly terms: string[] = [];
  /** Each task's traces in time order, kept with the same writes; it also knows each trace's scope. */
  private readonly timeline = new TimelineIndex();
  /** Committed writes not indexed yet (see follow). */
  private readonly backlog = new IndexBacklog<StoredTrace>((uid, t) => {
    this.changed++;
    if (t) this.upsert(t);
    else this.remove(uid);
  });
  private store?: Store;
  /** Where the index is kept between starts (none: every start indexes every trace). */
  private persisted?: PersistedFile;
  private log?: SearchLog;
  /** While the persisted file is read at a start (and when that began, and the traces written meanwhile). */
  private loader?: KeywordFileLoader;
  private loadStarted = 0;
  private touched?: Set<string>;
  /** Resolves once the persisted file is read (at once without one). */
  private loaded: Promise<void> = Promise.resolve();
  private loadedNow = () => {};
  /** Writes taken in since the file was last written. */
  private changed = 0;
  private saveTimer?: NodeJS.Timeout;
  private closed = false;

  private idOf(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.terms.push(term) - 1;
      this.termIds.set(term, id);
    }
    return id;
  }

  upsert(trace: StoredTrace): void {
    const tf = new Map<number, number>();
    let len = 0;
    for (const [field, boost] of FIELDS) {
      const value = trace[field];
      if (typeof value !== 'string' || !value) continue;
      for (const t of keywordTerms(value)) {
        const id = this.idOf(t);
        tf.set(id, (tf.get(id) ?? 0) + boost);
        len += boost;
      }
    }
    this.take(trace, { ids: [...tf.keys()], tfs: [...tf.values()] }, len);
  }

  /** Take a trace in with its terms (made from its fields, or read from the persisted file); `fresh`: the caller knows it is not in the index. */
  private take(trace: StoredTrace, terms: Terms, len: number, fresh = false): void {
    const cur = fresh ? undefined : this.timeline.entryOf(trace.uid);
    const { was, wasSlot } = placeOf(cur);
    this.timeline.upsertEntered(trace, cur);
    const scope = traceScope(trace);
    let idx = this.perUser.get(scope);
    if (!idx) this.perUser.set(scope, (idx = new UserIndex(this.timeline)));
    // An edit of other fields (importance, rating, links…): the document stays as it is, instead
    // of a tombstone, ten more postings and, every `live` edits, a rebuild of the user's index.
    if (was === scope && idx.holds(wasSlot, terms)) return;
    if (was !== undefined) this.perUser.get(was)?.remove(wasSlot);
    idx.add(trace.uid, terms, len);
  }

  remove(uid: string): void {
    const cur = this.timeline.entryOf(uid);
    if (!cur) return;
    const { was, wasSlot } = placeOf(cur);
    this.timeline.removeEntered(uid, cur);
    this.perUser.get(was!)?.remove(wasSlot);
  }

  get size(): number {
    return this.timeline.size;
  }

  /** Slots of replaced or removed documents not compacted away yet, over all users. */
  get tombstones(): number {
    let n = 0;
    for (const idx of this.perUser.values()) n += idx.dead;
    return n;
  }

  /**
   * Keep in step with the store: every stored trace, then every committed write, is recorded at
   * once and indexed behind the commit, a slice per turn of the event loop (a start at 100,000
   * traces answers /health before this index is full). Returns the unsubscribe function.
   *
   * With a `file` (the daemon's `<home>/search/keyword-index.bin`) the index is persisted: a
   * start reads it a block per turn and takes each trace's terms from it while the trace's
   * scope and indexed fields are unchanged (keywordTag), then indexes only the rest; a file of
   * another revision, or damaged, is ignored from the damage on. It is written again, off the
   * request path, after a fill, every SAVE_EVERY_MS while writes come, and at close while small.
   */
  follow(store: Store, opts: { file?: string; log?: SearchLog } = {}): () => void {
    this.store = store;
    this.log = opts.log;
    const record = (uid: string, t: StoredTrace | null) => {
      this.touched?.add(uid);
      this.backlog.add(uid, t);
    };
    const unsubscribe = followTraces(
      store,
      (t) => record(t.uid, t),
      (uid) => record(uid, null),
    );
    if (opts.file) {
      this.persisted = new PersistedFile(opts.file, 'keyword index', opts.log);
      this.saveTimer = setInterval(() => {
        if (this.changed && !this.backlog.filling && !this.loader) void this.save();
      }, SAVE_EVERY_MS).unref();
    }
    const src = this.persisted?.openSync();
    const reader = src && KeywordFileReader.open(src);
    if (reader && 'rejected' in reader) {
      this.persisted!.rejected(reader.rejected);
      void src!.close();
    }
    // Keys only: a start that left the store's documents cold (see Indexed.putCold) reads none here.
    if (!reader || 'rejected' in reader) this.fill(store.listing('traces').keys);
    else this.readFile(reader, store);
    return unsubscribe;
  }

  /**
   * Take the persisted file's rows in, a slice per turn, then index what it did not give. A
   * method of its own: closures made in follow() share one scope with the store's follower,
   * which lives as long as the index, and kept the start's listing (a million uids) with it.
   */
  private readFile(reader: KeywordFileReader, store: Store): void {
    const listed = store.listing('traces');
    const uids = listed.keys;
    // Writes committed meanwhile are taken in by the backlog on turns of their own (and their
    // traces' rows are not taken from the file): see adopter().
    this.touched = new Set();
    const adopter = this.adopter(listed);
    const loader = new KeywordFileLoader(reader, adopter, (reason) => this.persisted!.rejected(reason));
    this.loader = loader;
    this.loaded = new Promise((ok) => (this.loadedNow = ok));
    this.loadStarted = performance.now();
    this.endLoad = () => {
      if (this.loader !== loader) return;
      // Let go of this closure: it holds the start's listing (a million uids). Not with a new
      // arrow: one made here would keep this scope, and the listing with it.
      this.endLoad = NOTHING;
      this.loader = undefined;
      this.touched = undefined;
      void loader.close();
      const missing = this.fill(uids.filter((uid, i) => !adopter.adopted[i] && this.timeline.entryOf(uid) === undefined));
      this.log?.(
        'keyword index read',
        { adopted: loader.adopted, stale: loader.stale, to_index: missing, ms: Math.round(performance.now() - this.loadStarted) },
        'info',
      );
      this.loadedNow();
    };
    const step = () => {
      if (this.loader !== loader) return;
      if (!loader.step(LOAD_SLICE_MS)) return void setImmediate(step);
      this.endLoad();
    };
    setImmediate(step);
  }

  /** The file is read (or given up): index from the store what it did not give. */
  private endLoad: () => void = NOTHING;

  /** Index these stored traces in the background (each read from the store when its turn comes); returns how many. */
  private fill(uids: string[]): number {
    const store = this.store!;
    this.backlog.fillFrom(uids, (uid) => store.get('traces', uid) ?? null);
    // Persisted once the fill is over (later writes: every SAVE_EVERY_MS).
    void this.backlog.whenBelow(0).then(() => {
      if (this.changed) void this.save();
    });
    return uids.length;
  }

  /**
   * Takes the persisted file's rows in at a start. The file lists traces in the store's order,
   * so its rows usually meet the stored traces (listed when the start began) one after another:
   * such a trace is read by its place in the listing, without a lookup (of the store, of this
   * index: it is not in it yet, since nothing but the file has entered it), unless a write of it
   * came meanwhile (those the backlog takes in). A row that does not meet one of the next few
   * traces (a trace deleted or moved since the save) is looked up in the store. At a million
   * traces the lookups were two thirds of a start's reading: each is a cache miss among a million
   * keys. A row is taken only while its trace still has its tag. `adopted` marks the listed
   * traces taken.
   */
  private adopter(listed: { keys: string[]; doc(i: number): StoredTrace | undefined }) {
    const uids = listed.keys;
    let next = 0;
    const adopted = new Uint8Array(uids.length);
    return {
      adopted,
      termId: (term: string) => this.idOf(term),
      adopt: (row: KeywordRow) => {
        // A trace left out of the file (a write of it was waiting at the save) is stepped over.
        let ahead = 0;
        while (ahead < LOOK_AHEAD && next + ahead < uids.length && uids[next + ahead] !== row.uid) ahead++;
        if (ahead < LOOK_AHEAD && next + ahead < uids.length) {
          next += ahead;
          const at = next++;
          const t = this.touched?.has(row.uid) ? undefined : listed.doc(at);
          if (t) {
            if (keywordTag(t) !== row.tag) return false;
            this.take(t, row, row.len, true);
            adopted[at] = 1;
            return true;
          }
        }
        const t = this.store!.get('traces', row.uid);
        if (!t || this.touched?.has(row.uid) || keywordTag(t) !== row.tag) return false;
        this.take(t, row, row.len);
        return true;
      },
    };
  }

  private save(): Promise<void> {
    if (!this.persisted || this.closed) return Promise.resolve();
    return this.persisted.save(() => {
      if (!this.changed || this.backlog.filling || this.loader) return undefined;
      const changed = this.changed;
      return keywordSaveJob(
        this.rowsForFile(),
        (id) => this.terms[id]!,
        () => void (this.changed -= changed),
      );
    });
  }

  /**
   * The rows of the index, at most FILE_SLICE per call, each read in its turn, in the store's order (the
   * order a start lists the traces in: see adopter). A trace with a write still waiting is left
   * out (the next start indexes it), so every row written holds the terms of its trace as the
   * store has it.
   */
  private rowsForFile(): () => KeywordRow[] {
    const store = this.store!;
    const uids = store.listing('traces').keys;
    let at = 0;
    return () => {
      const out: KeywordRow[] = [];
      const start = performance.now();
      // A slice ends after SAVE_SLICE_MS too: a save runs while requests come (pushes, every 2 minutes).
      while (at < uids.length && out.length < FILE_SLICE && ((at & 63) !== 0 || performance.now() - start < SAVE_SLICE_MS)) {
        const uid = uids[at++]!;
        if (this.backlog.waiting(uid)) continue;
        const t = store.get('traces', uid);
        const entry = t && this.timeline.entryOf(uid);
        const idx = entry && entry.slot >= 0 ? this.perUser.get(entry.timeline.scope) : undefined;
        if (!t || !entry || !idx || idx.uids[entry.slot] !== uid) continue;
        out.push({ uid, tag: keywordTag(t), len: idx.lens[entry.slot]!, ...idx.docTerms.get(entry.slot) });
      }
      return out;
    };
  }

  /**
   * Stop (a daemon stopping): writes not indexed yet are dropped, and the index is saved as it
   * stands while small (a large one is not: writing it would hold the stop for seconds, and the
   * next start indexes again only what changed since the last save).
   */
  async close(): Promise<void> {
    clearInterval(this.saveTimer);
    if (this.loader) {
      // The file being read is still the better one.
      const loader = this.loader;
      this.loader = undefined;
      await loader.close();
      this.loadedNow();
    } else if (this.persisted && this.size <= CLOSE_SAVE_ROWS) {
      await this.persisted.idle();
      await this.save();
    }
    await this.persisted?.stop();
    this.closed = true;
    this.backlog.stop();
  }

  /** Take in what is waiting now: the rest of the persisted file, then every write. */
  private settle(): void {
    if (this.loader) {
      this.loader.step(Number.POSITIVE_INFINITY);
      this.endLoad();
    }
    this.backlog.settle();
  }

  /** Committed writes not indexed yet (while the persisted file is read: every stored trace). */
  get behind(): number {
    return this.loader ? Math.max(this.backlog.size, this.store?.count('traces') ?? 0) : this.backlog.size;
  }

  /** Resolves once the persisted file is read (at once without one); the traces it did not give may still be indexing. */
  whenLoaded(): Promise<void> {
    return this.loaded;
  }

  /** Resolves once few enough writes are left to index that a query takes them in without holding the loop. */
  async whenSettled(): Promise<void> {
    await this.loaded;
    return this.backlog.whenBelow(SETTLE_IN_QUERY);
  }

  /**
   * The share of a user's traces that contain a word (its stem), 0–1: how little the word tells
   * one of them from another.
   */
  share(userId: string, word: string): number {
    this.settle();
    const idx = this.perUser.get(userId);
    const term = processTerm(word);
    const id = term === null ? undefined : this.termIds.get(term);
    if (!idx?.live || id === undefined) return 0;
    return (idx.postings.get(id)?.live ?? 0) / idx.live;
  }

  /** The traces at most `span` places before and after `uid` among its task's traces in its scope, in time order. */
  neighbours(uid: string, span: number): string[] {
    this.settle();
    return this.timeline.neighbours(uid, span);
  }

  /** How many traces of the user are indexed. */
  traces(userId: string): number {
    this.settle();
    return this.perUser.get(userId)?.live ?? 0;
  }

  search(userId: string, query: string, opts: KeywordSearchOptions = {}): KeywordHit[] {
    // Every acknowledged write is found: what is still waiting is indexed first.
    this.settle();
    const idx = this.perUser.get(userId);
    if (!idx?.live) return [];
    const qterms = [...new Set(keywordTerms(query))].slice(0, 32);
    if (!qterms.length) return [];
    const { total, matched, best } = this.scratch(idx.uids.length);
    const touched: number[] = [];
    const avgLen = idx.totalLen / idx.live || 1;
    const N = idx.live;

    qterms.forEach((q, qi) => {
      const expansions: [Posting, number][] = [];
      const qid = this.termIds.get(q);
      const exact = qid === undefined ? undefined : idx.postings.get(qid);
      if (exact) expansions.push([exact, 1]);
      if (q.length >= MIN_PREFIX) {
        for (const [id, p] of idx.postings) {
          if (id === qid) continue;
          const term = this.terms[id]!;
          if (q.length >= MIN_PREFIX && term.startsWith(q)) expansions.push([p, (PREFIX_WEIGHT * q.length) / term.length]);
          else if (q.length >= MIN_FUZZY && oneEditApart(q, term)) expansions.push([p, FUZZY_WEIGHT]);
        }
      }
      const seen: number[] = [];
      for (const [p, weight] of expansions) {
        const idf = Math.log(1 + (N - p.live + 0.5) / (p.live + 0.5));
        p.forEachPart((slots, tfs, n) => {
          for (let i = 0; i < n; i++) {
            const slot = slots[i]!;
            if (idx.uids[slot] === undefined) continue;
            const tf = tfs[i]!;
            const s = weight * idf * ((tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * idx.lens[slot]!) / avgLen)));
            if (best[slot] === 0) seen.push(slot);
            if (s > best[slot]!) best[slot] = s;
          }
        });
      }
      // A query word counts once per trace: its best match (the word itself, a prefix or a typo).
      for (const slot of seen) {
        if (total[slot] === 0) touched.push(slot);
        total[slot]! += best[slot]!;
        matched[slot]! |= 1 << qi;
        best[slot] = 0;
      }
    });

    const accept = opts.accept ?? (() => true);
    // Equal scores in uid order: the same hits after a restart as after a fresh build, whatever
    // the slots (the order documents came in).
    const byUid = (a: { slot: number }, b: { slot: number }) => (idx.uids[a.slot]! < idx.uids[b.slot]! ? -1 : idx.uids[a.slot]! > idx.uids[b.slot]! ? 1 : 0);
    const top = new TopK<{ slot: number; score: number; mask: number }>(Math.min(opts.limit ?? touched.length, touched.length) || 1, byUid);
    for (const slot of touched) {
      const score = total[slot]!;
      const mask = matched[slot]!;
      total[slot] = 0;
      matched[slot] = 0;
      if (score < top.floor) continue;
      if (accept(idx.uids[slot]!)) top.push({ slot, score, mask });
    }
    return top.items
      .sort((a, b) => b.score - a.score || byUid(a, b))
      .map(({ slot, score, mask }) => ({ uid: idx.uids[slot]!, score, coverage: popcount(mask) / qterms.length }));
  }

  private buffers = { total: new Float64Array(0), matched: new Uint32Array(0), best: new Float64Array(0) };

  /** Per-slot accumulators, reused across queries (and left zeroed after each). */
  private scratch(n: number) {
    if (this.buffers.total.length < n) {
      const size = Math.max(n, this.buffers.total.length * 2, 1024);
      this.buffers = { total: new Float64Array(size), matched: new Uint32Array(size), best: new Float64Array(size) };
    }
    return this.buffers;
  }
}

function popcount(x: number): number {
  let c = 0;
  for (; x; x &= x - 1) c++;
  return c;
}

/**
 * Keep an index in step with the store: filled from what is stored, then updated from every
 * committed transaction, so traces written by any area (agent, calendar) are searchable too.
 */
export function followStore(store: Store, index: KeywordIndex, opts?: { file?: string; log?: SearchLog }): () => void {
  return index.follow(store, opts);
}
