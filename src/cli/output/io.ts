import type { ChalkInstance } from 'chalk';
import { shortIds } from '../input/resolve-id.js';
import { plainChalk } from './plain-chalk.js';
import { table, tsv } from './table.js';
import { forTerminal, markedChalk } from './terminal-text.js';
import { clip } from './text.js';

export interface Streams {
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
}

export interface OutputFlags {
  json?: boolean;
  color?: boolean;
  quiet?: boolean;
}

/**
 * The only code that writes to the terminal, with gh's one rule for pipes: stdout carries the same
 * human output on a terminal and on a pipe (on a pipe: no colour, tables tab-separated without a
 * header, nothing cut or wrapped), and JSON only with --json. Hints and progress go to stderr only
 * when stderr is a terminal; warnings go to stderr always (not with -q). Colour is decided once:
 * off for NO_COLOR, --no-color or a non-TTY stdout. Human text leaves through `forTerminal`: what
 * came from outside cannot steer the terminal (terminal-text.ts).
 */
export class IO {
  readonly chalk: ChalkInstance;
  readonly json: boolean;
  readonly quiet: boolean;
  private readonly env: NodeJS.ProcessEnv;

  /** The IO of a command: chalk is imported only when there is colour to show. */
  static async create(streams: Streams, flags: OutputFlags, env: NodeJS.ProcessEnv): Promise<IO> {
    if (!IO.wantsColor(streams, flags, env)) return new IO(streams, flags, env);
    const { Chalk } = await import('chalk');
    return new IO(streams, flags, env, new Chalk({ level: 1 }));
  }

  private static wantsColor(streams: Streams, flags: OutputFlags, env: NodeJS.ProcessEnv): boolean {
    return flags.color !== false && !('NO_COLOR' in env && env.NO_COLOR !== '') && Boolean(streams.stdout.isTTY) && env.TERM !== 'dumb';
  }

  /** `colorChalk` is used when colour is on (see create); without it the output has none. */
  constructor(
    readonly streams: Streams,
    flags: OutputFlags,
    env: NodeJS.ProcessEnv,
    colorChalk?: ChalkInstance,
  ) {
    this.json = Boolean(flags.json);
    this.quiet = Boolean(flags.quiet);
    this.env = env;
    this.chalk = colorChalk && IO.wantsColor(streams, flags, env) ? markedChalk(colorChalk) : plainChalk;
  }

  get stdoutIsTTY(): boolean {
    return Boolean(this.streams.stdout.isTTY);
  }

  /** stdout is a pipe or a file: print for programs (tab-separated, whole values, no colour). */
  get plain(): boolean {
    return !this.stdoutIsTTY;
  }

  get interactive(): boolean {
    return Boolean(this.streams.stdin.isTTY && this.streams.stdout.isTTY);
  }

  /**
   * Data for stdout: JSON with --json, else the readable form (the same on a pipe; only a value
   * with no readable form is printed as JSON).
   */
  data(value: unknown, readable?: () => string): void {
    if (this.json || !readable) {
      const json = JSON.stringify(value, null, this.stdoutIsTTY ? 2 : 0) + '\n';
      // --json is exact; JSON shown for want of a readable form is human output like the rest.
      if (this.json) this.streams.stdout.write(json);
      else this.write(this.streams.stdout, json);
    } else {
      const text = readable();
      if (text) this.write(this.streams.stdout, text.endsWith('\n') ? text : text + '\n');
    }
  }

  /** Rows as an aligned table with a header on a terminal; tab-separated, no header, on a pipe. */
  table(headers: string[], rows: (string | number | null | undefined)[][]): string {
    return this.plain ? tsv(rows) : table(headers, rows, this.width);
  }

  /** The terminal's width in columns (the pseudo-terminal's, else $COLUMNS), when stdout is one. */
  get width(): number | undefined {
    if (this.plain) return undefined;
    return this.streams.stdout.columns || Number(this.env.COLUMNS) || undefined;
  }

  /**
   * How a listing shows the ids in it: on a terminal the shortest unique prefix (git-like, any
   * command takes it back), on a pipe whole, so a script keeps what it reads.
   */
  ids(ids: readonly string[]): (id: string) => string {
    if (this.plain) return (id) => id;
    const short = shortIds(ids);
    return (id) => short.get(id) ?? id;
  }

  /** A text on one line: cut to `n` characters on a terminal, whole on a pipe. */
  clip(text: string, n: number): string {
    return this.plain ? text.replace(/\s+/g, ' ').trim() : clip(text, n);
  }

  /** A line of JSON with --json (one event, one log line): written exactly as it is. */
  jsonLine(text: string): void {
    this.streams.stdout.write(text + '\n');
  }

  /** A line of text that is the command's output (not a hint). */
  line(text: string): void {
    this.write(this.streams.stdout, text + '\n');
  }

  /** A warning or a notice of a side effect (a daemon started): stderr, never with -q. */
  note(text: string): void {
    if (!this.quiet) this.write(this.streams.stderr, text + '\n');
  }

  /** A hint or progress that only makes sense to a person at a terminal: stderr when it is a TTY. */
  hint(text: string): void {
    if (!this.quiet && this.streams.stderr.isTTY) this.write(this.streams.stderr, this.chalk.dim(text) + '\n');
  }

  error(text: string): void {
    this.write(this.streams.stderr, text + '\n');
  }

  /** The one place human text leaves for the terminal (JSON leaves exact, in `data`). */
  private write(stream: NodeJS.WritableStream, text: string): void {
    stream.write(forTerminal(text));
  }
}
