import type { Blocked } from '../../contracts/tempo.js';
import { isWeekly } from '../../contracts/weekly-block.js';
import { expandWeekly, type Interval } from './intervals.js';

/** A concrete stretch of blocked time and the block it comes from. */
export interface BlockedInterval extends Interval {
  block: Blocked;
}

/** Every blocked stretch overlapping `[from, to)`: weekly blocks expanded in `zone`, one-off blocks as given. */
export function blockedIntervals(blocked: readonly Blocked[], zone: string, from: number, to: number): BlockedInterval[] {
  const out: BlockedInterval[] = [];
  for (const block of blocked) {
    if (isWeekly(block)) {
      for (const i of expandWeekly(block, zone, from, to)) out.push({ ...i, block });
    } else {
      const start = Date.parse(block.start);
      const end = Date.parse(block.end);
      if (end > from && start < to) out.push({ start, end, block });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}
