import { afterProposal } from '../../flows/plan-decision.js';
import { promptOf } from '../../input/prompt-text.js';
import type { Prompter } from '../../input/prompter.js';
import type { CliDeps, RunInput } from '../../kit.js';

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
  if (io.json && !(r.plan && opts.yes)) return io.data(r);
  if (r.plan) {
    if (!io.json) io.line(r.reply);
    return afterProposal(r.plan, { yes: opts.yes, execute: opts.execute }, deps, client, prompter);
  }
  const c = io.chalk;
  const lines = [r.reply];
  for (const t of r.proposed_traces) lines.push(`  ${c.bold(t.type)}  ${t.task_id}  “${t.content}”`);
  for (const s of r.sources ?? []) lines.push(c.dim(`  ${s.uid}  ${s.timestamp.slice(0, 10)}  ${s.type}  score ${s.score.toFixed(2)}`));
  io.line(lines.join('\n'));
  for (const cmd of r.commands) io.hint(`  ${cmd.label}: ${cmd.cli}`);
}

export const run = (input: RunInput<ChatOptions>, deps: CliDeps) => runChat(input, deps);
