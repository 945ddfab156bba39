import type { Blocked, BlockedWeekly } from './tempo.js';

/**
 * A weekly block (HH:MM wall times) rather than a one-off one (ISO instants). Apart from the
 * schemas in tempo.ts (a type-only import) so the CLI can tell them apart without loading zod.
 */
export const isWeekly = (b: Blocked): b is BlockedWeekly => !b.start.includes('T');
