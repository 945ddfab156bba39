import { type StoredTrace, traceScope } from '../../contracts/memory.js';
import { SlotMap } from '../../platform/slot-map.js';

/**
 * Out-of-order writes a timeline takes in place (a binary search and a splice each) before it
 * stops keeping order and is sorted once at the next lookup: an edit of a timestamp or a delete
 * between two queries costs no sort, an import of older events costs one.
 */
const SPLICES_BEFORE_SORT = 64;

/** The traces of one task in one scope, in time order (timestamp, then uid, as pull lists them). */
interface Timeline {
  /** The search scope its traces are in, and their task. */
  scope: string;
  task: string;
  /** How many traces are in it. */
  count: number;
  /**
   * Its traces in order while `sorted`. After many writes out of order it is a log instead, until
   * the next lookup sorts it: every uid ever added since, a removed or moved one too (left in
   * place; an entry says whether a uid is still here). A Set of members beside it cost a Map
   * entry a trace for what the entries already say.
   */
  order: string[];
  sorted: boolean;
  /** Positions in `order` are stale (a splice moved them) until the next lookup numbers them again. */
  stale: boolean;
  /** Splices since the last lookup. */
  splices: number;
}

/** A trace's place in the timelines (see TimelineIndex.entryOf). */
export interface Entry {
  readonly uid: string;
  timeline: Timeline;
  timestamp: string;
  /** Position in `timeline.order` while that is sorted and not stale. */
  pos: number;
  /**
   * The trace's slot in its scope's keyword index (-1 before it has one): kept here so that the
   * index needs no map of its own from uid to slot (a Map entry a trace).
   */
  slot: number;
}

/**
 * Each task's traces in time order, per search scope: which traces came just before and after a
 * trace in the same task. A conversation's answer is often the turn after the one a question
 * restates, so search lifts a trace towards its neighbours' scores (src/domain/memory/fuse.ts).
 * Traces usually arrive in time order, so a write is usually an append.
 */
export class TimelineIndex {
  /** A Map of a million uids held the event loop a quarter of a second each time it doubled (see SlotMap). */
  private readonly entries = new SlotMap<Entry>((e) => e.uid);
  /**
   * Timelines by scope, then by task. A key joining the two was a new string a write, hashed
   * from scratch for its lookup: at a million traces 12% of a start's reading of its keyword index.
   */
  private readonly timelines = new Map<string, Map<string, Timeline>>();

  upsert(t: StoredTrace): void {
    this.upsertEntered(t, this.entries.get(t.uid));
  }

  /**
   * A trace's entry, undefined when it is not entered: a caller that needs its scope or slot and
   * then upserts it looks it up once (a new trace took five lookups, each a cache miss at a
   * million traces).
   */
  entryOf(uid: string): Readonly<Entry> | undefined {
    return this.entries.get(uid);
  }

  /** upsert() of a trace whose entry the caller has just looked up (entryOf). */
  upsertEntered(t: StoredTrace, cur: Readonly<Entry> | undefined): void {
    const scope = traceScope(t);
    let tasks = this.timelines.get(scope);
    let timeline = tasks?.get(t.task_id);
    if (cur && cur.timestamp === t.timestamp && timeline === cur.timeline) return;
    if (cur) {
      // Its old timeline goes when this was its last trace.
      this.removeEntered(t.uid, cur);
      tasks = this.timelines.get(scope);
      timeline = tasks?.get(t.task_id);
    }
    if (!tasks) this.timelines.set(scope, (tasks = new Map()));
    if (!timeline) tasks.set(t.task_id, (timeline = { scope, task: t.task_id, count: 0, order: [], sorted: true, stale: false, splices: 0 }));
    const entry: Entry = { uid: t.uid, timeline, timestamp: t.timestamp, pos: -1, slot: cur?.slot ?? -1 };
    this.entries.set(t.uid, entry);
    timeline.count++;
    const order = timeline.order;
    if (!timeline.sorted) {
      order.push(t.uid);
      if (order.length > 2 * timeline.count + 64) this.compact(timeline);
      return;
    }
    const lastUid = order[order.length - 1];
    if (lastUid === undefined || this.before(lastUid, t.uid)) entry.pos = order.push(t.uid) - 1;
    else if (this.spliced(timeline)) order.splice(this.slot(order, t.uid), 0, t.uid);
    else order.push(t.uid);
  }

  remove(uid: string): void {
    const entry = this.entries.get(uid);
    if (entry) this.removeEntered(uid, entry);
  }

  /** remove() of a trace whose entry the caller has just looked up (entryOf). */
  removeEntered(uid: string, entry: Readonly<Entry>): void {
    const timeline = entry.timeline;
    const order = timeline.order;
    if (timeline.sorted) {
      if (!timeline.stale && entry.pos === order.length - 1) order.pop();
      else if (this.spliced(timeline)) order.splice(this.slot(order, uid), 1);
    }
    this.entries.delete(uid);
    if (--timeline.count === 0) {
      const tasks = this.timelines.get(timeline.scope)!;
      tasks.delete(timeline.task);
      if (tasks.size === 0) this.timelines.delete(timeline.scope);
    }
  }

  /** The traces at most `span` places before and after `uid` in its task's time order (nearest first), none for an unknown uid. */
  neighbours(uid: string, span: number): string[] {
    const entry = this.entries.get(uid);
    if (!entry) return [];
    const order = this.ordered(entry.timeline);
    const out: string[] = [];
    for (let d = 1; d <= span; d++) {
      const a = order[entry.pos - d];
      const b = order[entry.pos + d];
      if (a !== undefined) out.push(a);
      if (b !== undefined) out.push(b);
    }
    return out;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Set an entered trace's slot (nothing for an unknown uid). */
  setSlot(uid: string, slot: number): void {
    const entry = this.entries.get(uid);
    if (entry) entry.slot = slot;
  }

  /** Whether uid `a` comes before uid `b` (both entered). */
  private before(a: string, b: string): boolean {
    return earlier(this.entries.get(a)!.timestamp, a, this.entries.get(b)!.timestamp, b);
  }

  /** Where `uid` is, or goes, in an ordered list: the first place whose trace does not come before it. */
  private slot(order: string[], uid: string): number {
    let lo = 0;
    let hi = order.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (order[mid] !== uid && this.before(order[mid]!, uid)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Count a splice; past the budget the timeline stops keeping order (false: do not splice, log). */
  private spliced(timeline: Timeline): boolean {
    if (++timeline.splices > SPLICES_BEFORE_SORT) {
      timeline.sorted = false;
      return false;
    }
    timeline.stale = true;
    return true;
  }

  /** An unsorted timeline's log down to its traces, each once. */
  private compact(timeline: Timeline): void {
    const seen = new Set<string>();
    timeline.order = timeline.order.filter((uid) => this.entries.get(uid)?.timeline === timeline && !seen.has(uid) && Boolean(seen.add(uid)));
  }

  private ordered(timeline: Timeline): string[] {
    timeline.splices = 0;
    if (!timeline.sorted) {
      this.compact(timeline);
      // Each trace's entry looked up once, not at every comparison.
      const order = timeline.order;
      const at = order.map((uid) => this.entries.get(uid)!);
      const by = order.map((_, i) => i);
      by.sort((i, j) => (earlier(at[i]!.timestamp, order[i]!, at[j]!.timestamp, order[j]!) ? -1 : 1));
      timeline.order = by.map((i) => order[i]!);
      timeline.sorted = true;
    } else if (!timeline.stale) return timeline.order;
    const order = timeline.order;
    order.forEach((uid, i) => (this.entries.get(uid)!.pos = i));
    timeline.stale = false;
    return order;
  }
}

/** Time order: the earlier timestamp first, equal times by uid. */
function earlier(ta: string, a: string, tb: string, b: string): boolean {
  return ta < tb || (ta === tb && a < b);
}
