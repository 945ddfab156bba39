/** Options of jsonInSlices. */
export interface JsonInSlicesOptions {
  /** Spaces per level (JSON.stringify's third argument); 0 for compact. */
  indent?: number;
  /** Containers of the top `levels` levels are written here; each value below them is one JSON.stringify. */
  levels?: number;
  /** Yield to the event loop after this much work. */
  sliceMs?: number;
  /** Size of each Buffer handed out. */
  partBytes?: number;
  /**
   * Write each value below `levels` (a document) on one line, compact, instead of indented: the
   * file stays one document per line and readable, is about a third smaller, and skips a pass
   * over every document's text.
   */
  compactValues?: boolean;
  /** Take each part as it is made (written to a file, say), instead of keeping them all: memory stays at one part. */
  sink?: (part: Buffer) => void | Promise<void>;
  /** Checked at each yield: once aborted, the writing stops with the signal's reason. */
  signal?: AbortSignal;
  /**
   * Told of each value written by one JSON.stringify (below `levels`), with the keys of the
   * containers it is in (the top one first), its JSON, the byte of the output it starts at and
   * its length in bytes.
   */
  onValue?: (value: unknown, keys: (string | number)[], json: string, offset: number, bytes: number) => void;
}

/**
 * `JSON.stringify(value, null, indent) + '\n'` (without the newline when `indent` is 0), byte for
 * byte (unless `compactValues`), built a slice per turn of the event loop (no request may hold the loop over 100 ms). A
 * snapshot of a large store is tens of MB of JSON: one stringify would hold the loop for most of
 * a second, and every request waiting meanwhile with it. The containers of the top `levels` levels (the
 * file, its collections, their arrays) are written here; each value below them (a document) is
 * one JSON.stringify. The result comes as Buffers of about `partBytes`, ready to write in turn.
 */
export async function jsonInSlices(value: unknown, opts: JsonInSlicesOptions = {}): Promise<Buffer[]> {
  const space = opts.indent ?? 1;
  const levels = opts.levels ?? 3;
  const sliceMs = opts.sliceMs ?? 8;
  const partBytes = opts.partBytes ?? 256 * 1024;
  const valueSpace = opts.compactValues ? 0 : space;
  const sink = opts.sink;
  const sinking: Promise<void>[] = [];
  const parts: Buffer[] = [];
  let pending: string[] = [];
  let pendingLength = 0;
  /** Bytes emitted so far (counted only for onValue). */
  let bytes = 0;
  const onValue = opts.onValue;
  let sliceStart = performance.now();

  /** `s` goes out next; `length`, its bytes when known (counted only for onValue). */
  const emit = (s: string, length?: number) => {
    pending.push(s);
    pendingLength += s.length;
    if (onValue) bytes += length ?? Buffer.byteLength(s);
    if (pendingLength >= partBytes) flush();
  };
  const flush = () => {
    if (pending.length) {
      const part = Buffer.from(pending.join(''), 'utf8');
      if (sink) {
        const done = sink(part);
        if (done) {
          // Marked handled now; the failure is raised at the next wait for the sink.
          done.catch(() => {});
          sinking.push(done);
        }
      } else parts.push(part);
    }
    pending = [];
    pendingLength = 0;
  };
  const maybeYield = async () => {
    if (performance.now() - sliceStart < sliceMs) return;
    opts.signal?.throwIfAborted();
    // A sink's writes go on meanwhile; waiting for them here keeps at most a slice's parts in memory.
    if (sinking.length) await Promise.all(sinking.splice(0));
    else await new Promise((ok) => setImmediate(ok));
    sliceStart = performance.now();
  };
  const indent = (depth: number) => (space ? '\n' + ' '.repeat(depth * space) : '');
  const colon = space ? ': ' : ':';
  /** A value JSON.stringify writes in an object or array (it leaves out the rest of an object's members). */
  const kept = (v: unknown) => v !== undefined && typeof v !== 'function' && typeof v !== 'symbol';

  async function write(v: unknown, depth: number, keys: (string | number)[] = []): Promise<void> {
    const container = v !== null && typeof v === 'object' && !('toJSON' in v && typeof (v as { toJSON: unknown }).toJSON === 'function');
    if (!container || depth >= levels) {
      const json = JSON.stringify(v, null, valueSpace) ?? 'null';
      const out = valueSpace ? json.replaceAll('\n', indent(depth)) : json;
      if (!onValue) return emit(out);
      const length = Buffer.byteLength(out);
      onValue(v, keys, out, bytes, length);
      emit(out, length);
      return;
    }
    if (Array.isArray(v)) {
      if (!v.length) return emit('[]');
      emit('[');
      for (let i = 0; i < v.length; i++) {
        emit((i ? ',' : '') + indent(depth + 1));
        await write(kept(v[i]) ? v[i] : null, depth + 1, onValue ? [...keys, i] : keys);
        await maybeYield();
      }
      emit(indent(depth) + ']');
      return;
    }
    const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => kept(x));
    if (!entries.length) return emit('{}');
    emit('{');
    let first = true;
    for (const [k, x] of entries) {
      emit((first ? '' : ',') + indent(depth + 1) + JSON.stringify(k) + colon);
      first = false;
      await write(x, depth + 1, onValue ? [...keys, k] : keys);
      await maybeYield();
    }
    emit(indent(depth) + '}');
  }

  await write(value, 0);
  if (space) emit('\n');
  flush();
  await Promise.all(sinking);
  return parts;
}
