import type { Blocked, Budget, Cadence, DurationBias, TempoProfile, TimeRange } from '../../../contracts/tempo.js';
import { isWeekly } from '../../../contracts/weekly-block.js';
import { WEEKDAYS, type Weekday } from '../../../time/local-date.js';
import { formatInZone } from '../../../time/zoned-time.js';
import type { IO } from '../../output/io.js';
import { table } from '../../output/table.js';

/** `06:00` → `06`, `06:30` → `06:30`: whole hours stay short so a week fits on one line. */
const short = (hhmm: string) => (hhmm.endsWith(':00') ? hhmm.slice(0, 2) : hhmm);
const cell = (r: { start: string; end: string }) => `${short(r.start)}-${short(r.end)}`;

/** `mon-fri`, `sat,sun` or `every day`. */
export function describeDays(days?: readonly Weekday[]): string {
  if (!days || days.length === 7) return 'every day';
  const idx = days.map((d) => WEEKDAYS.indexOf(d));
  const consecutive = idx.length > 2 && idx.every((v, i) => i === 0 || v === idx[i - 1]! + 1);
  return consecutive ? `${days[0]}-${days.at(-1)}` : days.join(',');
}

export function describeRange(r: TimeRange): string {
  const crosses = r.end <= r.start ? ' (ends the next day)' : '';
  return `${r.start}–${r.end} ${describeDays(r.days)}${crosses}`;
}

export function describeBlock(b: Blocked, zone: string): string {
  const label = b.label ? ` (${b.label})` : '';
  if (isWeekly(b)) return `${describeRange(b)}${label}`;
  const start = formatInZone(new Date(b.start), zone);
  const end = formatInZone(new Date(b.end), zone);
  if (start.slice(11, 16) === '00:00' && end.slice(11, 16) === '00:00') {
    const last = formatInZone(new Date(b.end).getTime() - 1, zone).slice(0, 10);
    return `${start.slice(0, 10)}${last === start.slice(0, 10) ? '' : ` – ${last}`} all day${label}`;
  }
  const sameDay = start.slice(0, 10) === end.slice(0, 10);
  return `${start.slice(0, 10)} ${start.slice(11, 16)} – ${sameDay ? '' : `${end.slice(0, 10)} `}${end.slice(11, 16)}${label}`;
}

const describeBias = (b: DurationBias) => (typeof b === 'number' ? `×${b}` : `${b.minutes >= 0 ? '+' : ''}${b.minutes} min`);

export function describeCadence(cadence: Cadence): string[] {
  return Object.entries(cadence).map(([kind, r]) => `${kind} at most ${r!.max} per ${r!.per}${r!.per_event ? ' per event' : ''}`);
}

export function describeBudget(b: Budget): string[] {
  const limits = (l: { per_day?: number; per_week?: number }) =>
    [l.per_day !== undefined ? `${l.per_day}/day` : '', l.per_week !== undefined ? `${l.per_week}/week` : ''].filter(Boolean).join(', ');
  const out: string[] = [];
  if (b.per_day !== undefined || b.per_week !== undefined) out.push(`all agents: ${limits(b)}`);
  for (const [agent, l] of Object.entries(b.per_agent ?? {})) out.push(`agent ${agent}: ${limits(l)}`);
  return out;
}

/** One grid row per weekly range: the hours it covers on each day it starts. */
function weekRow(name: string, r: { start: string; end: string; days?: readonly Weekday[] }, dot: string): string[] {
  return [name, ...WEEKDAYS.map((d) => (!r.days || r.days.includes(d) ? cell(r) : dot))];
}

/** The profile for a person: ranges and weekly blocks as a week grid, then the rest. */
export function renderProfile(p: TempoProfile, io: IO): string {
  const { bold, dim } = io.chalk;
  const dot = dim('·');
  const lines: string[] = [bold(`Tempo of ${p.user_id} (${p.timezone})`), ''];
  const rows = Object.entries(p.time_ranges).map(([tag, r]) => weekRow(tag, r, dot));
  p.blocked.forEach((b, i) => {
    if (isWeekly(b)) rows.push(weekRow(`#${i + 1} blocked${b.label ? ` ${b.label}` : ''}`, b, dot));
  });
  lines.push(rows.length ? table(['', ...WEEKDAYS], rows, io.width) : dim('no time ranges'));
  const oneOff = p.blocked.map((b, i) => [b, i] as const).filter(([b]) => !isWeekly(b));
  if (oneOff.length) {
    lines.push('', bold('Blocked once'));
    for (const [b, i] of oneOff) lines.push(`  #${i + 1}  ${describeBlock(b, p.timezone)}`);
  }
  const section = (title: string, items: string[]) => {
    lines.push(`${bold(title.padEnd(17))}${items.length ? items.join('; ') : dim('none')}`);
  };
  lines.push('');
  section(
    'Tag mappings',
    Object.entries(p.tag_mappings).map(([w, t]) => `${w} → ${t}`),
  );
  section(
    'Duration biases',
    Object.entries(p.duration_biases).map(([k, b]) => `${k} ${describeBias(b)}`),
  );
  section('Cadence', describeCadence(p.cadence));
  section('Budget', describeBudget(p.budget));
  return lines.join('\n');
}
