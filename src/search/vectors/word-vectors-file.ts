/**
 * The compact form of the built-in word vectors: the most frequent words of the model, each an
 * int8 vector with one float scale (value ≈ int8 × scale). Roughly 1/20 of the JSON the npm
 * package ships, and it loads in milliseconds instead of the half a minute JSON.parse takes.
 *
 * Layout (little endian): "KVEC" · u32 header bytes · header JSON · u32 word-list bytes ·
 * words joined by "\n" (most frequent first) · f32 scale per word · i8 dims per word.
 */
export interface WordVectorsHeader {
  format: 1;
  dims: number;
  count: number;
  /** npm package and version the vectors come from: a new version invalidates the file. */
  source: string;
}

export interface WordVectors {
  header: WordVectorsHeader;
  words: string[];
  scales: Float32Array;
  values: Int8Array;
}

const MAGIC = 'KVEC';

export function encodeWordVectors(v: WordVectors): Buffer {
  const header = Buffer.from(JSON.stringify(v.header), 'utf8');
  const words = Buffer.from(v.words.join('\n'), 'utf8');
  const u32 = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(n);
    return b;
  };
  return Buffer.concat([
    Buffer.from(MAGIC, 'latin1'),
    u32(header.length),
    header,
    u32(words.length),
    words,
    Buffer.from(v.scales.buffer, v.scales.byteOffset, v.scales.byteLength),
    Buffer.from(v.values.buffer, v.values.byteOffset, v.values.byteLength),
  ]);
}

/** Where the parts of a file written by encodeWordVectors are; throws on anything truncated or foreign. */
function layout(buf: Buffer): { header: WordVectorsHeader; wordsAt: number; wordsEnd: number; scalesAt: number; valuesAt: number } {
  if (buf.length < 12 || buf.toString('latin1', 0, 4) !== MAGIC) throw new Error('not a kairos word-vector file');
  let at = 4;
  const headerLen = buf.readUInt32LE(at);
  at += 4;
  const header = JSON.parse(buf.toString('utf8', at, at + headerLen)) as WordVectorsHeader;
  at += headerLen;
  if (header.format !== 1 || !(header.dims > 0) || !(header.count > 0)) throw new Error('unsupported word-vector file');
  const wordsLen = buf.readUInt32LE(at);
  at += 4;
  const wordsAt = at;
  const wordsEnd = at + wordsLen;
  const scalesAt = wordsEnd;
  const valuesAt = scalesAt + header.count * 4;
  if (buf.length !== valuesAt + header.count * header.dims) throw new Error('truncated word-vector file');
  return { header, wordsAt, wordsEnd, scalesAt, valuesAt };
}

/**
 * Typed arrays over fresh shared memory, to be filled from the file: copies, so the arrays are
 * aligned and the file buffer can be dropped; shared, so the daemon's embedding thread reads the
 * same tables instead of a copy (tens of MB).
 */
function tables(header: WordVectorsHeader): { scales: Float32Array; values: Int8Array } {
  return {
    scales: new Float32Array(new SharedArrayBuffer(header.count * 4)),
    values: new Int8Array(new SharedArrayBuffer(header.count * header.dims)),
  };
}

/** Decode a file written by encodeWordVectors; throws on anything truncated or foreign. */
export function decodeWordVectors(buf: Buffer): WordVectors {
  const { header, wordsAt, wordsEnd, scalesAt, valuesAt } = layout(buf);
  const words = buf.toString('utf8', wordsAt, wordsEnd).split('\n');
  if (words.length !== header.count) throw new Error('truncated word-vector file');
  const { scales, values } = tables(header);
  Buffer.from(scales.buffer).set(buf.subarray(scalesAt, valuesAt));
  Buffer.from(values.buffer).set(buf.subarray(valuesAt));
  return { header, words, scales, values };
}

/** Words split, and bytes copied, between two pauses of decodeWordVectorsInTurns. */
const WORDS_PER_TURN = 16_384;
const BYTES_PER_TURN = 1 << 20;

/**
 * decodeWordVectors, a slice per turn: `pause()` between slices. Splitting ~120,000 words and the
 * first touch of every page of the fresh tables are each tens of ms or more where page faults
 * are slow, too much for one turn of the daemon's event loop.
 */
export async function decodeWordVectorsInTurns(buf: Buffer, pause: () => Promise<void>): Promise<WordVectors> {
  const { header, wordsAt, wordsEnd, scalesAt, valuesAt } = layout(buf);
  const text = buf.toString('utf8', wordsAt, wordsEnd);
  const words: string[] = [];
  for (let from = 0; ; ) {
    const nl = text.indexOf('\n', from);
    if (nl === -1) {
      words.push(text.slice(from));
      break;
    }
    words.push(text.slice(from, nl));
    from = nl + 1;
    if (words.length % WORDS_PER_TURN === 0) await pause();
  }
  if (words.length !== header.count) throw new Error('truncated word-vector file');
  const { scales, values } = tables(header);
  for (const [dst, src] of [
    [Buffer.from(scales.buffer), buf.subarray(scalesAt, valuesAt)],
    [Buffer.from(values.buffer), buf.subarray(valuesAt)],
  ] as const) {
    for (let o = 0; o < src.length; o += BYTES_PER_TURN) {
      await pause();
      dst.set(src.subarray(o, o + BYTES_PER_TURN), o);
    }
  }
  return { header, words, scales, values };
}
