import { z } from 'zod';
import type { ApiPort } from './api-port.js';
import type { Caller } from './caller.js';

/** The four export modes as ready prompts: the context is fetched and put in the message. */
export interface PromptDef {
  name: string;
  title: string;
  description: string;
  args: Record<string, z.ZodType<string | undefined>>;
  query(args: Record<string, string | undefined>): Record<string, string>;
  ask(args: Record<string, string | undefined>): string;
}

const task = z.string().min(1).max(255).describe('the task to ground in');
const optionalTask = task.optional().describe('only this task (default: everything)');
const only = (o: Record<string, string | undefined>) => Object.fromEntries(Object.entries(o).filter((e): e is [string, string] => e[1] !== undefined));

export const PROMPTS: PromptDef[] = [
  {
    name: 'ground_summary',
    title: 'Ground me (summary)',
    description: "A compressed summary of the person's memory, within a token budget.",
    args: { task_id: optionalTask, max_token_count: z.string().regex(/^\d+$/).optional().describe('token budget (default 4000)') },
    query: (a) => only({ export_format: 'summary', task_id: a.task_id, max_token_count: a.max_token_count ?? '4000' }),
    ask: (a) => `Ground yourself in my memory${a.task_id ? ` for task ${a.task_id}` : ''} before we continue. Here is the summary from kairos:`,
  },
  {
    name: 'ground_full',
    title: 'Ground me (full)',
    description: 'Every trace of a task in full.',
    args: { task_id: task },
    query: (a) => only({ export_format: 'full', task_id: a.task_id }),
    ask: (a) => `Ground yourself in task ${a.task_id}: here is everything kairos remembers of it.`,
  },
  {
    name: 'ground_linked',
    title: 'Ground me (linked)',
    description: "A task's traces with the traces and events they link to.",
    args: { task_id: task },
    query: (a) => only({ export_format: 'linked', task_id: a.task_id }),
    ask: (a) => `Ground yourself in task ${a.task_id} and what it links to (from kairos):`,
  },
  {
    name: 'catch_up',
    title: 'Catch me up (diff)',
    description: 'What changed in memory since an instant (a checkpoint): added, changed and removed traces.',
    args: { since: z.string().min(1).describe('ISO 8601 instant, e.g. the last checkpoint'), task_id: optionalTask },
    query: (a) => only({ export_format: 'diff', since: a.since, task_id: a.task_id }),
    ask: (a) => `Catch up on what changed in my memory since ${a.since}${a.task_id ? ` for task ${a.task_id}` : ''} (from kairos):`,
  },
];

/** The prompt's one user message: the question, then the export as JSON. */
export async function renderPrompt(p: PromptDef, port: ApiPort, caller: Caller, args: Record<string, string | undefined>) {
  const data = await port.call('GET /context/export', { query: { ...p.query(args), user_id: caller.user_id } });
  return {
    description: p.description,
    messages: [{ role: 'user' as const, content: { type: 'text' as const, text: `${p.ask(args)}\n\n${JSON.stringify(data, null, 2)}` } }],
  };
}
