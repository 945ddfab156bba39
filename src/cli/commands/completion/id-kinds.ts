import type { IdKind } from '../../input/resolve-id.js';

/** Every id kind `kairos __complete` lists (each kind an id argument may be declared with). */
export const ID_KINDS = ['plan', 'trace', 'event', 'key', 'plan-or-task'] as const satisfies readonly IdKind[];

// A new IdKind must be listed above: this fails to compile until it is.
type Missing = Exclude<IdKind, (typeof ID_KINDS)[number]>;
export const everyKindListed: Missing extends never ? true : never = true;
