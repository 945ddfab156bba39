import type { ChalkInstance } from 'chalk';
import type { EndpointResponse } from '../../../contracts/endpoints.js';
import type { IO } from '../../output/io.js';
import { clip } from '../../output/text.js';
import { localStamp } from '../../output/time.js';
import type { ExportBody } from './merge.js';

type Row = Record<string, unknown>;
type DiffLists = { added: Row[]; removed: Row[]; changed: { uid: string; from_version: number; to_version: number; patch: { op: string; path: string }[] }[] };

const str = (v: unknown) => (v === undefined || v === null ? '' : String(v));

/**
 * How lines are laid out: on a terminal, columns padded and long text cut to `width`; on a pipe
 * (`pipe`), fields separated by tabs and whole (gh's rule for pipes).
 */
interface Layout {
  c: ChalkInstance;
  /** The profile's zone: every time shown is its wall time. */
  tz: string;
  width: number;
  pipe: boolean;
}

const one = (s: string) => s.replace(/\s+/g, ' ').trim();
const cut = (l: Layout, s: string, n = l.width) => (l.pipe ? one(s) : clip(s, n));
const join = (l: Layout, cells: string[], sep = '  ') => cells.join(l.pipe ? '\t' : sep);

function summaryLines(items: Row[], l: Layout): string[] {
  const { c } = l;
  return items.map((it) => {
    const [time, type, task, summary] = [c.dim(localStamp(str(it.timestamp), l.tz)), str(it.type), str(it.task_id), str(it.summary)];
    if (l.pipe) return join(l, [time, type, task, one(summary)]);
    return `${time}  ${type.padEnd(14)} ${c.cyan(clip(task, 18).padEnd(18))}  ${summary}`;
  });
}

function traceLines(items: Row[], l: Layout): string[] {
  const { c } = l;
  return items.map((t) => {
    const depth = typeof t.depth === 'number' ? t.depth : undefined;
    const uid = c.bold(str(t.uid));
    const lead = l.pipe
      ? [...(depth !== undefined ? [`d${depth}`] : []), uid]
      : [`${depth !== undefined ? '  '.repeat(depth) + c.dim(`d${depth} `) : ''}${uid}`];
    return join(l, [...lead, str(t.type), c.cyan(str(t.task_id)), c.dim(localStamp(str(t.timestamp), l.tz)), `v${str(t.version)}`, cut(l, str(t.content))]);
  });
}

function diffLines(d: DiffLists, l: Layout): string[] {
  const { c } = l;
  return [
    ...d.added.map((t) => c.green(join(l, ['+', str(t.uid), str(t.type), str(t.task_id), cut(l, str(t.content))]).replace(/^\+ {2}/, '+ '))),
    ...d.removed.map((t) => c.red(join(l, ['-', str(t.uid), str(t.type), str(t.task_id), cut(l, str(t.content))]).replace(/^- {2}/, '- '))),
    ...d.changed.map((ch) =>
      c.yellow(join(l, ['~', ch.uid, `v${ch.from_version}→v${ch.to_version}`, [...new Set(ch.patch.map((op) => op.path))].join(', ')]).replace(/^~ {2}/, '~ ')),
    ),
  ];
}

function resultLines(format: string, results: unknown, l: Layout): string[] {
  if (format === 'summary') return summaryLines(results as Row[], l);
  if (format === 'diff') return diffLines(results as DiffLists, l);
  return traceLines(results as Row[], l);
}

const isEmpty = (r: unknown) => (Array.isArray(r) ? r.length === 0 : Object.values(r as DiffLists).every((l) => l.length === 0));

/**
 * The readable view of an export: for a terminal, or with `pipe` for a pipe (tab-separated,
 * nothing cut; the next-page hint left to stderr).
 */
export function renderExport(body: ExportBody, c: ChalkInstance, tz: string, columns = 120, pipe = false): string {
  const l: Layout = { c, tz, width: Math.max(30, columns - 70), pipe };
  // A diff shows no times; the other views label the zone of theirs (a pipe gets rows only).
  const lines: string[] = pipe || body.export_format === 'diff' ? [] : [c.dim(`times in ${tz}`)];
  if (body.groups) {
    for (const g of body.groups) {
      lines.push(c.bold(`── ${g.key || '(none)'} ──`));
      lines.push(...resultLines(body.export_format, g.results, l));
    }
  } else if (body.results !== undefined) lines.push(...resultLines(body.export_format, body.results, l));
  if (!lines.length || (body.results !== undefined && isEmpty(body.results)))
    lines.push(c.dim(body.export_format === 'diff' ? 'no changes' : 'nothing to export'));
  for (const e of (body.events ?? []) as Row[]) lines.push(c.magenta(`event ${str(e.uid)}  ${localStamp(str(e.scheduled_for), tz)}  ${str(e.title)}`));
  if (body.checkpoint) lines.push(c.green(`saved checkpoint ${body.checkpoint.name} (${body.checkpoint.id}, ${body.checkpoint.trace_count} traces)`));
  if (body.next_cursor && !pipe) lines.push(c.dim(`more: --cursor ${body.next_cursor} (or --all)`));
  return lines.join('\n');
}

/** `kairos export --list-checkpoints`: a table on a terminal, tab-separated rows on a pipe. */
export function renderCheckpoints(list: EndpointResponse<'GET /context/checkpoints'>['checkpoints'], io: IO, tz: string): string {
  if (!list.length) return io.chalk.dim('no checkpoints yet (save one with kairos export --checkpoint <name>)');
  return io.table(
    ['NAME', 'ID', `CREATED (${tz})`, 'FORMAT', 'TRACES'],
    list.map((cp) => [cp.name, cp.id, localStamp(cp.created_at, tz), cp.export_format, cp.trace_count]),
  );
}
