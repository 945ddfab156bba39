import type { StoredTrace } from '../../contracts/memory.js';
import type { Commit } from '../../store/commit.js';
import type { Store, Tx } from '../../store/store.js';
import { eventsWritten } from '../calendar/event-reads.js';
import type { Clock } from '../clock.js';
import type { EventBus, LiveEvent } from '../live-bus.js';
import { tracesWritten } from '../memory/traces.js';
import { type Observation, observe } from './biases.js';
import type { StoredPlan } from './plan.js';
import { fingerprint, ProducedIndex } from './produced.js';
import { stageTransition } from './state-machine.js';

export interface EditedDeps {
  store: Store;
  clock: Clock;
  bus: EventBus;
  /** Publish the plans that became edited and their transition traces. */
  announce(plans: StoredPlan[], transitions: StoredTrace[]): void;
  /** Learn from event durations the person changed. */
  learn(userId: string, observations: Observation[]): Promise<void>;
}

/**
 * `executed → edited`: changing or removing an event or trace that an executed plan produced moves
 * the plan to `edited`, inside the transaction that makes the change (the calendar and memory
 * areas run `stage` from their edit hooks). The announcement follows the change's own.
 */
export class EditedFollower {
  private readonly produced: ProducedIndex;
  /** uid of a changed event or trace → announcements waiting for that change's own. */
  private readonly pending = new Map<string, Set<() => void>>();

  constructor(private readonly d: EditedDeps) {
    this.produced = new ProducedIndex(d.store);
    d.store.commits((commit) => this.followCommit(commit));
    d.bus.subscribe((ev) => this.followBus(ev));
  }

  /** Inside an edit's transaction: move the producing plan to edited when the substance changed. */
  stage(tx: Tx, collection: 'events' | 'traces', uid: string, after: Record<string, unknown> | undefined, actor: string): void {
    const planId = this.produced.planOf(collection, uid);
    const plan = planId ? tx.get('plans', planId) : undefined;
    if (plan?.status !== 'executed') return;
    const item = plan.produced?.find((x) => x.collection === collection && x.uid === uid);
    if (!item || (after && fingerprint(after) === item.fingerprint)) return;
    const now = this.d.clock.now();
    stageTransition(tx, plan, 'edited', {
      actor,
      now,
      reason: `${collection === 'events' ? 'event' : 'trace'} ${uid} was ${after ? 'changed' : 'removed'}`,
      patch: {
        edited_at: now.toISOString(),
        actions: plan.actions.map((x) => (x.action_id === item.action_id && x.status !== 'rejected' ? { ...x, status: 'edited' } : x)),
      },
    });
  }

  private followCommit(commit: Commit): void {
    this.produced.follow(commit);
    const edited = commit.puts('plans').filter((p) => p.status === 'edited');
    if (!edited.length) return;
    const transitions = tracesWritten(commit).filter((t) => t.type === 'transition' && (t.fields as { to?: string } | undefined)?.to === 'edited');
    const observations = durationChanges(commit, edited);
    const key = changedUid(commit, edited);
    let done = false;
    const flush = () => {
      if (done) return;
      done = true;
      const waiting = this.pending.get(key);
      waiting?.delete(flush);
      if (!waiting?.size) this.pending.delete(key);
      this.d.announce(edited, transitions);
      for (const [userId, list] of observations) void this.d.learn(userId, list);
    };
    // The committing area announces its change once it is durable; these go right after it (or
    // after a second, should it never do so), so live clients see them in order.
    this.pending.set(key, (this.pending.get(key) ?? new Set()).add(flush));
    setTimeout(flush, 1000).unref();
  }

  private followBus(ev: LiveEvent): void {
    if (!this.pending.size || !['event.updated', 'event.removed', 'trace.updated'].includes(ev.type)) return;
    const uid = (ev.data as { uid?: unknown } | null)?.uid;
    for (const flush of typeof uid === 'string' ? (this.pending.get(uid) ?? []) : []) queueMicrotask(flush);
  }
}

/** The uid of the event or trace whose change moved the plans (what its area announces). */
function changedUid(commit: Commit, edited: readonly StoredPlan[]): string {
  for (const plan of edited) {
    for (const x of plan.produced ?? []) {
      if (commit.changes(x.collection).some((o) => (o.op === 'put' ? o.doc.uid === x.uid : o.id === x.uid))) return x.uid;
    }
  }
  return edited[0]!.plan_id;
}

/** Evidence for the duration biases: produced events whose length the person changed. */
function durationChanges(commit: Commit, edited: readonly StoredPlan[]): Map<string, Observation[]> {
  const out = new Map<string, Observation[]>();
  for (const plan of edited) {
    for (const x of plan.produced ?? []) {
      if (x.collection !== 'events') continue;
      const put = eventsWritten(commit).find((e) => e.uid === x.uid);
      const action = plan.actions.find((a) => a.action_id === x.action_id);
      const minutes = put?.duration_minutes;
      if (!action || typeof minutes !== 'number' || minutes === action.duration_minutes) continue;
      const o = observe(action, minutes);
      if (o) out.set(plan.user_id, [...(out.get(plan.user_id) ?? []), o]);
    }
  }
  return out;
}
