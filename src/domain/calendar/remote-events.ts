import { createHash } from 'node:crypto';
import type { StoredTrace } from '../../contracts/memory.js';
import type { Tx } from '../../store/store.js';
import { newId } from '../ids.js';
import { FEED_FIELDS } from './editable-fields.js';
import type { FeedPorts } from './feed-apply.js';
import type { ImportedCore } from './import-check.js';
import { stageKeptSource } from './kept-source.js';
import type { StoredEvent } from './occurrences.js';

/**
 * The calendar's side of two-way sync: events written from a server's copy (the object written
 * back is kept-source.ts'). The sync area decides what changes; these stage it with the same
 * traces and hooks as any other change, inside the sync's own transaction.
 */

export interface StagedChange {
  kind: 'created' | 'updated' | 'removed';
  event: StoredEvent;
  trace: StoredTrace;
}

const ACTOR = 'caldav';

/** What of an event both sides share: its content (not kairos' own task_id, version or times). */
export function eventFingerprint(e: StoredEvent): string {
  const r = e as unknown as Record<string, unknown>;
  return createHash('sha256')
    .update(JSON.stringify(FEED_FIELDS.map((k) => r[k] ?? null)))
    .digest('base64url')
    .slice(0, 22);
}

/**
 * Create (no `uid`) or replace the event with the server's content, keeping the server's text as
 * its source (kept-source.ts). New events are `source: caldav`, keyed by the UID when free.
 */
export function stageRemoteUpsert(
  ports: FeedPorts,
  tx: Tx,
  userId: string,
  uid: string | undefined,
  remote: { icalUid: string; core: ImportedCore; ics: string },
  now: Date,
): StagedChange {
  const { icalUid, core } = remote;
  const nowIso = now.toISOString();
  const before = uid ? tx.get('events', uid) : undefined;
  let event: StoredEvent;
  if (before) {
    const copy: Record<string, unknown> = { ...before };
    for (const k of FEED_FIELDS) delete copy[k];
    event = { ...(copy as StoredEvent), ...core, task_id: before.task_id, version: before.version + 1, updated_at: nowIso };
  } else {
    const key = tx.get('events', icalUid) ? newId('ev', now.getTime()) : icalUid;
    event = { uid: key, user_id: userId, ...core, task_id: null, source: 'caldav', created_at: nowIso, updated_at: nowIso, version: 1 };
  }
  tx.put('events', event);
  stageKeptSource(tx, event, remote.ics);
  const trace = ports.record(tx, before ? 'updated' : 'created', event, ACTOR, now, before);
  if (before) ports.onChange(tx, before, event, ACTOR);
  return { kind: before ? 'updated' : 'created', event, trace };
}

export function stageRemoteRemove(ports: FeedPorts, tx: Tx, uid: string, now: Date): StagedChange | undefined {
  const before = tx.get('events', uid);
  if (!before) return undefined;
  tx.delete('events', uid);
  const trace = ports.record(tx, 'removed', before, ACTOR, now);
  ports.onChange(tx, before, undefined, ACTOR);
  return { kind: 'removed', event: before, trace };
}
