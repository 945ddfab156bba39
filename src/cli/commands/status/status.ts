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
      `  store    ${s.store.traces} traces · ${s.store.events} events · ${s.store.plans} plans · ${(s.store.bytes / 1024).toFixed(1)} KiB`,
      ...(s.model ? [`  model    ${formatModel(s.model)}`] : []),
    ].join('\n'),
  );
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
