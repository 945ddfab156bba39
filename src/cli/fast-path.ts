import type { Command } from 'commander';
import { idKind, isKinded } from './arg-kinds.js';
import { type GlobalOptions, lazyActions, type ProgramContext, runVerb, type VerbRunner } from './command-runtime.js';
import type { IdKind } from './input/resolve-id.js';
import { COMMANDS, globalOptions } from './program.js';

/**
 * The fast path of a command line: the named noun's declarations are read by a small reader of
 * the few commander calls they make (command, option, argument, action…), and a line that uses
 * them plainly is parsed here and run, without loading commander (a third of a short command's
 * start-up). Anything else (help, a version, a typo, `--`, a bundled `-qv`, a missing or extra
 * argument, a value that looks like a flag, a flag the reader does not know, a parser that
 * refuses its value, a declaration using other commander calls) is left to commander, which
 * parses it as always and says what is wrong: this path only ever runs lines commander would
 * run the same way.
 */

interface OptionDecl {
  short?: string;
  long: string;
  /** The opts() key: `--include-expired` → includeExpired, `--no-color` → color. */
  key: string;
  takesValue: boolean;
  negate: boolean;
  required: boolean;
  parse?: (value: string, previous: unknown) => unknown;
  initial?: unknown;
}

interface ArgumentDecl {
  required: boolean;
  variadic: boolean;
  parse?: (value: string, previous: unknown) => unknown;
  initial?: unknown;
}

/** Thrown for anything the reader does not handle: the line goes to commander. */
class Unsupported extends Error {}

const camel = (s: string) => s.replace(/-([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

/** The declaring side of commander's Command, for the calls noun declarations make; any other throws. */
class Declaration {
  readonly options: OptionDecl[] = [];
  readonly args: ArgumentDecl[] = [];
  /** The id kind of each argument declared with arg-kinds.ts (its short prefixes are resolved). */
  readonly argIds: (IdKind | undefined)[] = [];
  readonly subcommands = new Map<string, Declaration>();
  action_?: (...a: unknown[]) => Promise<void>;
  /** A declaration the reader does not model (a line that reaches it goes to commander). */
  unsupported = false;

  command(nameAndArgs: string): Declaration {
    const [name, ...args] = nameAndArgs.trim().split(/ +/);
    const sub = new Declaration();
    for (const a of args) sub.argument(a);
    this.subcommands.set(name!, sub);
    return sub;
  }

  description(): this {
    return this;
  }

  addHelpText(): this {
    return this;
  }

  option(flags: string, _description?: string, parseOrInitial?: unknown, initial?: unknown): this {
    return this.addOptionDecl(flags, false, parseOrInitial, initial);
  }

  requiredOption(flags: string, _description?: string, parseOrInitial?: unknown, initial?: unknown): this {
    return this.addOptionDecl(flags, true, parseOrInitial, initial);
  }

  argument(name: string, _description?: string, parse?: unknown, initial?: unknown): this {
    const m = /^([<[])[^.>\]]+(\.\.\.)?[>\]]$/.exec(name);
    if (!m || (parse !== undefined && typeof parse !== 'function')) {
      this.unsupported = true;
      return this;
    }
    this.args.push({ required: m[1] === '<', variadic: Boolean(m[2]), parse: parse as ArgumentDecl['parse'], initial });
    this.argIds.push(undefined);
    return this;
  }

  /** Only the declarations of arg-kinds.ts (`arg`, `opt`); commander's own objects go to commander. */
  addArgument(a: unknown): this {
    if (!isKinded(a)) {
      this.unsupported = true;
      return this;
    }
    this.argument(a.spec, a.description);
    this.argIds[this.argIds.length - 1] = idKind(a.kind);
    return this;
  }

  addOption(o: unknown): this {
    if (!isKinded(o)) {
      this.unsupported = true;
      return this;
    }
    return this.option(o.spec, o.description);
  }

  action(fn: (...a: unknown[]) => Promise<void>): this {
    this.action_ = fn;
    return this;
  }

  private addOptionDecl(flags: string, required: boolean, parseOrInitial: unknown, initial: unknown): this {
    // The forms the declarations use: "-s, --status <status>", "--all", "--no-color".
    const m = /^(?:-([a-zA-Z]), ?)?--([a-z][a-z0-9-]*)(?: <[^>.]+>)?$/.exec(flags);
    if (!m) {
      this.unsupported = true;
      return this;
    }
    const long = m[2]!;
    const negate = long.startsWith('no-');
    const parse = typeof parseOrInitial === 'function' ? (parseOrInitial as OptionDecl['parse']) : undefined;
    this.options.push({
      short: m[1],
      long,
      key: camel(negate ? long.slice(3) : long),
      takesValue: flags.includes('<'),
      negate,
      required,
      parse,
      // commander: a `--no-x` alone makes x true unless given.
      initial: parse ? initial : (parseOrInitial ?? (negate ? true : undefined)),
    });
    return this;
  }
}

/** Parse one option at `tokens[i]` (its value inline after `=` or the next token) into `into`. */
function takeOption(decl: OptionDecl, tokens: string[], i: number, inline: string | undefined, into: Record<string, unknown>): number {
  if (!decl.takesValue) {
    if (inline !== undefined) throw new Unsupported(tokens[i]);
    into[decl.key] = !decl.negate;
    return i;
  }
  let value = inline;
  if (value === undefined) value = tokens[++i];
  // Missing, or a value that looks like a flag: commander's reading of it is left to commander.
  if (value === undefined || (inline === undefined && value.startsWith('-'))) throw new Unsupported(decl.long);
  try {
    into[decl.key] = decl.parse ? decl.parse(value, into[decl.key]) : value;
  } catch {
    // The parser refuses the value: commander reports it the way it always does.
    throw new Unsupported(decl.long);
  }
  return i;
}

function findOption(decls: OptionDecl[], token: string): { decl: OptionDecl; inline?: string } | undefined {
  if (token.startsWith('--')) {
    const eq = token.indexOf('=');
    const name = eq < 0 ? token.slice(2) : token.slice(2, eq);
    const decl = decls.find((d) => d.long === name);
    return decl && { decl, inline: eq < 0 ? undefined : token.slice(eq + 1) };
  }
  const decl = token.length === 2 ? decls.find((d) => d.short === token[1]) : undefined;
  return decl && { decl };
}

const initialValues = (decls: OptionDecl[]) => Object.fromEntries(decls.filter((d) => d.initial !== undefined).map((d) => [d.key, d.initial]));

/** The positional values as commander hands them to an action: one per declared argument. */
function argumentValues(decls: ArgumentDecl[], operands: string[]): unknown[] {
  const last = decls.at(-1);
  if (operands.length > decls.length && !last?.variadic) throw new Unsupported('too many arguments');
  return decls.map((d, i) => {
    const given = d.variadic ? operands.slice(i) : operands[i];
    if (given === undefined || (Array.isArray(given) && !given.length)) {
      if (d.required) throw new Unsupported('missing argument');
      return d.initial;
    }
    if (!d.parse) return given;
    try {
      if (Array.isArray(given)) return given.reduce<unknown>((prev, v) => d.parse!(v, prev), d.initial);
      return d.parse(given, d.initial);
    } catch {
      // Refused: commander calls the parser again and reports it as always.
      throw new Unsupported('argument');
    }
  });
}

/** A command line as commander would hand it to the verb's action. */
export interface PlainLine {
  verb: VerbRunner;
  args: string[];
  opts: Record<string, unknown>;
  globals: GlobalOptions;
  argIds: (IdKind | undefined)[];
}

/**
 * A plain command line read without commander, or undefined when commander must parse it (see
 * the top of this file). The noun's declarations are loaded either way.
 */
export async function readPlainLine(ctx: ProgramContext, argv: string[]): Promise<PlainLine | undefined> {
  const tokens = argv.slice(2);
  try {
    const program = new Declaration();
    globalOptions(program);
    const globals: Record<string, unknown> = initialValues(program.options);
    let node: Declaration = program;
    let leafOpts: Record<string, unknown> | undefined;
    const operands: string[] = [];
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i]!;
      if (t.startsWith('-') && t !== '-') {
        const global = findOption(program.options, t);
        // A verb's flag is only read after the verb (commander hands flags before it to the noun).
        const own = leafOpts ? findOption(node.options, t) : undefined;
        if (global && own) throw new Unsupported(t);
        const found = global ?? own;
        if (!found) throw new Unsupported(t);
        i = takeOption(found.decl, tokens, i, found.inline, global ? globals : leafOpts!);
        continue;
      }
      if (leafOpts) {
        operands.push(t);
        continue;
      }
      // The noun, then its verbs down to a command that acts.
      if (node === program) {
        if (!Object.hasOwn(COMMANDS, t) || t === 'completion') return undefined;
        (await COMMANDS[t]!())(program as unknown as Command, ctx);
      }
      const next = node.subcommands.get(t);
      if (!next) throw new Unsupported(t);
      node = next;
      if (node.unsupported) return undefined;
      if (!node.subcommands.size) leafOpts = initialValues(node.options);
    }
    if (!leafOpts) return undefined;
    const action = node.action_;
    const verb = action && lazyActions.get(action);
    if (!verb) return undefined;
    for (const d of node.options) if (d.required && leafOpts[d.key] === undefined) return undefined;
    const args = (argumentValues(node.args, operands) as (string | string[] | undefined)[]).flatMap((a) => (a === undefined ? [] : a));
    return { verb, args, opts: leafOpts, globals: globals as GlobalOptions, argIds: node.argIds };
  } catch (e) {
    if (e instanceof Unsupported || e instanceof TypeError) return undefined;
    throw e;
  }
}

/** The run of a plain command line without commander, or undefined when commander must parse it. */
export async function fastCommand(ctx: ProgramContext, argv: string[]): Promise<(() => Promise<void>) | undefined> {
  const line = await readPlainLine(ctx, argv);
  return line && (() => runVerb(ctx, line.verb, line));
}
