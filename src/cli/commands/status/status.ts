import type { ModelStatus } from '../../../contracts/status.js';
import type { CliDeps, RunInput } from '../../command-runtime.js';

export async function run(_input: RunInput, deps: CliDeps): Promise<void> {
  const client = await deps.client();
  const s = await client.call('GET /agent/status');
  const c = deps.io.chalk;
  deps.io.data(s, () =>
    [
      `${c.green('●')} kairos ${s.version} at ${client.baseUrl}, up ${formatUptime(s.uptime_s)}`,
      `  queue    ${s.queue.proposed} proposed · ${s.queue.approved} approved · ${s.queue.executed} executed · ${s.queue.edited} edited · ${s.queue.rejected} rejected`,
      `  planner  ${s.planner.provider}${s.planner.model ? ` (${s.planner.model})` : ''}`,
      `  store    ${count(s.store.traces)} traces · ${count(s.store.events)} events · ${count(s.store.plans)} plans · ${formatBytes(s.store.bytes)}`,
      ...(s.model ? [`  model    ${formatModel(s.model)}`] : []),
    ].join('\n'),
  );
}

const count = (n: number) => n.toLocaleString('en-US');

/** A size in the unit that keeps it short: 812.4 KiB, 131.2 MiB, 1.2 GiB. */
export function formatBytes(bytes: number): string {
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = bytes / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v.toFixed(1)} ${units[u]}`;
}

function formatUptime(s: number): string {
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** The built-in embedding model: ready, or what is being prepared and how far (first start without its files). */
export function formatModel(m: ModelStatus): string {
  if (m.state === 'ready') return m.detail ? `ready (${m.detail})` : 'ready';
  if (m.state === 'unavailable') return `unavailable: ${m.detail ?? 'unknown reason'} (keyword search only)`;
  const pct = m.progress !== null ? ` ${Math.floor(m.progress * 100)}%` : '';
  // The step is what is being made ("word vectors"), or "loading" when the files are there.
  const doing = !m.step || m.step === 'loading' ? 'loading' : `preparing ${m.step}`;
  return `${doing}${pct} (semantic search is partial until it ends)`;
}
