import type { NodeSpec, ValueCode } from './spec.js';

export type { NodeSpec } from './spec.js';

/** A single-quoted shell word (bash, zsh and fish alike): ' becomes '\''. In fish, \\ and \' escape inside quotes. */
export const shq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Every option that takes a value, as `path|--name` keys grouped by what the value completes to,
 * for the scripts' `case` tables (an option not listed is a flag: the next word is not its value).
 */
export function optionCases(nodes: NodeSpec[]): [string[], ValueCode][] {
  const byCode = new Map<ValueCode, string[]>();
  for (const n of nodes) {
    const path = n.path.join(' ');
    for (const o of n.options) {
      if (o.value === undefined) continue;
      const keys = byCode.get(o.value) ?? [];
      for (const name of o.names) keys.push(`${path}|${name}`);
      byCode.set(o.value, keys);
    }
  }
  return [...byCode].map(([code, keys]) => [keys, code]);
}

/**
 * The scripts' `_kairos_optval PATH OPTION` (bash and zsh alike): sets REPLY to what the option's
 * value completes to, or to nothing for a flag.
 */
export function optvalFunction(nodes: NodeSpec[]): string[] {
  return [
    '_kairos_optval() {',
    '  case "$1|$2" in',
    ...optionCases(nodes).map(([keys, code]) => `    ${keys.map(shq).join('|')}) REPLY=${shq(code)} ;;`),
    '    *) REPLY= ;;',
    '  esac',
    '}',
  ];
}

/** The spellings of a command's options that may be given again: every other one is offered once. */
export const repeatable = (n: NodeSpec) => n.options.filter((o) => o.repeatable).flatMap((o) => o.names);
