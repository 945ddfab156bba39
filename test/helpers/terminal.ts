import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { BIN, cleanEnv } from './daemon.js';

/** util-linux `script`, which gives a command a pseudo-terminal; tests that need one skip without it. */
export const hasScript = spawnSync('script', ['--version']).status === 0;

export const KEY = { down: '\x1b[B', enter: '\r', backspace: '\x7f', ctrlC: '\x03' };
export const strip = (s: string) => s.replace(/\x1b\[[0-9;?]*[a-zA-Z]/g, '');

/** A command in a pseudo-terminal (stdin, stdout and stderr all TTYs), as a person runs it: wait for text on screen, then type. */
export class Terminal {
  private out = '';
  private rawOut = '';
  private mark = 0;
  readonly exited: Promise<number | null>;
  private readonly child: ChildProcess;

  constructor(args: string[], env: Record<string, string | undefined>) {
    const cmd = [process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    this.child = spawn('script', ['-qfec', cmd, '/dev/null'], {
      env: cleanEnv({ TZ: 'UTC', COLUMNS: '160', LINES: '50', ...env }),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    // Decoded as a stream: a character split between two chunks must not become two U+FFFDs.
    this.child.stdout!.setEncoding('utf8');
    this.child.stderr!.setEncoding('utf8');
    this.child.stdout!.on('data', (c) => {
      this.out += strip(String(c));
      this.rawOut += String(c);
    });
    this.child.stderr!.on('data', (c) => (this.out += strip(String(c))));
    this.exited = new Promise((r) => this.child.once('exit', (code) => r(code)));
  }

  get screen(): string {
    return this.out;
  }

  /** What the command wrote, escape sequences (cursor moves, erases) included. */
  get raw(): string {
    return this.rawOut;
  }

  /** Wait until `text` appears after what was already waited for. */
  async see(text: string | RegExp, ms = 10_000): Promise<void> {
    const until = Date.now() + ms;
    for (;;) {
      const rest = this.out.slice(this.mark);
      const i = typeof text === 'string' ? rest.indexOf(text) : rest.search(text);
      if (i >= 0) {
        this.mark += i + 1;
        return;
      }
      if (Date.now() > until) throw new Error(`never saw ${String(text)}; screen:\n${this.out.slice(-3000)}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  async type(...keys: string[]): Promise<void> {
    for (const k of keys) {
      this.child.stdin!.write(k);
      await new Promise((r) => setTimeout(r, 60));
    }
  }

  /** Pick the n-th choice (0-based) of the select prompt on screen. */
  async choose(n: number): Promise<void> {
    await this.type(...Array<string>(n).fill(KEY.down), KEY.enter);
  }

  kill(): void {
    this.child.kill('SIGKILL');
  }
}
