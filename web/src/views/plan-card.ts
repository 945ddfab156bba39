import { useState } from 'preact/hooks';
import type { EndpointBody } from '../../../src/contracts/endpoints.js';
import type { Action, Plan } from '../../../src/contracts/plans.js';
import { call } from '../api.js';
import { useFocusOnMount } from '../focus.js';
import { html } from '../html.js';
import { fromInput, toInput, whenLabel } from '../time.js';
import { ErrorLine } from './error-line.js';

type ActionEdit = NonNullable<EndpointBody<'POST /agent/approve'>['actions']>[number];

function ActionItem({ action, zone }: { action: Action; zone: string }) {
  const when = action.kind === 'reflect' ? whenLabel(action.scheduled_for, zone) : `${whenLabel(action.scheduled_for, zone)}, ${action.duration_minutes} min`;
  return html`<li class="action">
    <span class="kind">${action.kind.replace('_', ' ')}</span>
    <strong>${action.title}</strong> <span class="when">${when}</span>
    ${action.rrule ? html` <span class="tag">repeats ${action.rrule}</span>` : null}
    ${action.tempo_tag ? html` <span class="tag">${action.tempo_tag}</span>` : null}
    ${action.edited ? html` <span class="tag">edited</span>` : null}
    ${action.reasoning ? html`<div class="why">why: ${action.reasoning}</div>` : null}
    ${action.conflicts?.length ? html`<div class="warn">overlaps ${action.conflicts.length} event(s) in your calendar</div>` : null}
    ${action.warnings?.map((w) => html`<div class="warn">${w}</div>`)}
  </li>`;
}

function EditForm({ plan, zone, onDone, onCancel }: { plan: Plan; zone: string; onDone: (p: Plan) => void; onCancel: () => void }) {
  const first = plan.actions[0]!;
  const [id, setId] = useState(first.action_id);
  const action = plan.actions.find((a) => a.action_id === id) ?? first;
  const [error, setError] = useState<unknown>();
  const focus = useFocusOnMount<HTMLInputElement>();
  const submit = async (e: Event) => {
    e.preventDefault();
    const f = new FormData(e.target as HTMLFormElement);
    const edit: ActionEdit = { action_id: action.action_id };
    const title = String(f.get('title') ?? '').trim();
    if (title && title !== action.title) edit.title = title;
    const start = String(f.get('start') ?? '');
    if (start && start !== toInput(action.scheduled_for, zone)) edit.scheduled_for = fromInput(start, zone);
    const minutes = Number(f.get('minutes'));
    if (action.kind !== 'reflect' && minutes !== action.duration_minutes) edit.duration_minutes = minutes;
    if (f.get('leave_out')) edit.status = 'rejected';
    try {
      const actions = Object.keys(edit).length > 1 ? { actions: [edit] } : {};
      onDone(await call('POST /agent/approve', { body: { plan_id: plan.plan_id, ...actions, execute: true } }));
    } catch (err) {
      setError(err);
    }
  };
  const fid = (n: string) => `${plan.plan_id}-${n}`;
  return html`<form class="edit" onSubmit=${submit} key=${action.action_id}>
    ${
      plan.actions.length > 1
        ? html`<label for=${fid('action')}>Action</label>
          <select id=${fid('action')} value=${id} onChange=${(e: Event) => setId((e.target as HTMLSelectElement).value)}>
            ${plan.actions.map((a, i) => html`<option value=${a.action_id}>${i + 1}. ${a.title}</option>`)}
          </select>`
        : null
    }
    <label for=${fid('title')}>Title</label>
    <input id=${fid('title')} name="title" value=${action.title} ref=${focus} />
    <label for=${fid('start')}>Start (${zone})</label>
    <input id=${fid('start')} name="start" type="datetime-local" value=${toInput(action.scheduled_for, zone)} />
    ${
      action.kind !== 'reflect'
        ? html`<label for=${fid('minutes')}>Minutes</label>
          <input id=${fid('minutes')} name="minutes" type="number" min="1" value=${action.duration_minutes} />`
        : null
    }
    <label class="check"><input type="checkbox" name="leave_out" /> Leave this action out</label>
    <div class="buttons">
      <button type="submit" class="primary">Approve with this edit</button>
      <button type="button" onClick=${onCancel}>Cancel</button>
    </div>
    <${ErrorLine} error=${error} />
  </form>`;
}

function RejectForm({ plan, onDone, onCancel }: { plan: Plan; onDone: (p: Plan) => void; onCancel: () => void }) {
  const [error, setError] = useState<unknown>();
  const focus = useFocusOnMount<HTMLInputElement>();
  const submit = async (e: Event) => {
    e.preventDefault();
    const reason = String(new FormData(e.target as HTMLFormElement).get('reason') ?? '').trim();
    try {
      onDone(await call('POST /agent/reject', { body: { plan_id: plan.plan_id, ...(reason ? { reason } : {}) } }));
    } catch (err) {
      setError(err);
    }
  };
  return html`<form class="edit" onSubmit=${submit}>
    <label for=${`${plan.plan_id}-reason`}>Why reject it? (the agents see this)</label>
    <input id=${`${plan.plan_id}-reason`} name="reason" ref=${focus} />
    <div class="buttons">
      <button type="submit" class="danger">Reject</button>
      <button type="button" onClick=${onCancel}>Cancel</button>
    </div>
    <${ErrorLine} error=${error} />
  </form>`;
}

/**
 * A proposed plan with the why of each action, approved (and executed), edited then approved, or
 * rejected with a reason in place; a/e/r are its keys when it has the focus.
 */
export function PlanCard({ plan, zone, onChanged }: { plan: Plan; zone: string; onChanged: (p: Plan) => void }) {
  const [mode, setMode] = useState<'view' | 'edit' | 'reject'>('view');
  const [error, setError] = useState<unknown>();
  const approve = async () => {
    try {
      onChanged(await call('POST /agent/approve', { body: { plan_id: plan.plan_id, execute: true } }));
    } catch (err) {
      setError(err);
    }
  };
  const done = (p: Plan) => {
    setMode('view');
    onChanged(p);
  };
  const open = plan.status === 'proposed';
  return html`<article class="card plan" tabindex="0" data-item data-plan=${plan.plan_id} aria-label=${`Plan ${plan.task_id} by ${plan.agent_id ?? 'you'}`}>
    <header>
      <strong>${plan.task_id}</strong>
      <span class=${`status ${plan.status}`}>${plan.status}</span>
      <span class="by">by ${plan.agent_id ?? 'you'}</span>
    </header>
    ${plan.reasoning ? html`<p class="why">${plan.reasoning}</p>` : null}
    <ol class="actions">
      ${plan.actions.map((a) => html`<${ActionItem} key=${a.action_id} action=${a} zone=${zone} />`)}
    </ol>
    ${plan.reason ? html`<p class="why">rejected: ${plan.reason}</p>` : null}
    ${
      open && mode === 'view'
        ? html`<div class="buttons">
          <button class="primary" data-key="a" onClick=${approve}>Approve <kbd>a</kbd></button>
          <button data-key="e" onClick=${() => setMode('edit')}>Edit <kbd>e</kbd></button>
          <button class="danger" data-key="r" onClick=${() => setMode('reject')}>Reject <kbd>r</kbd></button>
        </div>`
        : null
    }
    ${open && mode === 'edit' ? html`<${EditForm} plan=${plan} zone=${zone} onDone=${done} onCancel=${() => setMode('view')} />` : null}
    ${open && mode === 'reject' ? html`<${RejectForm} plan=${plan} onDone=${done} onCancel=${() => setMode('view')} />` : null}
    <${ErrorLine} error=${error} />
  </article>`;
}
