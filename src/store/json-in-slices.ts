/**
 * `JSON.stringify(value, null, indent) + '\n'` (without the newline when `indent` is 0), byte for
 * byte, built a slice per turn of the event loop (issue 14: no request may hold the loop over 100 ms). A snapshot of a store holding an
 * import of 50,000 events is tens of MB of JSON: one stringify held the loop for most of a second,
 * and every request waiting meanwhile with it. The containers of the top `levels` levels (the
 * file, its collections, their arrays) are written here; each value below them (a document) is
 * one JSON.stringify. The result comes as Buffers of about `partBytes`, ready to write in turn.
 */
export async function jsonInSlices(value: unknown, opts: { indent?: number; levels?: number; sliceMs?: number; partBytes?: number } = {}): Promise<Buffer[]> {
  const space = opts.indent ?? 1;
  const levels = opts.levels ?? 3;
  const sliceMs = opts.sliceMs ?? 8;
  const partBytes = opts.partBytes ?? 256 * 1024;
  const parts: Buffer[] = [];
  let pending: string[] = [];
  let pendingLength = 0;
  let sliceStart = performance.now();

  const emit = (s: string) => {
    pending.push(s);
    pendingLength += s.length;
    if (pendingLength >= partBytes) flush();
  };
  const flush = () => {
    if (pending.length) parts.push(Buffer.from(pending.join(''), 'utf8'));
    pending = [];
    pendingLength = 0;
  };
  const maybeYield = async () => {
    if (performance.now() - sliceStart < sliceMs) return;
    await new Promise((ok) => setImmediate(ok));
    sliceStart = performance.now();
  };
  const indent = (depth: number) => (space ? '\n' + ' '.repeat(depth * space) : '');
  const colon = space ? ': ' : ':';
  /** A value JSON.stringify writes in an object or array (it leaves out the rest of an object's members). */
  const kept = (v: unknown) => v !== undefined && typeof v !== 'function' && typeof v !== 'symbol';

  async function write(v: unknown, depth: number): Promise<void> {
    const container = v !== null && typeof v === 'object' && !('toJSON' in v && typeof (v as { toJSON: unknown }).toJSON === 'function');
    if (!container || depth >= levels) {
      const json = JSON.stringify(v, null, space) ?? 'null';
      emit(space ? json.replaceAll('\n', indent(depth)) : json);
      return;
    }
    if (Array.isArray(v)) {
      if (!v.length) return emit('[]');
      emit('[');
      for (let i = 0; i < v.length; i++) {
        emit((i ? ',' : '') + indent(depth + 1));
        await write(kept(v[i]) ? v[i] : null, depth + 1);
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
      await write(x, depth + 1);
      await maybeYield();
    }
    emit(indent(depth) + '}');
  }

  await write(value, 0);
  if (space) emit('\n');
  flush();
  return parts;
}
