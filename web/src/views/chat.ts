import { useState } from 'preact/hooks';
import type { EndpointResponse } from '../../../src/contracts/endpoints.js';
import type { Plan } from '../../../src/contracts/plans.js';
import { call } from '../api.js';
import { html } from '../html.js';
import { ErrorLine } from './error-line.js';
import { PlanCard } from './plan-card.js';

type Reply = EndpointResponse<'POST /chat/respond'>;
interface Turn {
  prompt: string;
  reply?: Reply;
  error?: unknown;
}

/** Ask in words; a plan the answer proposes is reviewed in place, like in the queue. */
export function ChatView({ zone }: { zone: string }) {
  const [turns, setTurns] = useState<Turn[]>([]);
  const [busy, setBusy] = useState(false);
  const send = async (e: Event) => {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const prompt = String(new FormData(form).get('prompt') ?? '').trim();
    if (!prompt) return;
    setBusy(true);
    let turn: Turn;
    try {
      turn = { prompt, reply: await call('POST /chat/respond', { body: { prompt } }) };
      form.reset();
    } catch (error) {
      turn = { prompt, error };
    }
    setTurns((t) => [...t, turn]);
    setBusy(false);
  };
  const planChanged = (i: number, plan: Plan) => setTurns((t) => t.map((x, j) => (j === i && x.reply ? { ...x, reply: { ...x.reply, plan } } : x)));
  return html`<section aria-labelledby="chat-h">
    <h2 id="chat-h">Chat</h2>
    <div class="list" aria-live="polite">
      ${turns.map(
        (t, i) => html`<div class="turn" key=${i}>
          <p class="you"><span class="visually-hidden">You: </span>${t.prompt}</p>
          <${ErrorLine} error=${t.error} />
          ${t.reply ? html`<p class="reply">${t.reply.reply}</p>` : null}
          ${t.reply?.plan ? html`<${PlanCard} plan=${t.reply.plan} zone=${zone} onChanged=${(p: Plan) => planChanged(i, p)} />` : null}
          ${t.reply?.proposed_traces.length ? html`<p class="hint">${t.reply.proposed_traces.length} note(s) understood; push them from Memory.</p>` : null}
        </div>`,
      )}
    </div>
    <form class="ask" onSubmit=${send}>
      <label for="chat-prompt">Ask kairos</label>
      <textarea id="chat-prompt" name="prompt" rows="2" placeholder="plan my week: gym monday and thursday at 7am" onKeyDown=${(e: KeyboardEvent) => {
        if (e.key === 'Enter' && !e.shiftKey) {
          e.preventDefault();
          (e.target as HTMLTextAreaElement).form?.requestSubmit();
        }
      }}></textarea>
      <button type="submit" class="primary" disabled=${busy}>${busy ? 'Thinking…' : 'Send'}</button>
    </form>
  </section>`;
}
