/** Entries a long posting keeps per pair of arrays (8 KB): it grows by another pair, never by copying. */
export const POSTING_CHUNK = 1024;

/**
 * A term's postings: document slots with their weighted term frequency, append-only. The pair of
 * arrays being filled doubles up to POSTING_CHUNK entries (most terms stay below it); from there
 * on a full pair is set aside as it is and the next entries go to a new one. A posting that grew
 * by copying (by a quarter, as it did) allocated about five times its final size on the way: at
 * a million traces, 560 MB of arrays while a start read the keyword file, and every 64 MB or so
 * of them made the engine collect the whole heap (13 full collections in a read of 10 s, 7 now).
 */
export class Posting {
  /** Slots of the pair being filled (the last). */
  slots = new Int32Array(2);
  /** Their weights, index for index. */
  tfs = new Float32Array(2);
  /** Entries in `slots`. */
  fill = 0;
  /** Full pairs set aside, oldest first; none (most terms) until the first one is. */
  fullSlots?: Int32Array[];
  fullTfs?: Float32Array[];
  /** Documents still alive among the slots (document frequency). */
  live = 0;

  add(slot: number, tf: number): void {
    if (this.fill === this.slots.length) {
      if (this.fill < POSTING_CHUNK) {
        const slots = new Int32Array(this.fill * 2);
        slots.set(this.slots);
        const tfs = new Float32Array(this.fill * 2);
        tfs.set(this.tfs);
        this.slots = slots;
        this.tfs = tfs;
      } else {
        (this.fullSlots ??= []).push(this.slots);
        (this.fullTfs ??= []).push(this.tfs);
        this.slots = new Int32Array(POSTING_CHUNK);
        this.tfs = new Float32Array(POSTING_CHUNK);
        this.fill = 0;
      }
    }
    this.slots[this.fill] = slot;
    this.tfs[this.fill++] = tf;
    this.live++;
  }

  /** Calls `each` with every pair of arrays and the entries it holds, oldest first. */
  forEachPart(each: (slots: Int32Array, tfs: Float32Array, n: number) => void): void {
    const full = this.fullSlots;
    if (full) for (let c = 0; c < full.length; c++) each(full[c]!, this.fullTfs![c]!, POSTING_CHUNK);
    each(this.slots, this.tfs, this.fill);
  }
}
