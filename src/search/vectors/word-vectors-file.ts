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

/** Decode a file written by encodeWordVectors; throws on anything truncated or foreign. */
export function decodeWordVectors(buf: Buffer): WordVectors {
  if (buf.length < 12 || buf.toString('latin1', 0, 4) !== MAGIC) throw new Error('not a kairos word-vector file');
  let at = 4;
  const headerLen = buf.readUInt32LE(at);
  at += 4;
  const header = JSON.parse(buf.toString('utf8', at, at + headerLen)) as WordVectorsHeader;
  at += headerLen;
  if (header.format !== 1 || !(header.dims > 0) || !(header.count > 0)) throw new Error('unsupported word-vector file');
  const wordsLen = buf.readUInt32LE(at);
  at += 4;
  const words = buf.toString('utf8', at, at + wordsLen).split('\n');
  at += wordsLen;
  const expected = at + header.count * 4 + header.count * header.dims;
  if (words.length !== header.count || buf.length !== expected) throw new Error('truncated word-vector file');
  // Copies, so the typed arrays are aligned and the file buffer can be dropped; shared memory,
  // so the daemon's embedding thread reads the same tables instead of a copy (tens of MB).
  const scales = new Float32Array(new SharedArrayBuffer(header.count * 4));
  Buffer.from(scales.buffer).set(buf.subarray(at, at + header.count * 4));
  at += header.count * 4;
  const values = new Int8Array(new SharedArrayBuffer(header.count * header.dims));
  Buffer.from(values.buffer).set(buf.subarray(at, at + values.length));
  return { header, words, scales, values };
}
