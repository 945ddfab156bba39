import { usage, type CliDeps, type RunInput } from '../../kit.js';
import { afterProposal, type Prompter } from './decide.js';
import { describePreview } from './show.js';

export interface PlanOptions {
  preview?: boolean;
  task?: string;
  yes?: boolean;
  execute?: boolean;
}

/** The prompt from the arguments (`kairos plan gym tomorrow 7am` needs no quotes). */
export function promptOf(args: string[]): string {
  const prompt = args.join(' ').trim();
  if (!prompt) throw usage('Say what to plan, e.g. kairos plan "dentist next Tuesday at 3pm for 45 minutes".');
  return prompt;
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
    deps.io.data(p, () => describePreview(p, deps.io.chalk));
    return;
  }
  const plan = await client.call('POST /agent/plan', { body });
  await afterProposal(plan, { yes: opts.yes, execute: opts.execute }, deps, client, prompter);
}

export const run = (input: RunInput<PlanOptions>, deps: CliDeps) => runPlan(input, deps);
