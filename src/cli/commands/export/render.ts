import type { ChalkInstance } from 'chalk';
import type { EndpointResponse } from '../../../contracts/endpoints.js';
import { clip } from '../../output/text.js';
import { shortTime } from '../../output/time.js';
import type { ExportBody } from './merge.js';

type Row = Record<string, unknown>;
type DiffLists = { added: Row[]; removed: Row[]; changed: { uid: string; from_version: number; to_version: number; patch: { op: string; path: string }[] }[] };

const str = (v: unknown) => (v === undefined || v === null ? '' : String(v));

function summaryLines(items: Row[], c: ChalkInstance): string[] {
  return items.map(
    (it) => `${c.dim(shortTime(str(it.timestamp)))}  ${str(it.type).padEnd(14)} ${c.cyan(clip(str(it.task_id), 18).padEnd(18))}  ${str(it.summary)}`,
  );
}

function traceLines(items: Row[], c: ChalkInstance, width: number): string[] {
  return items.map((t) => {
    const indent = typeof t.depth === 'number' ? '  '.repeat(t.depth) : '';
    const depth = typeof t.depth === 'number' ? c.dim(`d${t.depth} `) : '';
    return `${indent}${depth}${c.bold(str(t.uid))}  ${str(t.type)}  ${c.cyan(str(t.task_id))}  ${c.dim(shortTime(str(t.timestamp)))}  v${str(t.version)}  ${clip(str(t.content), width)}`;
  });
}

function diffLines(d: DiffLists, c: ChalkInstance, width: number): string[] {
  return [
    ...d.added.map((t) => c.green(`+ ${str(t.uid)}  ${str(t.type)}  ${str(t.task_id)}  ${clip(str(t.content), width)}`)),
    ...d.removed.map((t) => c.red(`- ${str(t.uid)}  ${str(t.type)}  ${str(t.task_id)}  ${clip(str(t.content), width)}`)),
    ...d.changed.map((ch) => c.yellow(`~ ${ch.uid}  v${ch.from_version}→v${ch.to_version}  ${[...new Set(ch.patch.map((op) => op.path))].join(', ')}`)),
  ];
}

function resultLines(format: string, results: unknown, c: ChalkInstance, width: number): string[] {
  if (format === 'summary') return summaryLines(results as Row[], c);
  if (format === 'diff') return diffLines(results as DiffLists, c, width);
  return traceLines(results as Row[], c, width);
}

const isEmpty = (r: unknown) => (Array.isArray(r) ? r.length === 0 : Object.values(r as DiffLists).every((l) => l.length === 0));

/** The readable view of an export, for a terminal. */
export function renderExport(body: ExportBody, c: ChalkInstance, columns = 120): string {
  const width = Math.max(30, columns - 70);
  const lines: string[] = [];
  if (body.groups) {
    for (const g of body.groups) {
      lines.push(c.bold(`── ${g.key || '(none)'} ──`));
      lines.push(...resultLines(body.export_format, g.results, c, width));
    }
  } else if (body.results !== undefined) lines.push(...resultLines(body.export_format, body.results, c, width));
  if (!lines.length || (body.results !== undefined && isEmpty(body.results)))
    lines.push(c.dim(body.export_format === 'diff' ? 'no changes' : 'nothing to export'));
  for (const e of (body.events ?? []) as Row[]) lines.push(c.magenta(`event ${str(e.uid)}  ${shortTime(str(e.scheduled_for))}  ${str(e.title)}`));
  if (body.checkpoint) lines.push(c.green(`saved checkpoint ${body.checkpoint.name} (${body.checkpoint.id}, ${body.checkpoint.trace_count} traces)`));
  if (body.next_cursor) lines.push(c.dim(`more: --cursor ${body.next_cursor} (or --all)`));
  return lines.join('\n');
}

/** `kairos export --list-checkpoints` on a terminal. */
export function renderCheckpoints(list: EndpointResponse<'GET /context/checkpoints'>['checkpoints'], c: ChalkInstance): string {
  if (!list.length) return c.dim('no checkpoints yet (save one with kairos export --checkpoint <name>)');
  return list.map((cp) => `${c.bold(cp.name)}  ${c.dim(cp.id)}  ${shortTime(cp.created_at)}  ${cp.export_format}  ${cp.trace_count} traces`).join('\n');
}
