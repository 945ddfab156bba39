import { spawn } from 'node:child_process';
import type { CliDeps, RunInput } from '../../command-runtime.js';

interface OpenOptions {
  printUrl?: boolean;
}

/** The system's command that opens a URL in the default browser. */
function opener(url: string): [string, string[]] {
  if (process.platform === 'darwin') return ['open', [url]];
  if (process.platform === 'win32') return ['cmd', ['/c', 'start', '""', url]];
  return ['xdg-open', [url]];
}

/** Whether the opener started and did not fail at once; it is left running (browsers may not return). */
function launch(url: string): Promise<boolean> {
  const [cmd, args] = opener(url);
  return new Promise((ok) => {
    const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
    const timer = setTimeout(() => {
      child.unref();
      ok(true);
    }, 3_000);
    child.once('error', () => {
      clearTimeout(timer);
      ok(false);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      ok(code === 0);
    });
  });
}

/**
 * `kairos open`: a one-time sign-in link for the web page, opened in the browser. The code in the
 * link's fragment works once, for a minute; the page trades it for an HttpOnly session cookie.
 */
export async function run({ opts }: RunInput<OpenOptions>, deps: CliDeps): Promise<void> {
  const client = await deps.client();
  const link = await client.call('POST /app/codes', {});
  const io = deps.io;
  if (opts.printUrl) return io.data(link, () => link.url);
  if (await launch(link.url)) return io.data(link, () => 'Opened the web page in your browser (the link works once, for 60 s).');
  io.data(link, () => `No browser could be started here; open this link yourself (it works once, for 60 s):\n${link.url}`);
}
