import { stemmer } from 'stemmer';
import { type StoredTrace, traceScope } from '../../contracts/memory.js';
import type { KeywordHit, KeywordSearchOptions, KeywordSearchPort } from '../../domain/memory/search-port.js';
import type { Store } from '../../store/store.js';
import { STOP_WORDS } from '../text/tokenize.js';
import { IndexBacklog } from './backlog.js';
import { followTraces } from './follow-traces.js';
import { SlotTerms, type Terms } from './slot-terms.js';
import { TimelineIndex } from './timeline-index.js';
import { TopK } from './top-k.js';

/** A query waits (without holding the event loop) until at most this many writes are left to index, then takes those in itself. */
export const SETTLE_IN_QUERY = 1000;

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

/** A term's postings: document slots with their weighted term frequency, append-only. */
class Posting {
  slots = new Int32Array(2);
  tfs = new Float32Array(2);
  n = 0;
  /** Documents still alive among the slots (document frequency). */
  live = 0;

  add(slot: number, tf: number): void {
    if (this.n === this.slots.length) {
      // Doubling left a long posting (a common term's, one entry per trace) half empty on
      // average: a quarter more keeps the copies amortised and the slack small.
      const size = this.n < 1024 ? this.n * 2 : Math.ceil(this.n * 1.25);
      const slots = new Int32Array(size);
      slots.set(this.slots);
      const tfs = new Float32Array(size);
      tfs.set(this.tfs);
      this.slots = slots;
      this.tfs = tfs;
    }
    this.slots[this.n] = slot;
    this.tfs[this.n++] = tf;
    this.live++;
  }
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

  /** Where each trace's slot is kept (the timeline's entries: see TimelineIndex.slotOf). */
  constructor(private readonly slots: Pick<TimelineIndex, 'slotOf' | 'setSlot'>) {}

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
  private readonly backlog = new IndexBacklog<StoredTrace>((uid, t) => (t ? this.upsert(t) : this.remove(uid)));

  private idOf(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.terms.push(term) - 1;
      this.termIds.set(term, id);
    }
    return id;
  }

  upsert(trace: StoredTrace): void {
    const was = this.timeline.scopeOf(trace.uid);
    const wasSlot = this.timeline.slotOf(trace.uid);
    this.timeline.upsert(trace);
    const scope = traceScope(trace);
    let idx = this.perUser.get(scope);
    if (!idx) this.perUser.set(scope, (idx = new UserIndex(this.timeline)));
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
    const terms: Terms = { ids: [...tf.keys()], tfs: [...tf.values()] };
    // An edit of other fields (importance, rating, links…): the document stays as it is, instead
    // of a tombstone, ten more postings and, every `live` edits, a rebuild of the user's index.
    if (was === scope && idx.holds(wasSlot, terms)) return;
    if (was !== undefined) this.perUser.get(was)?.remove(wasSlot);
    idx.add(trace.uid, terms, len);
  }

  remove(uid: string): void {
    const was = this.timeline.scopeOf(uid);
    const wasSlot = this.timeline.slotOf(uid);
    this.timeline.remove(uid);
    if (was !== undefined) this.perUser.get(was)?.remove(wasSlot);
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
   */
  follow(store: Store): () => void {
    this.backlog.fillFrom(
      store.all('traces').map((t) => t.uid),
      (uid) => store.get('traces', uid) ?? null,
    );
    return followTraces(
      store,
      (t) => this.backlog.add(t.uid, t),
      (uid) => this.backlog.add(uid, null),
    );
  }

  /** Committed writes not indexed yet. */
  get behind(): number {
    return this.backlog.size;
  }

  /** Resolves once few enough writes are left to index that a query takes them in without holding the loop. */
  whenSettled(): Promise<void> {
    return this.backlog.whenBelow(SETTLE_IN_QUERY);
  }

  /**
   * The share of a user's traces that contain a word (its stem), 0–1: how little the word tells
   * one of them from another.
   */
  share(userId: string, word: string): number {
    this.backlog.settle();
    const idx = this.perUser.get(userId);
    const term = processTerm(word);
    const id = term === null ? undefined : this.termIds.get(term);
    if (!idx?.live || id === undefined) return 0;
    return (idx.postings.get(id)?.live ?? 0) / idx.live;
  }

  /** The traces at most `span` places before and after `uid` among its task's traces in its scope, in time order. */
  neighbours(uid: string, span: number): string[] {
    this.backlog.settle();
    return this.timeline.neighbours(uid, span);
  }

  /** How many traces of the user are indexed. */
  traces(userId: string): number {
    this.backlog.settle();
    return this.perUser.get(userId)?.live ?? 0;
  }

  search(userId: string, query: string, opts: KeywordSearchOptions = {}): KeywordHit[] {
    // Every acknowledged write is found: what is still waiting is indexed first.
    this.backlog.settle();
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
        for (let i = 0; i < p.n; i++) {
          const slot = p.slots[i]!;
          if (idx.uids[slot] === undefined) continue;
          const tf = p.tfs[i]!;
          const s = weight * idf * ((tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * idx.lens[slot]!) / avgLen)));
          if (best[slot] === 0) seen.push(slot);
          if (s > best[slot]!) best[slot] = s;
        }
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
export function followStore(store: Store, index: KeywordIndex): () => void {
  return index.follow(store);
}
