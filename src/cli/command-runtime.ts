import type { Command } from 'commander';
import type { ApiClient } from '../client/http.js';
import { AppError } from '../errors.js';
import { idKindOf } from './arg-kinds.js';
import type { IdKind } from './input/resolve-id.js';
import type { IO, Streams } from './output/io.js';

export interface GlobalOptions {
  json?: boolean;
  url?: string;
  apiKey?: string;
  color?: boolean;
  quiet?: boolean;
  autostart?: boolean;
}

/** What every command gets: output, environment and a lazily connected API client. */
export interface CliDeps {
  io: IO;
  env: NodeJS.ProcessEnv;
  streams: Streams;
  globals: GlobalOptions;
  client(): Promise<ApiClient>;
  /** The user's IANA time zone (from the profile, fetched once): times are shown in it. */
  userZone(): Promise<string>;
  /** Set by a command that ends with a non-zero code without throwing. */
  exitCode: number;
  /** The whole command tree this command runs in (what completion scripts are made from). */
  program?: Command;
}

export interface RunInput<O = Record<string, unknown>> {
  args: string[];
  opts: O;
}

export type CommandModule<O = Record<string, unknown>> = { run(input: RunInput<O>, deps: CliDeps): Promise<void> };

export interface ProgramContext {
  streams: Streams;
  env: NodeJS.ProcessEnv;
  /** Filled in by the action that ran, so main() can read its exit code. */
  ran?: CliDeps;
}

/** Builds a command's dependencies; output (and chalk) load only once a command runs, not for --help. */
export async function makeDeps(ctx: ProgramContext, globals: GlobalOptions): Promise<CliDeps> {
  const { IO } = await import('./output/io.js');
  const io = await IO.create(ctx.streams, { json: globals.json, color: globals.color, quiet: globals.quiet }, ctx.env);
  let client: Promise<ApiClient> | undefined;
  let zone: Promise<string> | undefined;
  const deps: CliDeps = {
    io,
    env: ctx.env,
    streams: ctx.streams,
    globals,
    exitCode: 0,
    client: () =>
      (client ??= import('../client/connect.js').then(({ connect }) =>
        connect({
          env: ctx.env,
          url: globals.url,
          apiKey: globals.apiKey,
          autostart: globals.autostart !== false && !ctx.env.KAIROS_URL,
          note: (l) => io.note(l),
        }),
      )),
    userZone: () =>
      (zone ??= deps
        .client()
        .then((c) => c.call('GET /user/profile'))
        .then((p) => p.timezone || 'UTC')),
  };
  return deps;
}

/** How a verb runs: its implementation's loader and what its arguments are. */
export interface VerbRunner<O = Record<string, unknown>> {
  load: () => Promise<CommandModule<O>>;
}

/** The actions made by `lazy`, with how to run them without commander (see fast-path.ts). */
export const lazyActions = new WeakMap<(...a: unknown[]) => Promise<void>, VerbRunner>();

/**
 * Run a verb: build its dependencies, load its implementation, resolve id prefixes, run it.
 * `program` is the command tree when commander parsed the line (completion needs it).
 */
export async function runVerb<O>(
  ctx: ProgramContext,
  verb: VerbRunner<O>,
  input: RunInput<O> & { globals: GlobalOptions; program?: Command; argIds?: readonly (IdKind | undefined)[] },
): Promise<void> {
  const { args } = input;
  const deps = await makeDeps(ctx, input.globals);
  deps.program = input.program;
  ctx.ran = deps;
  const mod = await verb.load();
  // The id kind of each value: its argument's (arg-kinds.ts); a variadic last argument's for the rest.
  const declared = input.argIds ?? [];
  const kinds = args.map((_, i) => declared[Math.min(i, declared.length - 1)]);
  if (kinds.some(Boolean)) {
    const [{ resolveId }, client] = await Promise.all([import('./input/resolve-id.js'), deps.client()]);
    for (let i = 0; i < args.length; i++) if (kinds[i]) args[i] = await resolveId(client, kinds[i]!, args[i]!);
  }
  await mod.run({ args, opts: input.opts }, deps);
}

/**
 * The commander action of a verb: its implementation is imported only when it runs, so `--help`
 * and completion stay fast. An argument declared as an id (arg-kinds.ts `arg(…, { id })`) may be
 * given as any unique prefix (git-like): it reaches the command whole.
 */
export function lazy<O>(ctx: ProgramContext, load: () => Promise<CommandModule<O>>) {
  const verb: VerbRunner<O> = { load };
  const action = async (...cmdArgs: unknown[]) => {
    const cmd = cmdArgs.at(-1) as Command;
    const args = (cmdArgs.slice(0, -2) as (string | string[] | undefined)[]).flatMap((a) => (a === undefined ? [] : a));
    let root = cmd;
    while (root.parent) root = root.parent;
    await runVerb(ctx, verb, {
      args,
      opts: cmd.opts() as O,
      globals: cmd.optsWithGlobals() as GlobalOptions,
      program: root,
      argIds: cmd.registeredArguments.map(idKindOf),
    });
  };
  lazyActions.set(action, verb as VerbRunner);
  return action;
}

export const usage = (message: string) => new AppError(400, 'usage', message);

/** commander option parsers that fail as usage errors. */
export function intArg(name: string, min = 0) {
  return (v: string) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < min) throw usage(`${name} must be an integer ≥ ${min}, not "${v}".`);
    return n;
  };
}

/** Collect repeated `--set key=value` options. */
export function collect(v: string, prev: string[] = []): string[] {
  return [...prev, v];
}
