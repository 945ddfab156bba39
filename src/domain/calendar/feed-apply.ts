import type { StoredTrace } from '../../contracts/memory.js';
import { nextTurn } from '../../platform/next-turn.js';
import type { Store, Tx } from '../../store/store.js';
import type { Clock } from '../clock.js';
import { newId } from '../ids.js';
import { FEED_FIELDS } from './editable-fields.js';
import type { ImportedCore, PreparedImport } from './import-check.js';
import type { StoredEvent } from './occurrences.js';

type Kind = 'created' | 'updated' | 'removed';

/** What the calendar service lends a feed refresh (the same parts an import borrows). */
export interface FeedPorts {
  store: Store;
  clock: Clock;
  /** Runs `fn` after the user's earlier imports and refreshes have stored their events. */
  exclusive: <T>(userId: string, fn: () => Promise<T>) => Promise<T>;
  record: (tx: Tx, kind: Kind, event: StoredEvent, actor: string, now: Date, before?: StoredEvent) => StoredTrace;
  onChange: (tx: Tx, before: StoredEvent, after: StoredEvent | undefined, actor: string) => void;
  publish: (kind: Kind, event: StoredEvent, trace: StoredTrace) => void;
}

/** The feed whose events are replaced: a subscription of one user. */
export interface FeedRef {
  id: string;
  userId: string;
  name: string;
}

export interface FeedApplied {
  imported: number;
  updated: number;
  removed: number;
  unchanged: number;
}

/** Events one transaction stores, as in calendar-import.ts. */
const CHUNK = 100;
const ACTOR = 'subscription';

/** The events of a feed in the user's calendar, by their UID in the feed. */
export function feedEvents(tx: Pick<Tx, 'byIndex'>, feed: { id: string; userId: string }): Map<string, StoredEvent> {
  const out = new Map<string, StoredEvent>();
  for (const e of tx.byIndex('events', 'user_id', feed.userId)) if (e.subscription?.id === feed.id) out.set(e.subscription.uid, e);
  return out;
}

/**
 * Make the user's copy of a feed what the feed holds now: new UIDs created, changed ones updated,
 * unchanged ones left alone (a second refresh of the same feed writes nothing), and events gone
 * from the feed removed. An event the feed still lists but that could not be read this time
 * (`keep`: its UID among the errors) keeps its last good copy. Stored a chunk per transaction;
 * each chunk is durable with its traces, and the next refresh completes an interrupted one.
 */
export async function applyFeed(ports: FeedPorts, feed: FeedRef, prepared: PreparedImport): Promise<FeedApplied> {
  return ports.exclusive(feed.userId, async () => {
    const out: FeedApplied = { imported: 0, updated: 0, removed: 0, unchanged: 0 };
    const now = ports.clock.now();
    const nowIso = now.toISOString();
    const existing = ports.store.simulate((tx) => feedEvents(tx, feed));
    const incoming = new Map<string, ImportedCore>();
    for (const c of prepared.checked) incoming.set(c.uid, c.core);
    const keep = new Set(prepared.errors.map((e) => e.uid).filter((u): u is string => u !== undefined));
    type Step = { uid: string; core: ImportedCore } | { uid: string; gone: StoredEvent };
    const steps: Step[] = [...incoming].map(([uid, core]) => ({ uid, core }));
    for (const [uid, e] of existing) if (!incoming.has(uid) && !keep.has(uid)) steps.push({ uid, gone: e });
    for (let at = 0; at < steps.length; at += CHUNK) {
      const chunk = steps.slice(at, at + CHUNK);
      const staged = await ports.store.transact((tx) => {
        const done: { kind: Kind; event: StoredEvent; trace: StoredTrace }[] = [];
        for (const s of chunk) {
          const before = existing.has(s.uid) ? tx.get('events', existing.get(s.uid)!.uid) : undefined;
          if ('gone' in s) {
            if (!before) continue;
            tx.delete('events', before.uid);
            const trace = ports.record(tx, 'removed', before, ACTOR, now);
            ports.onChange(tx, before, undefined, ACTOR);
            done.push({ kind: 'removed', event: before, trace });
            out.removed++;
            continue;
          }
          const subscription = { id: feed.id, name: feed.name, uid: s.uid };
          if (before && sameContent(before, s.core, subscription)) {
            out.unchanged++;
            continue;
          }
          const event: StoredEvent = before
            ? { ...withoutCore(before), ...s.core, task_id: null, subscription, version: before.version + 1, updated_at: nowIso }
            : {
                uid: newId('ev', now.getTime()),
                user_id: feed.userId,
                ...s.core,
                task_id: null,
                source: 'subscription',
                subscription,
                created_at: nowIso,
                updated_at: nowIso,
                version: 1,
              };
          tx.put('events', event);
          const trace = ports.record(tx, before ? 'updated' : 'created', event, ACTOR, now, before);
          if (before) ports.onChange(tx, before, event, ACTOR);
          done.push({ kind: before ? 'updated' : 'created', event, trace });
          if (before) out.updated++;
          else out.imported++;
        }
        return done;
      });
      for (const s of staged) ports.publish(s.kind, s.event, s.trace);
      await nextTurn();
    }
    return out;
  });
}

/** Remove every event of a feed (unsubscribing); returns how many. */
export async function removeFeed(ports: FeedPorts, feed: { id: string; userId: string }): Promise<number> {
  return ports.exclusive(feed.userId, async () => {
    const now = ports.clock.now();
    const all = [...ports.store.simulate((tx) => feedEvents(tx, feed)).values()];
    let removed = 0;
    for (let at = 0; at < all.length; at += CHUNK) {
      const chunk = all.slice(at, at + CHUNK);
      const staged = await ports.store.transact((tx) => {
        const done: { event: StoredEvent; trace: StoredTrace }[] = [];
        for (const e of chunk) {
          const before = tx.get('events', e.uid);
          if (!before) continue;
          tx.delete('events', before.uid);
          done.push({ event: before, trace: ports.record(tx, 'removed', before, ACTOR, now) });
          ports.onChange(tx, before, undefined, ACTOR);
        }
        return done;
      });
      removed += staged.length;
      for (const s of staged) ports.publish('removed', s.event, s.trace);
      await nextTurn();
    }
    return removed;
  });
}

function withoutCore(e: StoredEvent): StoredEvent {
  const copy: Record<string, unknown> = { ...e };
  for (const k of FEED_FIELDS) delete copy[k];
  return copy as StoredEvent;
}

function sameContent(e: StoredEvent, core: ImportedCore, subscription: NonNullable<StoredEvent['subscription']>): boolean {
  const c = core as unknown as Record<string, unknown>;
  const stored = e as unknown as Record<string, unknown>;
  if (JSON.stringify(e.subscription) !== JSON.stringify(subscription)) return false;
  return FEED_FIELDS.every((k) => JSON.stringify(stored[k] ?? null) === JSON.stringify(c[k] ?? null));
}
