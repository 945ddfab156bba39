import { Chalk, type ChalkInstance } from 'chalk';

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
 * The only code that writes to the terminal. stdout is for data; hints go to stderr, and only on a
 * TTY. Colour is decided once: off for NO_COLOR, --no-color or a non-TTY stdout.
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

  get interactive(): boolean {
    return Boolean(this.streams.stdin.isTTY && this.streams.stdout.isTTY);
  }

  /** Data for stdout: JSON with --json, else the readable form. */
  data(value: unknown, readable?: () => string): void {
    if (this.json || !readable) this.streams.stdout.write(JSON.stringify(value, null, this.stdoutIsTTY ? 2 : 0) + '\n');
    else {
      const text = readable();
      if (text) this.streams.stdout.write(text.endsWith('\n') ? text : text + '\n');
    }
  }

  /** A line of text that is the command's output (not a hint). */
  line(text: string): void {
    this.streams.stdout.write(text + '\n');
  }

  /** A hint or progress note: stderr, never with -q. */
  note(text: string): void {
    if (!this.quiet) this.streams.stderr.write(text + '\n');
  }

  /** A hint that only makes sense to a person at a terminal. */
  hint(text: string): void {
    if (!this.quiet && this.streams.stderr.isTTY) this.streams.stderr.write(this.chalk.dim(text) + '\n');
  }

  error(text: string): void {
    this.streams.stderr.write(text + '\n');
  }
}
