import { type StoredTrace, traceScope } from '../../contracts/memory.js';

/** The traces of one task in one scope, in time order (timestamp, then uid, as pull lists them). */
interface Timeline {
  key: string;
  members: Set<string>;
  /** The members in order; undefined after a write out of order, until the next lookup sorts them again. */
  order?: string[];
}

interface Entry {
  timeline: Timeline;
  timestamp: string;
  /** Position in `timeline.order` while that is defined. */
  pos: number;
}

const before = (a: Entry, aUid: string, b: Entry, bUid: string) => a.timestamp < b.timestamp || (a.timestamp === b.timestamp && aUid < bUid);

/**
 * Each task's traces in time order, per search scope: which traces came just before and after a
 * trace in the same task. A conversation's answer is often the turn after the one a question
 * restates, so hybrid ranking lets a trace borrow from its neighbours' scores.
 *
 * Traces usually arrive in time order, so a write is an append; one out of order (an import of
 * older events, an edit of a timestamp, a delete) only marks its timeline, which the next lookup
 * sorts again once.
 */
export class TimelineIndex {
  private readonly entries = new Map<string, Entry>();
  private readonly timelines = new Map<string, Timeline>();

  upsert(t: StoredTrace): void {
    const key = `${traceScope(t)}\u0000${t.task_id}`;
    const cur = this.entries.get(t.uid);
    if (cur && cur.timestamp === t.timestamp && this.timelines.get(key) === cur.timeline) return;
    this.remove(t.uid);
    let timeline = this.timelines.get(key);
    if (!timeline) this.timelines.set(key, (timeline = { key, members: new Set(), order: [] }));
    const entry: Entry = { timeline, timestamp: t.timestamp, pos: -1 };
    this.entries.set(t.uid, entry);
    timeline.members.add(t.uid);
    const order = timeline.order;
    if (!order) return;
    const lastUid = order[order.length - 1];
    if (lastUid === undefined || before(this.entries.get(lastUid)!, lastUid, entry, t.uid)) entry.pos = order.push(t.uid) - 1;
    else timeline.order = undefined;
  }

  remove(uid: string): void {
    const entry = this.entries.get(uid);
    if (!entry) return;
    this.entries.delete(uid);
    entry.timeline.members.delete(uid);
    const order = entry.timeline.order;
    // The last one goes without a sort (an append undone); any other leaves a gap to close.
    if (order && entry.pos === order.length - 1) order.pop();
    else entry.timeline.order = undefined;
    if (!entry.timeline.members.size) this.timelines.delete(entry.timeline.key);
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

  private ordered(timeline: Timeline): string[] {
    if (timeline.order) return timeline.order;
    const order = [...timeline.members].sort((a, b) => (before(this.entries.get(a)!, a, this.entries.get(b)!, b) ? -1 : 1));
    order.forEach((uid, i) => (this.entries.get(uid)!.pos = i));
    timeline.order = order;
    return order;
  }
}
