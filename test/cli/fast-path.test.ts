import { PassThrough } from 'node:stream';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { idKindOf } from '../../src/cli/arg-kinds.js';
import type { ProgramContext } from '../../src/cli/command-runtime.js';
import { readPlainLine } from '../../src/cli/fast-path.js';
import { createProgram } from '../../src/cli/program.js';

// src/cli/fast-path.ts runs plain command lines without commander. Its promise: it only runs a
// line commander would run the same way. Each line here is read by both; commander's reading is
// taken at its preAction hook (the verb's action does not run), and they must agree on the
// arguments, the verb's options and the global ones. Lines it must leave to commander come after.

const ctx = (): ProgramContext => ({ streams: { stdout: new PassThrough(), stderr: new PassThrough(), stdin: new PassThrough() }, env: {} });

class Stop extends Error {}

/** What commander hands the verb: processed arguments (flattened as command-runtime.ts `lazy` does), opts, opts with globals. */
async function commanderReads(argv: string[]) {
  const program = await createProgram(ctx(), argv);
  let seen: { args: unknown[]; opts: Record<string, unknown>; all: Record<string, unknown>; argIds: unknown[] } | undefined;
  program.hook('preAction', (_root: Command, action: Command) => {
    const args = (action.processedArgs as (string | string[] | undefined)[]).flatMap((a) => (a === undefined ? [] : a));
    seen = { args, opts: { ...action.opts() }, all: { ...action.optsWithGlobals() }, argIds: action.registeredArguments.map(idKindOf) };
    throw new Stop();
  });
  await program.parseAsync(argv).catch((e) => {
    if (!(e instanceof Stop)) throw e;
  });
  return seen!;
}

const PLAIN = [
  ['--json', 'trace', 'pull', '--task', 'health'],
  ['trace', 'pull', '--task=health', '--limit', '5', '--all', '--include-expired', '--json', '-q'],
  ['--no-color', '--url', 'http://127.0.0.1:1', '--api-key', 'k', 'status'],
  ['--no-autostart', 'queue', '-s', 'all', '--task', 'dentist', '-v'],
  ['queue', '--status=executed'],
  ['trace', 'search', 'sleep', 'quality', '--mode', 'keyword', '--limit', '3'],
  ['trace', 'edit', 'tr_1', '--set', 'importance=5', '--set', 'tempo_tag=@morning', '--expected-version', '2'],
  ['trace', 'show', 'tr_1', '--json'],
  ['trace', 'push', '-'],
  ['trace', 'push'],
  ['cal', 'list', '--from', '2031-04-01', '--to', '2031-04-30'],
  ['user', 'profile'],
  ['keys', 'list'],
  ['reject', 'pl_1', '--reason', 'not now'],
  ['cal', 'week', '2026-12-07', '--week-start', 'sunday'],
];

describe('a plain line reads as commander reads it', () => {
  it.each(PLAIN.map((a) => [a.join(' '), a]))('kairos %s', async (_name, line) => {
    const argv = ['node', 'kairos', ...(line as string[])];
    const fast = await readPlainLine(ctx(), argv);
    expect(fast, 'the fast path reads this line').toBeDefined();
    const cmd = await commanderReads(argv);
    expect(fast!.args).toEqual(cmd.args);
    expect(fast!.opts).toEqual(cmd.opts);
    expect({ ...fast!.opts, ...fast!.globals }).toEqual(cmd.all);
    // The ids whose short prefixes are resolved (arg-kinds.ts), as the command tree declares them.
    expect(fast!.argIds).toEqual(cmd.argIds);
  });
});

const LEFT_TO_COMMANDER = [
  ['--help'],
  ['trace', 'pull', '--help'],
  ['trace', 'pull', '-h'],
  ['-V'],
  ['status', '--version'],
  ['help', 'trace'],
  ['trace', 'help', 'pull'],
  ['trace'],
  [],
  ['--json'],
  ['tracee', 'pull'],
  ['trace', 'pul'],
  ['trace', 'pull', '--bogus'],
  ['trace', 'pull', '--limit', '0'],
  ['trace', 'pull', '--task'],
  ['trace', 'pull', '--task', '-x'],
  ['trace', 'pull', '--all=yes'],
  ['trace', '--task', 'x', 'pull'],
  ['trace', 'pull', 'extra'],
  ['trace', 'show'],
  ['trace', 'show', 'a', 'b'],
  ['-qj', 'status'],
  ['--', 'status'],
  ['completion', 'bash'],
  // keys create declares an option with commander's own Option (addOption), which the reader does not model.
  ['keys', 'create', 'bot', '--mcp-config', 'claude'],
];

describe('lines left to commander', () => {
  it.each(LEFT_TO_COMMANDER.map((a) => [a.join(' ') || '(nothing)', a]))('kairos %s', async (_name, line) => {
    expect(await readPlainLine(ctx(), ['node', 'kairos', ...(line as string[])])).toBeUndefined();
  });
});

/** Every command of the tree that acts, with the path of names that reaches it. */
function leaves(cmd: Command, path: string[] = []): { path: string[]; cmd: Command }[] {
  const subs = cmd.commands.filter((c) => c.name() !== 'help');
  if (!subs.length) return path.length ? [{ path, cmd }] : [];
  return subs.flatMap((c) => leaves(c, [...path, c.name()]));
}

/** A line that uses every flag of a command once (a value where it takes one), after its required arguments. */
function fullLine(path: string[], cmd: Command): string[] {
  const args = cmd.registeredArguments.filter((a) => a.required).map(() => 'x1');
  const flags = cmd.options.flatMap((o) => (o.required || o.optional ? [o.long!, o.long === '--limit' ? '3' : 'x1'] : [o.long!]));
  return [...path, ...args, ...flags];
}

describe('the fast path reads only what commander reads the same way', () => {
  it('agrees with commander on a line using every flag of every command it reads, and reads most commands', async () => {
    const tree = await createProgram(ctx());
    let read = 0;
    const all = leaves(tree).filter((l) => l.path[0] !== 'completion');
    for (const { path, cmd } of all) {
      const argv = ['node', 'kairos', ...fullLine(path, cmd)];
      const fast = await readPlainLine(ctx(), argv);
      if (!fast) continue;
      read++;
      // A line the fast path runs is one commander runs too, with the same reading.
      const seen = await commanderReads(argv).catch((e: Error) => e);
      expect(seen, `kairos ${argv.slice(2).join(' ')}`).not.toBeInstanceOf(Error);
      const cmdRead = seen as Awaited<ReturnType<typeof commanderReads>>;
      expect(fast.args, argv.join(' ')).toEqual(cmdRead.args);
      expect(fast.opts, argv.join(' ')).toEqual(cmdRead.opts);
    }
    // The fast path is only worth its code while it reads most commands: a declaration using
    // commander calls the reader does not model drops its command from the fast path.
    expect(read / all.length).toBeGreaterThan(0.5);
  });
});
