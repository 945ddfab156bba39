import { writeFile } from 'node:fs/promises';
import { type CliDeps, type RunInput, usage } from '../../command-runtime.js';
import { parseWhen } from '../../input/when.js';
import { forTerminal } from '../../output/terminal-text.js';

export async function run({ opts }: RunInput<{ from?: string; to?: string; tag?: string; output?: string }>, deps: CliDeps): Promise<void> {
  const client = await deps.client();
  const zone = opts.from || opts.to ? await deps.userZone() : 'UTC';
  const now = new Date();
  const query = {
    start: opts.from ? parseWhen(opts.from, zone, now, '--from') : undefined,
    end: opts.to ? parseWhen(opts.to, zone, now, '--to') : undefined,
    tag: opts.tag,
  };
  if (opts.output && opts.output !== '-') deps.io.hint(`kairos: exporting to ${opts.output}…`);
  const text = await client.call('GET /calendar/export.ics', { query, headers: { accept: 'text/calendar' } });
  const count = (text.match(/^BEGIN:VEVENT\r?$/gm) ?? []).length;
  if (!opts.output || opts.output === '-') {
    // The file as it is on a pipe; on a terminal its titles are shown, not obeyed.
    deps.streams.stdout.write(deps.io.plain ? text : forTerminal(text));
    return;
  }
  try {
    await writeFile(opts.output, text);
  } catch (e) {
    throw usage(`Cannot write ${opts.output}: ${(e as Error).message}`);
  }
  deps.io.data({ file: opts.output, events: count, bytes: Buffer.byteLength(text) }, () => `Wrote ${count} event(s) to ${opts.output}`);
}
