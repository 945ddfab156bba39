import type { Argument, Option } from 'commander';
import type { IdKind } from './input/resolve-id.js';

/**
 * What the value of an argument or option is, beyond commander's own `choices`: the shell
 * completion scripts offer file paths, ids from the daemon or a fixed set of values for it, and
 * `lazy` (command-runtime.ts) resolves an id given as a short prefix. Declared next to the argument, once.
 */
export type ValueKind =
  | 'file'
  /** `offers`: completion lists only these (the plans `approve` can still take), the prefix still resolves any id of the kind. */
  | { id: IdKind; offers?: ListKind }
  /** Names the daemon knows that are given whole (no prefix resolution): offered by completion. */
  | { list: ListKind }
  /** A fixed set read from its one source (a zod enum, a const list) when completion scripts are made. */
  | { values: () => readonly string[] | Promise<readonly string[]> };

/** What `kairos __complete` lists besides all ids of a kind: subscriptions (sub_…), CalDAV accounts (by name), plans awaiting a decision. */
export type ListKind = 'subscription' | 'caldav-account' | 'proposed-plan';

/**
 * A declared argument or option with its kind. It is plain data, so declaring one loads nothing:
 * the command tree (kinded-command.ts) turns it into commander's Argument or Option, and the fast
 * path (fast-path.ts) reads it without commander.
 */
export interface KindedSpec {
  readonly [KINDED]: 'argument' | 'option';
  /** `<file>`, `[id]`, `<plan...>` for an argument; `-o, --output <file>` for an option. */
  readonly spec: string;
  readonly description: string;
  readonly kind: ValueKind;
}

const KINDED = Symbol('kinded');

export function isKinded(x: unknown): x is KindedSpec {
  return typeof x === 'object' && x !== null && KINDED in x;
}

const KINDS = new WeakMap<object, ValueKind>();

/** Remember the kind of commander's Argument or Option made from a declaration. */
export function recordKind(x: object, kind: ValueKind): void {
  KINDS.set(x, kind);
}

/**
 * A positional argument with a kind: `.addArgument(arg('<file>', 'iCalendar file', 'file'))`. Typed
 * as commander's Argument so the declaration reads as usual; only our command tree takes it.
 */
export function arg(spec: string, description: string, kind: ValueKind): Argument {
  return { [KINDED]: 'argument', spec, description, kind } satisfies KindedSpec as unknown as Argument;
}

/** An option whose value has a kind: `.addOption(opt('-o, --output <file>', 'file to write', 'file'))`. */
export function opt(flags: string, description: string, kind: ValueKind): Option {
  return { [KINDED]: 'option', spec: flags, description, kind } satisfies KindedSpec as unknown as Option;
}

/** The kind declared for an argument or option, if any. */
export function kindOf(x: object): ValueKind | undefined {
  return KINDS.get(x);
}

/** The id kind of an argument, if it takes an id. */
export function idKindOf(a: object): IdKind | undefined {
  return idKind(KINDS.get(a));
}

/** The id kind of a value kind, if it is one. */
export function idKind(k: ValueKind | undefined): IdKind | undefined {
  return typeof k === 'object' && 'id' in k ? k.id : undefined;
}
