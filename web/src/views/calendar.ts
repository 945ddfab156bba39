import { useCallback, useEffect, useState } from 'preact/hooks';
import type { EndpointBody, EndpointResponse } from '../../../src/contracts/endpoints.js';
import { call, callWhole } from '../api.js';
import { type DayPlan, type FreeDay, planDays } from '../day-plan.js';
import { useFocusOnMount } from '../focus.js';
import { html } from '../html.js';
import { onLive } from '../live.js';
import { addDays, dayLabel, fromInput, toInput, wall, weekOf } from '../time.js';
import { ErrorLine } from './error-line.js';

type Item = EndpointResponse<'GET /calendar/events'>['events'][number];
const hhmm = (ms: number, zone: string) => wall(ms, zone).time;

/** What the form edits: a new event, an event, or an occurrence of a series. */
type Editing = { kind: 'new'; date: string } | { kind: 'edit'; item: Item };

function EventForm({ editing, zone, onDone, onCancel }: { editing: Editing; zone: string; onDone: () => void; onCancel: () => void }) {
  const item = editing.kind === 'edit' ? editing.item : undefined;
  const series = item?.occurrence_of ?? (item?.rrule ? item.uid : undefined);
  const [scope, setScope] = useState<'one' | 'series'>('one');
  const [error, setError] = useState<unknown>();
  const readOnly = item?.source === 'subscription';
  const focus = useFocusOnMount<HTMLInputElement>();
  const submit = async (e: Event) => {
    e.preventDefault();
    const f = new FormData(e.target as HTMLFormElement);
    const title = String(f.get('title')).trim();
    const start = fromInput(String(f.get('start')), zone);
    const minutes = Number(f.get('minutes'));
    const rrule = String(f.get('rrule') ?? '').trim();
    try {
      if (!item) {
        await call('POST /calendar/create', { body: { title, scheduled_for: start, duration_minutes: minutes, timezone: zone, ...(rrule ? { rrule } : {}) } });
      } else {
        const updates: EndpointBody<'PATCH /calendar/edit'>['updates'] = {};
        if (title !== item.title) updates.title = title;
        if (minutes !== item.duration_minutes) updates.duration_minutes = minutes;
        // A series keeps its first start: moving one occurrence is the "this occurrence" scope.
        if (start !== new Date(item.scheduled_for).toISOString() && !(series && scope === 'series')) updates.scheduled_for = start;
        if (series && scope === 'series' && rrule !== (item.rrule ?? '')) updates.rrule = rrule || null;
        if (!series && rrule) updates.rrule = rrule;
        const occurrence = series && scope === 'one' && item.recurrence_id ? { recurrence_id: item.recurrence_id } : {};
        // Saving an unchanged form changes nothing: no request, the form closes.
        if (Object.keys(updates).length) await call('PATCH /calendar/edit', { body: { uid: series ?? item.uid, updates, ...occurrence } });
      }
      onDone();
    } catch (err) {
      setError(err);
    }
  };
  const remove = async () => {
    if (!item) return;
    try {
      const occurrence = series && scope === 'one' && item.recurrence_id ? { recurrence_id: item.recurrence_id } : {};
      await call('DELETE /calendar/remove', { query: { uid: series ?? item.uid, ...occurrence } });
      onDone();
    } catch (err) {
      setError(err);
    }
  };
  const startValue = item ? toInput(item.scheduled_for, zone) : `${editing.kind === 'new' ? editing.date : ''}T09:00`;
  return html`<form class="card edit" onSubmit=${submit} aria-label=${item ? `Edit ${item.title}` : 'New event'}>
    <h3>${item ? `Edit “${item.title}”` : 'New event'}</h3>
    ${readOnly ? html`<p class="hint">This event comes from the feed ${item?.subscription?.name}; it changes only with the feed.</p>` : null}
    ${
      series
        ? html`<fieldset>
          <legend>Change</legend>
          <label class="check"><input type="radio" name="scope" checked=${scope === 'one'} onChange=${() => setScope('one')} /> this occurrence</label>
          <label class="check"><input type="radio" name="scope" checked=${scope === 'series'} onChange=${() => setScope('series')} /> the whole series</label>
        </fieldset>`
        : null
    }
    <label for="ev-title">Title</label>
    <input id="ev-title" name="title" required value=${item?.title ?? ''} ref=${focus} />
    <label for="ev-start">Start (${zone})</label>
    <input id="ev-start" name="start" type="datetime-local" required value=${startValue} disabled=${series && scope === 'series'} />
    <label for="ev-minutes">Minutes</label>
    <input id="ev-minutes" name="minutes" type="number" min="1" required value=${item?.duration_minutes ?? 60} />
    ${
      !item?.occurrence_of || scope === 'series'
        ? html`<label for="ev-rrule">Repeats (RRULE, optional)</label>
          <input id="ev-rrule" name="rrule" placeholder="FREQ=WEEKLY;BYDAY=MO,TH" value=${item?.rrule ?? ''} />`
        : null
    }
    <div class="buttons">
      <button type="submit" class="primary" disabled=${readOnly}>${item ? 'Save' : 'Add'}</button>
      ${item ? html`<button type="button" class="danger" onClick=${remove} disabled=${readOnly}>Remove</button>` : null}
      <button type="button" onClick=${onCancel}>Cancel</button>
    </div>
    <${ErrorLine} error=${error} />
  </form>`;
}

function Day({
  day,
  zone,
  today,
  onEdit,
  onAdd,
}: {
  day: DayPlan<Item>;
  zone: string;
  today: boolean;
  onEdit: (i: Item) => void;
  onAdd: (date: string) => void;
}) {
  type Row = { at: number; node: unknown };
  const rows: Row[] = [
    ...day.events.map((o) => ({
      at: o.start,
      node: html`<li key=${`${o.event.uid}${o.event.recurrence_id ?? ''}`}>
        <button class=${`event ${o.conflict ? 'conflict' : ''} ${o.event.status}`} data-item onClick=${() => onEdit(o.event)}>
          <span class="when">${o.event.all_day ? 'all day' : `${hhmm(o.start, zone)}–${hhmm(o.end, zone)}`}</span>
          <span class="title">${o.event.title}</span>
          <span class="tags">
            ${o.event.occurrence_of ? html`<span class="tag">series</span>` : null}
            ${o.event.source !== 'api' ? html`<span class="tag">${o.event.source}</span>` : null}
            ${o.conflict ? html`<span class="tag warn">conflict</span>` : null}
          </span>
        </button>
      </li>`,
    })),
    ...day.blocked.map((b) => ({
      at: b.start,
      node: html`<li class="blocked"><span class="when">${hhmm(b.start, zone)}–${hhmm(b.end, zone)}</span> blocked${b.label ? `: ${b.label}` : ''}</li>`,
    })),
    ...day.free.map((f) => ({
      at: f.start,
      node: html`<li class="free"><span class="when">${hhmm(f.start, zone)}–${hhmm(f.end, zone)}</span> free</li>`,
    })),
  ].sort((a, b) => a.at - b.at);
  return html`<section class=${`day ${today ? 'today' : ''}`} aria-label=${dayLabel(day.date)}>
    <h3>${dayLabel(day.date)}${today ? ' · today' : ''}</h3>
    <ul class="plain">${rows.map((r) => r.node)}</ul>
    <button class="add" onClick=${() => onAdd(day.date)} aria-label=${`Add an event on ${dayLabel(day.date)}`}>+ event</button>
  </section>`;
}

/** Today and its week in the profile's zone: events of every source, conflicts, blocked time and free slots. */
export function CalendarView({ zone }: { zone: string }) {
  const today = wall(Date.now(), zone).date;
  const [anchor, setAnchor] = useState(today);
  const [events, setEvents] = useState<Item[]>();
  const [free, setFree] = useState<ReadonlyMap<string, FreeDay>>(new Map());
  const [editing, setEditing] = useState<Editing>();
  const [error, setError] = useState<unknown>();
  const dates = weekOf(anchor);
  const load = useCallback(async () => {
    try {
      const week = weekOf(anchor);
      // The free time of each day is the daemon's (the same as `kairos cal free`): slots of 30 minutes or more.
      const [list, ...days] = await Promise.all([
        callWhole('GET /calendar/events', 'events', { query: { start: week[0], end: addDays(week[6]!, 1) } }),
        ...week.map((date) => call('GET /calendar/free', { query: { date, duration_minutes: 30 } })),
      ]);
      setEvents(list.events);
      setFree(new Map(days.map((d) => [d.date, d])));
      setError(undefined);
    } catch (e) {
      setError(e);
    }
  }, [anchor]);
  useEffect(() => {
    load();
    return onLive((ev) => {
      if (ev.type.startsWith('event.') || ev.type === 'reconnected') load();
    });
  }, [load]);
  const days = events ? planDays(dates, events, free, zone) : [];
  const done = () => {
    setEditing(undefined);
    load();
  };
  return html`<section aria-labelledby="cal-h">
    <h2 id="cal-h">Calendar <small>${zone}</small></h2>
    <div class="buttons">
      <button onClick=${() => setAnchor(addDays(anchor, -7))}>← Previous week</button>
      <button onClick=${() => setAnchor(today)}>This week</button>
      <button onClick=${() => setAnchor(addDays(anchor, 7))}>Next week →</button>
      <button class="primary" onClick=${() => setEditing({ kind: 'new', date: dates.includes(today) ? today : dates[0]! })}>New event</button>
    </div>
    <${ErrorLine} error=${error} />
    ${editing ? html`<${EventForm} key=${JSON.stringify(editing)} editing=${editing} zone=${zone} onDone=${done} onCancel=${() => setEditing(undefined)} />` : null}
    ${events === undefined ? html`<p>Loading…</p>` : null}
    <div class="week">
      ${days.map(
        (d) =>
          html`<${Day}
            key=${d.date}
            day=${d}
            zone=${zone}
            today=${d.date === today}
            onEdit=${(item: Item) => setEditing({ kind: 'edit', item })}
            onAdd=${(date: string) => setEditing({ kind: 'new', date })}
          />`,
      )}
    </div>
  </section>`;
}
