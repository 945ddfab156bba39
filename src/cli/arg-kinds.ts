import { Argument, Option } from 'commander';
import type { IdKind } from './input/resolve-id.js';

/**
 * What the value of an argument or option is, beyond commander's own `choices`: the shell
 * completion scripts offer file paths, ids from the daemon or a fixed set of values for it, and
 * `lazy` (kit.ts) resolves an id given as a short prefix. Declared next to the argument, once.
 */
export type ValueKind =
  | 'file'
  | { id: IdKind }
  /** Names the daemon knows that are given whole (no prefix resolution): offered by completion. */
  | { list: ListKind }
  /** A fixed set read from its one source (a zod enum, a const list) when completion scripts are made. */
  | { values: () => readonly string[] | Promise<readonly string[]> };

/** What `kairos __complete` lists besides ids: calendar subscriptions (sub_…) and CalDAV accounts (by name). */
export type ListKind = 'subscription' | 'caldav-account';

const KINDS = new WeakMap<Argument | Option, ValueKind>();

/** A positional argument with a kind: `.addArgument(arg('<file>', 'iCalendar file', 'file'))`. */
export function arg(spec: string, description: string, kind: ValueKind): Argument {
  const a = new Argument(spec, description);
  KINDS.set(a, kind);
  return a;
}

/** An option whose value has a kind: `.addOption(opt('-o, --output <file>', 'file to write', 'file'))`. */
export function opt(flags: string, description: string, kind: ValueKind): Option {
  const o = new Option(flags, description);
  KINDS.set(o, kind);
  return o;
}

/** The kind declared for an argument or option, if any. */
export function kindOf(x: Argument | Option): ValueKind | undefined {
  return KINDS.get(x);
}

/** The id kind of an argument, if it takes an id. */
export function idKindOf(a: Argument): IdKind | undefined {
  const k = KINDS.get(a);
  return typeof k === 'object' && 'id' in k ? k.id : undefined;
}
