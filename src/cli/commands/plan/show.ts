import type { ChalkInstance } from 'chalk';
import type { PreviewItem, PreviewResponse } from '../../../contracts/planner.js';
import { type OverlapNames, overlapsLine } from '../../flows/overlap-names.js';

const pad = (n: number) => String(n).padStart(2, '0');

/** The end on the same wall clock as `local` ("Tue 2026-03-10 15:00" + 45 min → "15:45"). */
function endOf(item: PreviewItem): string {
  const m = /(\d{2}):(\d{2})$/.exec(item.local);
  if (!m) return '';
  const [h, min] = [Number(m[1]), Number(m[2])];
  const total = h * 60 + min + item.duration_minutes;
  return total < 1440
    ? `${pad(Math.floor(total / 60))}:${pad(total % 60)}`
    : `+${Math.floor(total / 1440)}d ${pad(Math.floor((total % 1440) / 60))}:${pad(total % 60)}`;
}

const VERB: Record<PreviewItem['action_kind'], string> = { add_event: 'add', reschedule_event: 'move', reflect: 'reflect' };

/** One preview item: what, when (the user's wall clock), how long, and why. */
export function describeItem(item: PreviewItem, i: number, c: ChalkInstance, names?: OverlapNames): string {
  const when = item.action_kind === 'reflect' ? item.local : `${item.local}–${endOf(item)}`;
  const head = [
    `${i + 1}.`,
    c.bold(VERB[item.action_kind].padEnd(7)),
    `“${item.title}”`,
    when,
    item.action_kind === 'reflect' ? '' : `${item.duration_minutes} min`,
    item.tempo_tag ?? '',
    item.event_uid ? c.dim(`(${item.event_uid})`) : '',
    c.dim(`confidence ${item.confidence.toFixed(2)}`),
  ].filter(Boolean);
  const lines = [head.join('  ')];
  lines.push(c.dim(`   why: ${item.reasoning}`));
  if (item.conflicts.length) lines.push(c.yellow(`   ${overlapsLine(item.conflicts, names)}`));
  for (const w of item.warnings) lines.push(c.yellow(`   ! ${w}`));
  return lines.join('\n');
}

/** A whole preview: the reply, each item with its reason, and what was left out. */
export function describePreview(p: PreviewResponse, c: ChalkInstance, names?: OverlapNames): string {
  const lines = [p.reply];
  if (p.fallback) lines.push(c.yellow(`(planned by the default provider: ${p.fallback})`));
  p.items.forEach((item, i) => lines.push(describeItem(item, i, c, names)));
  if (p.items.length) lines.push(c.dim(`Times are ${p.timezone}. Nothing was saved; run without --preview to propose it.`));
  return lines.join('\n');
}
