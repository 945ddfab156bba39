import type { CliDeps, RunInput } from '../../command-runtime.js';
import { freeText } from '../../flows/free-time.js';
import { afterProposal } from '../../flows/plan-decision.js';
import { confirmOrYes } from '../../input/confirm.js';
import { promptOf } from '../../input/prompt-text.js';
import type { Prompter } from '../../input/prompter.js';

export interface ChatOptions {
  task?: string;
  yes?: boolean;
  execute?: boolean;
}

/** `kairos chat <prompt…>`: the reply; a plan is shown (and decided) like `kairos plan`'s. */
export async function runChat({ args, opts }: RunInput<ChatOptions>, deps: CliDeps, prompter?: Prompter): Promise<void> {
  const prompt = promptOf(args);
  const client = await deps.client();
  const r = await client.call('POST /chat/respond', { body: { prompt, ...(opts.task ? { task_id: opts.task } : {}) } });
  const io = deps.io;
  const notes = r.proposed_traces;
  if (io.json && notes.length && opts.yes) {
    const pushed = await client.call('POST /memory/push', { body: { traces: notes } });
    return io.data({ ...r, saved: pushed.saved });
  }
  if (io.json && !(r.plan && opts.yes)) return io.data(r);
  // A question about free time comes back as the day's free time, shown as `cal free` shows it.
  if (r.free) return io.line(freeText(r.free, io.chalk));
  if (r.plan) {
    if (!io.json) io.line(r.reply);
    return afterProposal(r.plan, { yes: opts.yes, execute: opts.execute }, deps, client, prompter);
  }
  const c = io.chalk;
  const lines = [r.reply];
  for (const t of r.proposed_traces) lines.push(`  ${c.bold(t.type)}  ${t.task_id}  “${t.content}”`);
  for (const s of r.sources ?? []) lines.push(c.dim(`  ${s.uid}  ${s.timestamp.slice(0, 10)}  ${s.type}  score ${s.score.toFixed(2)}`));
  io.line(lines.join('\n'));
  if (!notes.length) {
    for (const cmd of r.commands) io.hint(`  ${cmd.label}: ${cmd.cli}`);
    return;
  }
  // A note is offered, not printed as a command to copy: asked at a terminal, saved with --yes.
  const what = notes.length === 1 ? 'this note' : `these ${notes.length} notes`;
  if (!opts.yes && !io.interactive) {
    io.note(`kairos: not saved; run it again with --yes to save ${what}.`);
    return;
  }
  if (!(await confirmOrYes(deps, opts.yes, `Save ${what} to memory?`, true))) {
    io.line('Not saved.');
    return;
  }
  const pushed = await client.call('POST /memory/push', { body: { traces: notes } });
  const ids = deps.io.ids(pushed.saved.map((s) => s.uid));
  io.line(
    `${c.green('✔')} Saved ${pushed.saved.length === 1 ? 'the note' : `${pushed.saved.length} notes`}: ${pushed.saved.map((s) => ids(s.uid)).join(', ')}`,
  );
}

export const run = (input: RunInput<ChatOptions>, deps: CliDeps) => runChat(input, deps);
