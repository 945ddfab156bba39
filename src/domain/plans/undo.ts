import type { EventUpdates } from '../../contracts/calendar.js';
import type { Change } from '../../contracts/changes.js';
import type { StoredTrace } from '../../contracts/memory.js';
import { notFound } from '../../errors.js';
import type { Store } from '../../store/store.js';
import type { CalendarService } from '../calendar/calendar-service.js';
import { eventReads } from '../calendar/events.js';
import { traceReads } from '../memory/traces.js';
import { actorOf, type Principal } from '../principal.js';
import { planReads } from './plan-reads.js';

type Changed = Record<string, { from: unknown; to: unknown }>;

/** A change with how to take it back. */
interface Undoable extends Change {
  run(p: Principal): Promise<void>;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * `kairos undo`: the person's recent changes that committed something, newest first, and how to
 * take each back. An executed plan: its events are removed (the plans area moves it to `edited`
 * with a transition trace, as for any removal of what it produced). An import: the events it
 * created are removed. An event edit: the previous values are restored, marked as the undo of
 * that edit so it is not offered again. Undoing the newest repeatedly walks back.
 */
export class UndoService {
  constructor(private readonly d: { store: Store; calendar: CalendarService }) {}

  list(p: Principal, limit = 10): Change[] {
    return this.changes(p)
      .slice(0, limit)
      .map(({ run: _r, ...c }) => c);
  }

  async undo(p: Principal, req: { id?: string; simulate?: boolean }): Promise<{ change: Change; undone: boolean }> {
    const all = this.changes(p);
    const found = req.id ? all.find((c) => c.id === req.id) : all[0];
    if (!found) throw notFound(req.id ? `No change ${req.id} to undo (kairos undo --list shows what can be).` : 'Nothing to undo.');
    const { run, ...change } = found;
    if (!req.simulate) await run(p);
    return { change, undone: !req.simulate };
  }

  private changes(p: Principal): Undoable[] {
    const userId = p.userId;
    const events = eventReads(this.d.store);
    const out: Undoable[] = [];

    for (const plan of planReads(this.d.store).ofUser(userId)) {
      if (plan.status !== 'executed') continue;
      const uids = (plan.produced ?? []).filter((x) => x.collection === 'events' && events.get(x.uid)).map((x) => x.uid);
      if (!uids.length) continue;
      const titles = uids.map((u) => `“${events.get(u)!.title}”`).join(', ');
      out.push({
        id: plan.plan_id,
        kind: 'plan',
        at: plan.executed_at ?? plan.updated_at,
        summary: `executed plan ${plan.plan_id} (${plan.task_id}): added ${titles}`,
        undo: `remove ${plural(uids.length, 'event')} (${titles}); the plan is recorded as edited`,
        events: uids.length,
        run: async (who) => {
          for (const uid of uids) if (events.get(uid)) await this.d.calendar.remove(who, uid);
        },
      });
    }

    const traces = traceReads(this.d.store)
      .ofUser(userId)
      .filter((t) => t.type === 'calendar_event' && t.fields);
    const undone = new Set(traces.map((t) => t.fields?.undo_of).filter((x): x is string => typeof x === 'string'));
    const mine = actorOf(p);
    for (const t of traces) {
      const f = t.fields as Record<string, unknown>;
      if (f.action === 'imported' && typeof f.import_id === 'string') {
        const importId = f.import_id;
        const count = events.ofUser(userId).filter((e) => e.import_id === importId).length;
        if (!count) continue;
        out.push({
          id: importId,
          kind: 'import',
          at: t.timestamp,
          summary: t.content.replace(/\.$/, ''),
          undo: `remove the ${plural(count, 'event')} this import created`,
          events: count,
          run: async (who) => {
            await this.d.calendar.removeMany(who, { import_id: importId });
          },
        });
      } else if (f.action === 'updated' && !f.undo_of && !f.recurrence_id && !undone.has(t.uid) && t.authored_by === mine) {
        const edit = this.editChange(t, f.changes as Changed | undefined);
        if (edit) out.push(edit);
      }
    }
    return out.sort((a, b) => b.at.localeCompare(a.at) || b.id.localeCompare(a.id));
  }

  /** An event edit that can still be taken back: the event is as the edit left it. */
  private editChange(t: StoredTrace, changes: Changed | undefined): Undoable | undefined {
    const uid = t.linked_event_uid;
    const ev = uid ? eventReads(this.d.store).get(uid) : undefined;
    if (!ev || !changes || !Object.keys(changes).length) return undefined;
    const current = ev as unknown as Record<string, unknown>;
    if (!Object.entries(changes).every(([k, c]) => same(current[k], c.to))) return undefined;
    const updates = Object.fromEntries(Object.entries(changes).map(([k, c]) => [k, c.from])) as EventUpdates;
    const fields = Object.keys(changes).join(', ');
    return {
      id: t.uid,
      kind: 'edit',
      at: t.timestamp,
      summary: `edited “${ev.title}” (${fields})`,
      undo: `restore ${fields} of “${ev.title}” as they were`,
      events: 1,
      run: async (who) => {
        await this.d.calendar.edit(who, { uid: ev.uid, updates, expected_version: ev.version }, t.uid);
      },
    };
  }
}
