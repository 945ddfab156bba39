import type { EventUpdates } from '../../contracts/calendar.js';
import type { Change } from '../../contracts/changes.js';
import type { StoredTrace } from '../../contracts/memory.js';
import type { StoredEvent } from '../../contracts/stored.js';
import { notFound } from '../../errors.js';
import type { Store } from '../../store/store.js';
import type { CalendarService } from '../calendar/calendar-service.js';
import { eventReads } from '../calendar/event-reads.js';
import type { MemoryService } from '../memory/memory-service.js';
import { traceReads } from '../memory/traces.js';
import { actorOf, type Principal } from '../principal.js';
import { planReads } from './plan-reads.js';
import { traceEditChanges } from './undo-traces.js';
import { plural, type Undoable } from './undoable.js';

type Changed = Record<string, { from: unknown; to: unknown }>;

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * `kairos undo`: the person's recent changes that committed something, newest first, and how to
 * take each back. An executed plan: its events are removed (the plans area moves it to `edited`
 * with a transition trace, as for any removal of what it produced). An import: the events it
 * created are removed. An event edit: the previous values are restored, marked as the undo of
 * that edit so it is not offered again. An event added by hand: it is removed; one removed by
 * hand: it is put back with its uid. A trace edit: the trace's previous version is restored.
 * Undoing the newest repeatedly walks back.
 */
export class UndoService {
  constructor(private readonly d: { store: Store; calendar: CalendarService; memory: MemoryService }) {}

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
          for (const uid of uids) if (events.get(uid)) await this.d.calendar.remove(who, uid, undefined, plan.plan_id);
        },
      });
    }

    const all = traceReads(this.d.store).ofUser(userId);
    const traces = all.filter((t) => t.type === 'calendar_event' && t.fields);
    const undone = new Set(traces.map((t) => t.fields?.undo_of).filter((x): x is string => typeof x === 'string'));
    const mine = actorOf(p);
    for (const t of traces) {
      const f = t.fields as Record<string, unknown>;
      if (f.action === 'imported' && typeof f.import_id === 'string') {
        const imp = this.importChange(userId, t, f.import_id, undone.has(t.uid) ? [] : ((f.previous as StoredEvent[] | undefined) ?? []));
        if (imp) out.push(imp);
        continue;
      }
      if (f.undo_of || undone.has(t.uid) || t.authored_by !== mine) continue;
      const change =
        f.action === 'updated' && !f.recurrence_id
          ? this.editChange(t, f.changes as Changed | undefined)
          : f.action === 'created'
            ? this.addChange(t)
            : f.action === 'removed'
              ? this.removeChange(t, f.previous as StoredEvent | undefined)
              : undefined;
      if (change) out.push(change);
    }
    out.push(...traceEditChanges(this.d.store, this.d.memory, all, mine));
    return out.sort((a, b) => b.at.localeCompare(a.at) || b.id.localeCompare(a.id));
  }

  /** An import: the events it created are removed, the ones it updated put back as they were. */
  private importChange(userId: string, t: StoredTrace, importId: string, previous: StoredEvent[]): Undoable | undefined {
    const events = eventReads(this.d.store);
    const count = events.ofUser(userId).filter((e) => e.import_id === importId).length;
    // An updated event edited since keeps that edit: only the import's own version is put back.
    const back = previous.filter((e) => events.get(e.uid)?.version === e.version + 1);
    if (!count && !back.length) return undefined;
    const what = [
      ...(count ? [`remove the ${plural(count, 'event')} this import created`] : []),
      ...(back.length ? [`restore ${plural(back.length, 'event')} it updated`] : []),
    ];
    return {
      id: importId,
      kind: 'import',
      at: t.timestamp,
      summary: t.content.replace(/\.$/, ''),
      undo: what.join(' and '),
      events: count + back.length,
      run: async (who) => {
        if (count) await this.d.calendar.removeMany(who, { import_id: importId });
        for (const e of back) await this.d.calendar.restore(who, e, t.uid);
      },
    };
  }

  /** An event the person added that is still there: it is removed. */
  private addChange(t: StoredTrace): Undoable | undefined {
    const ev = t.linked_event_uid ? eventReads(this.d.store).get(t.linked_event_uid) : undefined;
    if (!ev) return undefined;
    return {
      id: t.uid,
      kind: 'add',
      at: t.timestamp,
      summary: `added “${ev.title}”`,
      undo: `remove “${ev.title}” (${ev.uid})`,
      events: 1,
      run: async (who) => {
        await this.d.calendar.remove(who, ev.uid, undefined, t.uid);
      },
    };
  }

  /** An event the person removed whose uid is still free: it is put back as it was. */
  private removeChange(t: StoredTrace, previous: StoredEvent | undefined): Undoable | undefined {
    if (!previous || eventReads(this.d.store).get(previous.uid)) return undefined;
    return {
      id: t.uid,
      kind: 'remove',
      at: t.timestamp,
      summary: `removed “${previous.title}”`,
      undo: `put back “${previous.title}” as it was (${previous.uid})`,
      events: 1,
      run: async (who) => {
        await this.d.calendar.restore(who, previous, t.uid);
      },
    };
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
