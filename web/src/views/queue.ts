import { useCallback, useEffect, useState } from 'preact/hooks';
import type { Plan } from '../../../src/contracts/plans.js';
import { callWhole } from '../api.js';
import { html } from '../html.js';
import { onLive } from '../live.js';
import { firstCall } from '../prefetch.js';
import { ErrorLine } from './error-line.js';
import { PlanCard } from './plan-card.js';

/** Proposed plans of every agent, oldest first; reloaded on each plan change pushed on /ws. */
export function QueueView({ zone }: { zone: string }) {
  const [plans, setPlans] = useState<Plan[]>();
  const [done, setDone] = useState<Plan[]>([]);
  const [error, setError] = useState<unknown>();
  const load = useCallback(async (first = false) => {
    try {
      setPlans((await (first ? firstCall('GET /agent/queue') : callWhole('GET /agent/queue', 'plans'))).plans);
      setError(undefined);
    } catch (e) {
      setError(e);
    }
  }, []);
  useEffect(() => {
    load(true);
    return onLive((ev) => {
      if (ev.type.startsWith('plan.') || ev.type === 'reconnected') load();
    });
  }, [load]);
  const changed = (p: Plan) => {
    setDone((d) => [p, ...d.filter((x) => x.plan_id !== p.plan_id)].slice(0, 5));
    load();
  };
  return html`<section aria-labelledby="queue-h">
    <h2 id="queue-h">Queue</h2>
    <p class="hint"><kbd>j</kbd>/<kbd>k</kbd> move, <kbd>a</kbd> approve and execute, <kbd>e</kbd> edit an action, <kbd>r</kbd> reject.</p>
    <${ErrorLine} error=${error} />
    ${plans === undefined ? html`<p>Loading…</p>` : null}
    ${plans?.length === 0 ? html`<p class="empty">Nothing waits for your review.</p>` : null}
    <div class="list">${plans?.map((p) => html`<${PlanCard} key=${p.plan_id} plan=${p} zone=${zone} onChanged=${changed} />`)}</div>
    ${
      done.length
        ? html`<h3>Just reviewed</h3>
          <ul class="plain">
            ${done.map((p) => html`<li key=${p.plan_id}><strong>${p.task_id}</strong> → <span class=${`status ${p.status}`}>${p.status}</span></li>`)}
          </ul>`
        : null
    }
  </section>`;
}
