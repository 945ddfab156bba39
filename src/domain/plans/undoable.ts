import type { Change } from '../../contracts/changes.js';
import type { Principal } from '../principal.js';

/** A change with how to take it back. */
export interface Undoable extends Change {
  run(p: Principal): Promise<void>;
}

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
