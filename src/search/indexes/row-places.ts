import { SegmentedMap } from '../../platform/segmented-map.js';

/** Users a row place can name: its user's number times this, plus its slot, stays exact in a double. */
const SLOTS = 2 ** 31;

/** Where a uid's row is: its user (the block's owner) and its slot in that block. */
export interface RowPlace {
  user: string;
  slot: number;
}

/**
 * Each uid's row place as one number in a Map: the user's number times 2^31 plus the slot. An
 * object and a copy of the user id per trace (ids read back from the vector file are new strings)
 * cost about 90 bytes a trace; the first user's places are small integers V8 keeps in the entry
 * itself, and the others a 16-byte number. Users are numbered in the order they come and keep
 * their number.
 */
export class RowPlaces {
  /** Segmented: a Map of a million uids held the event loop a quarter of a second each time it doubled. */
  private readonly places = new SegmentedMap<string, number>();
  private readonly users: string[] = [];
  private readonly numbers = new Map<string, number>();

  get size(): number {
    return this.places.size;
  }

  has(uid: string): boolean {
    return this.places.has(uid);
  }

  get(uid: string): RowPlace | undefined {
    const v = this.places.get(uid);
    if (v === undefined) return undefined;
    const no = Math.floor(v / SLOTS);
    return { user: this.users[no]!, slot: v - no * SLOTS };
  }

  set(uid: string, user: string, slot: number): void {
    let no = this.numbers.get(user);
    if (no === undefined) {
      no = this.users.push(user) - 1;
      this.numbers.set(user, no);
    }
    this.places.set(uid, no * SLOTS + slot);
  }

  delete(uid: string): void {
    this.places.delete(uid);
  }

  keys(): IterableIterator<string> {
    return this.places.keys();
  }
}
