import { type PatchOperation, replay, valueAt } from '../../../contracts/patch.js';
import type { CliDeps, RunInput } from '../../command-runtime.js';
import { clip } from '../../output/text.js';
import { when } from '../../output/time.js';
import { fetchHistory } from './fetch-trace.js';

// Every version changes these; the header line already says so.
const BOOKKEEPING = new Set(['/version', '/updated_at']);
const show = (v: unknown) => clip(typeof v === 'string' ? v : JSON.stringify(v), 100);

export async function run({ args }: RunInput, deps: CliDeps): Promise<void> {
  const client = await deps.client();
  const h = await fetchHistory(client, args[0]!);
  const c = deps.io.chalk;
  // The person reads their own name and their zone's time; agents keep their ids.
  const me = deps.io.json ? undefined : await client.call('GET /user/profile');
  const tz = me?.timezone || 'UTC';
  const actor = (a: string) => (me && a === me.user_id ? me.display_name : a);
  deps.io.data(h, () => {
    const out: string[] = [];
    const applied: PatchOperation[][] = [];
    for (const v of h.versions) {
      const before = replay(applied);
      applied.push(v.patch);
      out.push(c.bold(`v${v.version}`) + c.dim(`  ${when(v.timestamp, tz)} ${tz}  by ${actor(v.actor)}`));
      if (v.version === 1) {
        const t = replay(applied);
        out.push(c.green(`  + created ${String(t.type)} in ${String(t.task_id)}: ${show(t.content)}`));
        continue;
      }
      for (const op of v.patch) {
        if (BOOKKEEPING.has(op.path)) continue;
        const old = valueAt(before, op.path);
        if (op.op === 'remove' || op.op === 'replace') out.push(c.red(`  - ${op.path}: ${show(old)}`));
        if (op.op === 'add' || op.op === 'replace') out.push(c.green(`  + ${op.path}: ${show(op.value)}`));
        if (!['add', 'remove', 'replace'].includes(op.op)) out.push(c.yellow(`  ~ ${op.op} ${op.path}`));
      }
    }
    return out.join('\n');
  });
}
