import { Chalk, type ChalkInstance } from 'chalk';
import { table, tsv } from './table.js';
import { clip } from './text.js';

export interface Streams {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
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
 * off for NO_COLOR, --no-color or a non-TTY stdout.
 */
export class IO {
  readonly chalk: ChalkInstance;
  readonly json: boolean;
  readonly quiet: boolean;

  constructor(
    readonly streams: Streams,
    flags: OutputFlags,
    env: NodeJS.ProcessEnv,
  ) {
    this.json = Boolean(flags.json);
    this.quiet = Boolean(flags.quiet);
    const color = flags.color !== false && !('NO_COLOR' in env && env.NO_COLOR !== '') && Boolean(streams.stdout.isTTY) && env.TERM !== 'dumb';
    this.chalk = new Chalk({ level: color ? 1 : 0 });
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
    if (this.json || !readable) this.streams.stdout.write(JSON.stringify(value, null, this.stdoutIsTTY ? 2 : 0) + '\n');
    else {
      const text = readable();
      if (text) this.streams.stdout.write(text.endsWith('\n') ? text : text + '\n');
    }
  }

  /** Rows as an aligned table with a header on a terminal; tab-separated, no header, on a pipe. */
  table(headers: string[], rows: (string | number | null | undefined)[][]): string {
    return this.plain ? tsv(rows) : table(headers, rows);
  }

  /** A text on one line: cut to `n` characters on a terminal, whole on a pipe. */
  clip(text: string, n: number): string {
    return this.plain ? text.replace(/\s+/g, ' ').trim() : clip(text, n);
  }

  /** A line of text that is the command's output (not a hint). */
  line(text: string): void {
    this.streams.stdout.write(text + '\n');
  }

  /** A warning or a notice of a side effect (a daemon started): stderr, never with -q. */
  note(text: string): void {
    if (!this.quiet) this.streams.stderr.write(text + '\n');
  }

  /** A hint or progress that only makes sense to a person at a terminal: stderr when it is a TTY. */
  hint(text: string): void {
    if (!this.quiet && this.streams.stderr.isTTY) this.streams.stderr.write(this.chalk.dim(text) + '\n');
  }

  error(text: string): void {
    this.streams.stderr.write(text + '\n');
  }
}
