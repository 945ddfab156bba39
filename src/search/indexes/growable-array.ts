type Typed = Float32Array | Float64Array | Int32Array | Uint8Array;

interface TypedCtor<T extends Typed> {
  new (length: number): T;
  new (buffer: ArrayBuffer, byteOffset: number, length: number): T;
  readonly BYTES_PER_ELEMENT: number;
}

const PAGE = 65536;

/** Below this size an array grows by copy; from it on, in place. */
export const IN_PLACE_FROM_BYTES = 256 * 1024;

/**
 * Where one of an index's per-row arrays grows. A typed array grows by allocating a larger one and
 * copying: at a million rows the arrays of a vector block copied ~40 MB in one turn, which held
 * the event loop 0.4 s on this machine. From IN_PLACE_FROM_BYTES on, the array lives in a
 * WebAssembly memory of its own, which grows in place (the engine reserves its address space up
 * front) and the array is a new view over it. Small arrays, most of them, stay plain: a memory
 * per array reserves gigabytes of address space each.
 *
 * A grown array replaces the one before: once in place, the earlier array and every view into it
 * are detached (length 0), so nobody may keep one across a growth.
 */
export class GrowableArray<T extends Typed> {
  private mem?: WebAssembly.Memory;

  constructor(private readonly Ctor: TypedCtor<T>) {}

  /** `old` (this grower's last array) grown to `length` elements, its contents kept; `tail` fills the rest. */
  grow(old: T, length: number, tail = 0): T {
    const bytes = length * this.Ctor.BYTES_PER_ELEMENT;
    // Read before growing: growing the memory in place detaches `old`.
    const kept = old.length;
    let out: T;
    if (bytes < IN_PLACE_FROM_BYTES) {
      out = new this.Ctor(length);
      out.set(old);
    } else if (!this.mem) {
      this.mem = new WebAssembly.Memory({ initial: Math.ceil(bytes / PAGE) });
      out = new this.Ctor(this.mem.buffer, 0, length);
      out.set(old);
    } else {
      const more = Math.ceil(bytes / PAGE) - this.mem.buffer.byteLength / PAGE;
      if (more > 0) this.mem.grow(more);
      out = new this.Ctor(this.mem.buffer, 0, length);
    }
    // A memory's pages past the last length are zero, as a new array's are.
    if (tail !== 0) out.fill(tail, kept);
    return out;
  }
}
