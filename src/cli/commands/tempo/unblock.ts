import { type CliDeps, type RunInput, usage } from '../../command-runtime.js';
import { adjust, fetchProfile } from './api.js';
import { describeBlock } from './render.js';

/** Remove blocks by their number in `kairos tempo profile` (#1, #2 …), or all of them. */
export async function run({ args }: RunInput, deps: CliDeps): Promise<void> {
  const current = await fetchProfile(deps);
  const all = args.length === 1 && args[0]!.toLowerCase() === 'all';
  const drop = new Set<number>();
  if (!all) {
    for (const a of args) {
      const n = Number(a.replace(/^#/, ''));
      if (!Number.isInteger(n) || n < 1) throw usage(`"${a}" is not a block number: use the #N shown by \`kairos tempo profile\`, or "all".`);
      if (n > current.blocked.length)
        throw usage(`There is no block #${n}: ${current.blocked.length ? `the profile has #1–#${current.blocked.length}` : 'nothing is blocked'}.`);
      drop.add(n - 1);
    }
  }
  const removed = current.blocked.filter((_, i) => all || drop.has(i));
  // Removed by value in one step: blocks added or removed meanwhile by someone else stay so.
  const p = await adjust(deps, all ? { blocked: [] } : { blocked_remove: removed });
  deps.io.data(p, () => (removed.length ? removed.map((b) => `unblocked: ${describeBlock(b, p.timezone)}`).join('\n') : 'nothing was blocked'));
}
