import { openLiveSocket } from '../../../client/live-socket.js';
import { AppError } from '../../../errors.js';
import { type CliDeps, type RunInput, usage } from '../../command-runtime.js';
import { when } from '../../output/time.js';

const TOPICS = ['plans', 'traces', 'events'];

interface LiveMessage {
  id: string;
  type: string;
  at: string;
  data: Record<string, unknown>;
  error?: { code: string; message: string };
}

/** One readable line per live event. */
function line(m: LiveMessage, tz: string): string {
  const d = m.data ?? {};
  const time = when(m.at, tz).slice(-5);
  if (m.type.startsWith('plan.'))
    return `${time}  ${m.type.padEnd(14)}  ${String(d.plan_id)}  task ${String(d.task_id)}  ${Array.isArray(d.actions) ? `${d.actions.length} action(s)` : ''}`;
  if (m.type.startsWith('trace.'))
    return `${time}  ${m.type.padEnd(14)}  ${String(d.uid)}  ${String(d.type)}  ${String(d.content ?? '')
      .replace(/\s+/g, ' ')
      .slice(0, 80)}`;
  if (m.type === 'event.removed') return `${time}  ${m.type.padEnd(14)}  ${String(d.uid)}`;
  return `${time}  ${m.type.padEnd(14)}  ${String(d.uid)}  “${String(d.title)}”  ${d.scheduled_for ? when(String(d.scheduled_for), tz) : ''}`;
}

/**
 * Stream /ws: one JSON object a line with --json (or on a pipe with --json), else readable lines.
 * Ends on Ctrl-C (exit 0), after --count events, or when the daemon goes away (exit 3).
 */
export async function run({ opts }: RunInput<{ topics?: string; count?: number }>, deps: CliDeps): Promise<void> {
  const topics = opts.topics
    ?.split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  const bad = topics?.filter((t) => !TOPICS.includes(t));
  if (bad?.length) throw usage(`Unknown topic ${bad.join(', ')}: use ${TOPICS.join(', ')}.`);
  const client = await deps.client();
  const tz = deps.io.json ? 'UTC' : await deps.userZone();
  const { ws, url } = await openLiveSocket(client, topics);
  let seen = 0;
  await new Promise<void>((resolve, reject) => {
    let opened = false;
    let stopped = false;
    const stop = () => {
      stopped = true;
      ws.close(1000);
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    ws.on('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d));
      res.on('end', () => {
        let err: { code?: string; message?: string } | undefined;
        try {
          err = (JSON.parse(text) as { error?: typeof err }).error;
        } catch {
          /* not our envelope */
        }
        reject(new AppError(res.statusCode ?? 500, err?.code ?? 'http_error', err?.message ?? `The daemon refused the WebSocket (HTTP ${res.statusCode}).`));
      });
    });
    ws.on('open', () => {
      opened = true;
      deps.io.hint(`Watching ${topics?.join(', ') ?? 'plans, traces and events'} at ${url} (Ctrl-C to stop)…`);
    });
    ws.on('message', (raw) => {
      let m: LiveMessage;
      try {
        m = JSON.parse(String(raw)) as LiveMessage;
      } catch {
        return;
      }
      if (m.type === 'error') {
        deps.io.error(`kairos: ${m.error?.message ?? 'the daemon reported an error'}`);
        return;
      }
      if (deps.io.json) deps.io.jsonLine(JSON.stringify(m));
      else deps.io.line(line(m, tz));
      if (opts.count !== undefined && ++seen >= opts.count) stop();
    });
    ws.on('error', (e) => {
      if (!opened) reject(new AppError(503, 'daemon_unreachable', `Cannot open ${url}: ${e.message}`));
    });
    ws.on('close', (code, reason) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      if (stopped || !opened) return;
      const why = reason.toString() || `code ${code}`;
      if (code === 4401) reject(new AppError(401, 'unauthorized', `The daemon closed the stream: ${why}.`));
      else reject(new AppError(503, 'daemon_unreachable', `The daemon closed the stream (${why}).`));
    });
  });
}
