/**
 * daemon.log holds one format, JSON lines as pino writes them ({"level":30,"time":…,"pid":…,"msg":…}):
 * the daemon's own events are structured, `jq` and pino-pretty read them, and `kairos daemon logs`
 * renders them for people. Text a detached daemon would print (its "listening" line, the reason it
 * could not start) is written as the same kind of line.
 */
export const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

/** One log line in pino's shape. */
export function jsonLine(level: 30 | 40 | 50 | 60, msg: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ level, time: new Date().toISOString(), pid: process.pid, ...extra, msg });
}

/** A log line for a person: "2031-02-10T09:00:00.000Z INFO  daemon started url=… version=…"; other text as it is. */
export function readableLine(line: string): string {
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(line);
  } catch {
    return line;
  }
  if (!o || typeof o !== 'object' || typeof o.level !== 'number') return line;
  const { level, time, pid: _pid, hostname: _h, msg, ...rest } = o;
  const fields = Object.entries(rest)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ');
  const t = typeof time === 'number' ? new Date(time).toISOString() : String(time ?? '');
  return `${t} ${(LEVELS[level as number] ?? String(level)).padEnd(5)} ${String(msg ?? '')}${fields ? `  ${fields}` : ''}`;
}
