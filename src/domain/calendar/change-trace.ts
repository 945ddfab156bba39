import type { StoredTrace } from '../../contracts/memory.js';
import type { Tx } from '../../store/store.js';
import { isTempoTag } from '../../time/tags.js';
import { wallAt } from '../../time/zone-cache.js';
import { stageTrace } from '../memory/stage-trace.js';
import { CORE_KEYS } from './editable-fields.js';
import { iso, ms, type StoredEvent } from './occurrences.js';

/** What a change did to an event. */
export type ChangeKind = 'created' | 'updated' | 'removed';

/** How a change came about, when it was more than a plain create, edit or removal. */
export interface ChangeDetail {
  /** The recurrence id of the one occurrence changed or removed. */
  occurrence?: string;
  occurrenceRemoved?: boolean;
  /** The trace whose change this one takes back (`kairos undo`). */
  undoOf?: string;
  /** The whole event before a removal. */
  previous?: StoredEvent;
}

/** Stage the `calendar_event` trace of a change in the caller's transaction, linked to the event. */
export function stageChangeTrace(tx: Tx, kind: ChangeKind, e: StoredEvent, actor: string, now: Date, before?: StoredEvent, o: ChangeDetail = {}): StoredTrace {
  const { occurrence, occurrenceRemoved = false, undoOf, previous } = o;
  const when = describeWhen(e);
  const what =
    kind === 'created'
      ? `Added "${e.title}" to the calendar: ${when}`
      : kind === 'removed'
        ? `Removed "${e.title}" (${when}) from the calendar`
        : occurrence
          ? `${occurrenceRemoved ? 'Cancelled' : 'Changed'} the ${describeInstant(ms(occurrence), e)} occurrence of "${e.title}"`
          : `Changed "${e.title}": ${when}`;
  const changes = before && !occurrence ? changedFields(before, e) : undefined;
  return stageTrace(
    tx,
    {
      user_id: e.user_id,
      type: 'calendar_event',
      task_id: e.task_id ?? 'calendar',
      content: `${what}.`,
      actor,
      ...(e.tag && isTempoTag(e.tag) ? { tempo_tag: e.tag } : {}),
      linked_event_uid: e.uid,
      fields: {
        action: kind === 'updated' && occurrenceRemoved ? 'occurrence_removed' : kind,
        event_uid: e.uid,
        title: e.title,
        scheduled_for: e.scheduled_for,
        duration_minutes: e.duration_minutes,
        ...(e.rrule ? { rrule: e.rrule } : {}),
        ...(occurrence ? { recurrence_id: iso(ms(occurrence)) } : {}),
        ...(changes ? { changes } : {}),
        ...(undoOf ? { undo_of: undoOf } : {}),
        // A removal keeps the whole event, so `kairos undo` puts it back as it was, uid and all.
        ...(previous ? { previous } : {}),
        version: e.version,
      },
    },
    now,
  );
}

function changedFields(before: StoredEvent, after: StoredEvent): Record<string, { from: unknown; to: unknown }> {
  const out: Record<string, { from: unknown; to: unknown }> = {};
  for (const k of [...CORE_KEYS, 'overrides'] as const) {
    const a = before[k] ?? null;
    const b = after[k] ?? null;
    if (JSON.stringify(a) !== JSON.stringify(b)) out[k] = { from: a, to: b };
  }
  return out;
}

const pad = (n: number) => String(n).padStart(2, '0');

function describeInstant(at: number, e: Pick<StoredEvent, 'timezone' | 'all_day'>): string {
  const w = wallAt(at, e.timezone);
  const date = `${w.year}-${pad(w.month)}-${pad(w.day)}`;
  return e.all_day ? date : `${date} ${pad(w.hour)}:${pad(w.minute)} ${e.timezone}`;
}

function describeWhen(e: StoredEvent): string {
  const start = describeInstant(ms(e.scheduled_for), e);
  const length = e.all_day ? `${Math.round(e.duration_minutes / 1440)} day(s)` : `${e.duration_minutes} min`;
  return `${start}, ${length}${e.rrule ? `, repeating ${e.rrule}` : ''}`;
}
