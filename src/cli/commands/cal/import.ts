import type { EndpointResponse } from '../../../contracts/endpoints.js';
import type { CliDeps, RunInput } from '../../command-runtime.js';
import { readInput } from '../../input/read-input.js';

function summary(r: EndpointResponse<'POST /calendar/import'>, name: string): string {
  const lines = [`Imported ${name}: ${r.imported} new, ${r.updated} updated, ${r.skipped} unchanged or not events, ${r.errors.length} error(s)`];
  const where = (p: { uid?: string; line?: number }) => [p.line !== undefined ? `line ${p.line}` : '', p.uid ? `UID ${p.uid}` : ''].filter(Boolean).join(', ');
  for (const e of r.errors) lines.push(`  error  ${where(e)}: ${e.message}`);
  if (r.warnings.length)
    lines.push(`  ${r.warnings.length} warning(s) (--json shows them all), e.g. ${where(r.warnings[0]!) || 'file'}: ${r.warnings[0]!.message}`);
  return lines.join('\n');
}

export async function run({ args }: RunInput, deps: CliDeps): Promise<void> {
  const { text, name } = await readInput(args[0], deps);
  const kb = Math.ceil(Buffer.byteLength(text) / 1024);
  const client = await deps.client();
  // A big file takes a moment on the daemon: say so on a terminal, with a ticking counter.
  let timer: NodeJS.Timeout | undefined;
  if (deps.streams.stderr.isTTY && !deps.io.quiet) {
    const started = Date.now();
    const tick = () => deps.streams.stderr.write(`\rkairos: importing ${name} (${kb} KB)… ${((Date.now() - started) / 1000).toFixed(1)} s`);
    tick();
    timer = setInterval(tick, 200);
  }
  let report: EndpointResponse<'POST /calendar/import'>;
  try {
    report = await client.call('POST /calendar/import', { query: { name }, raw: { text, type: 'text/calendar; charset=utf-8' } });
  } finally {
    if (timer) {
      clearInterval(timer);
      deps.streams.stderr.write('\r\x1b[K');
    }
  }
  deps.io.data(report, () => summary(report, name));
  if (report.import_id) deps.io.hint(`take it back: kairos undo ${report.import_id} (or kairos cal rm-many --import ${report.import_id})`);
  if (report.errors.length) deps.exitCode = 1;
}
