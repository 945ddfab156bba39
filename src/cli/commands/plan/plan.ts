import type { CliDeps, RunInput } from '../../command-runtime.js';
import { overlapNames } from '../../flows/overlap-names.js';
import { afterProposal } from '../../flows/plan-decision.js';
import { promptOf } from '../../input/prompt-text.js';
import type { Prompter } from '../../input/prompter.js';
import { describePreview } from './show.js';

export interface PlanOptions {
  preview?: boolean;
  task?: string;
  yes?: boolean;
  execute?: boolean;
}

/**
 * `kairos plan <prompt…>`: propose a plan from plain English (or only preview it), show each
 * action with the reason for its time, then approve, edit or reject it at once.
 */
export async function runPlan({ args, opts }: RunInput<PlanOptions>, deps: CliDeps, prompter?: Prompter): Promise<void> {
  const prompt = promptOf(args);
  const client = await deps.client();
  const body = { prompt, ...(opts.task ? { task_id: opts.task } : {}) };
  if (opts.preview) {
    const p = await client.call('POST /chat/plan-preview', { body });
    const names = deps.io.json ? undefined : await overlapNames(client, p.items, p.timezone);
    deps.io.data(p, () => describePreview(p, deps.io.chalk, names));
    return;
  }
  const plan = await client.call('POST /agent/plan', { body });
  await afterProposal(plan, { yes: opts.yes, execute: opts.execute }, deps, client, prompter);
}

export const run = (input: RunInput<PlanOptions>, deps: CliDeps) => runPlan(input, deps);
