import type { SyncCounts, SyncRun } from '../../../../contracts/sync.js';

export const countsLine = (c: SyncCounts) =>
  `${c.pulled} pulled, ${c.pushed} pushed, ${c.removed_local} removed here, ${c.removed_remote} removed there, ${c.conflicts} conflict(s)`;

/** What one sync did, and each conflict with the trace that keeps the local version. */
export function runLines(r: SyncRun): string[] {
  if (r.status === 'failed') return [`${r.account}: sync failed (${r.error?.code}): ${r.error?.message}`];
  const lines = [`${r.account}: ${countsLine(r.counts)} (${r.method})`];
  for (const c of r.conflicts)
    lines.push(`  conflict: "${c.title}" (${c.event_uid}) changed on both sides; the server's version is kept, yours is trace ${c.trace_uid}`);
  return lines;
}
