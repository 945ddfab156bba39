import type { ListKind } from '../../arg-kinds.js';
import type { IdKind } from '../../input/resolve-id.js';

/** Every kind `kairos __complete` lists: each id kind an argument may be declared with, and the lists of arg-kinds.ts. */
export const COMPLETE_KINDS = [
  'plan',
  'trace',
  'event',
  'key',
  'plan-or-task',
  'plan-or-trace',
  'subscription',
  'caldav-account',
  'proposed-plan',
] as const satisfies readonly (IdKind | ListKind)[];
export type CompleteKind = (typeof COMPLETE_KINDS)[number];

// A new IdKind or ListKind must be listed above: this fails to compile until it is.
type Missing = Exclude<IdKind | ListKind, CompleteKind>;
export const everyKindListed: Missing extends never ? true : never = true;
