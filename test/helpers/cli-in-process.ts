import { Readable, Writable } from 'node:stream';
import { main } from '../../src/cli/main.js';
import type { Streams } from '../../src/cli/output/io.js';
import { cleanEnv } from './daemon.js';
import type { TestApp } from './in-process.js';

/** What a run of the CLI answers: its exit code and what it wrote, as `runCli`'s spawned run does. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

const sink = (take: (s: string) => void) =>
  new Writable({
    write(chunk, _enc, done) {
      take(String(chunk));
      done();
    },
  });

/**
 * `kairos ARGS` run by the CLI's own `main()` in the test's process, with its streams captured and
 * not a terminal: the commands, their parsing and their output as a person gets them, without a
 * process per call. Where the process itself is under test (exit on a signal, auto-start, the
 * installed bin), a test spawns `bin/kairos.js` with `runCli` instead.
 */
export async function runCliInProcess(args: string[], opts: { env?: Record<string, string | undefined>; input?: string } = {}): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const streams: Streams = {
    stdout: sink((s) => (stdout += s)),
    stderr: sink((s) => (stderr += s)),
    stdin: Readable.from(opts.input ? [opts.input] : []),
  };
  const code = await main([process.execPath, 'kairos', ...args], streams, cleanEnv(opts.env));
  return { code, stdout, stderr };
}

/** The environment that points the CLI at an in-process app (explicit URL and key: no auto-start). */
export const appCliEnv = (app: TestApp, extra: Record<string, string | undefined> = {}) => ({
  KAIROS_HOME: app.home,
  KAIROS_URL: app.base,
  KAIROS_API_KEY: app.key,
  ...extra,
});
