import type { Argument, Command, Option } from 'commander';
import { kindOf } from '../arg-kinds.js';
import { collect } from '../command-runtime.js';

/**
 * What a value completes to, as the scripts encode it in one word: `none` (a value, nothing to
 * offer), `file`, `id:<kind>` (asked of the daemon by `kairos __complete`), `values:<a b c>`.
 */
export type ValueCode = string;

export interface OptionSpec {
  names: string[];
  description: string;
  /** Undefined for a flag; what its value completes to for an option that takes one. */
  value?: ValueCode;
  /** Given more than once (`--set a=1 --set b=2`): offered again after it is used. */
  repeatable: boolean;
}

export interface NodeSpec {
  /** Words from the root: [] for kairos itself, ['cal', 'sync', 'add'] for a verb. */
  path: string[];
  subs: { name: string; description: string }[];
  options: OptionSpec[];
  /** What each positional argument completes to; the last repeats when `variadic`. */
  args: ValueCode[];
  variadic: boolean;
}

const firstLine = (s: string) => s.split('\n')[0] ?? '';

async function valueCode(x: Argument | Option, choices: readonly string[] | undefined): Promise<ValueCode> {
  if (choices?.length) return `values:${choices.join(' ')}`;
  const k = kindOf(x);
  if (k === undefined) return 'none';
  if (k === 'file') return 'file';
  if ('id' in k) return `id:${k.offers ?? k.id}`;
  if ('list' in k) return `id:${k.list}`;
  return `values:${(await k.values()).join(' ')}`;
}

async function optionSpec(o: Option): Promise<OptionSpec> {
  const names = [o.short, o.long].filter((f): f is string => Boolean(f));
  const takesValue = o.required || o.optional;
  return {
    names,
    description: firstLine(o.description),
    repeatable: o.parseArg === collect,
    ...(takesValue ? { value: await valueCode(o, o.argChoices) } : {}),
  };
}

const HELP: OptionSpec = { names: ['-h', '--help'], description: 'show help', repeatable: false };

/**
 * Every visible command of the tree with what its words complete to: subcommands, options (its
 * own, then the global ones, then --help) and positional arguments, read off commander's
 * declarations, their `choices` and the kinds of arg-kinds.ts.
 */
export async function commandSpecs(program: Command): Promise<NodeSpec[]> {
  const globals = await Promise.all(program.options.filter((o) => !o.hidden && o.long !== '--version').map(optionSpec));
  const out: NodeSpec[] = [];
  const visit = async (cmd: Command, path: string[]) => {
    const visible = cmd.commands.filter((c) => !(c as unknown as { _hidden?: boolean })._hidden);
    const own = await Promise.all(cmd.options.filter((o) => !o.hidden).map(optionSpec));
    const seen = new Set(own.flatMap((o) => o.names));
    const inherited = path.length ? globals.filter((g) => !g.names.some((n) => seen.has(n))) : [];
    const args = cmd.registeredArguments;
    out.push({
      path,
      subs: visible.map((c) => ({ name: c.name(), description: firstLine(c.description()) })),
      options: [...own, ...inherited, HELP],
      args: await Promise.all(args.map((a) => valueCode(a, a.argChoices))),
      variadic: args.at(-1)?.variadic ?? false,
    });
    for (const c of visible) await visit(c, [...path, c.name()]);
  };
  await visit(program, []);
  return out;
}
