import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { crc32 } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeVectorFile, encodeHead, encodeRows, encodeTrailer, type VectorFileHeader } from '../../../../src/search/indexes/vector-file.js';
import type { RawRow } from '../../../../src/search/indexes/vector-index.js';
import { PersistedVectors } from '../../../../src/search/indexes/vector-persistence.js';
import { removeHome, tempHome } from '../../../helpers/daemon.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const arrayBuffers = () => {
  gc();
  return process.memoryUsage().arrayBuffers;
};

const header: VectorFileHeader = { model: 'test-model', dims: 256, revision: 1 };

/** A file as PersistedVectors writes one: head, rows, then the trailer with the checksum of all before it. */
function file(n: number): Buffer {
  const rows: RawRow[] = Array.from({ length: n }, (_, i) => ({
    uid: `tr_${String(i).padStart(8, '0')}`,
    userId: 'usr_a',
    tag: i * 7,
    scale: 0.01,
    components: Int8Array.from({ length: header.dims }, (_, d) => ((i + d) % 255) - 127),
    density: Float32Array.of(0.9, 0.8),
  }));
  const head = encodeHead(header);
  const body = encodeRows(rows, header.dims);
  const crc = crc32(body, crc32(head));
  return Buffer.concat([head, body, encodeTrailer(n, crc32(encodeTrailer(n, 0).subarray(0, 4), crc))]);
}

describe('decodeVectorFile', () => {
  it('checks a large file a slice per turn: it pauses between checksum slices and between row slices', async () => {
    const buf = file(40_000); // ~11 MB: three checksum slices, four row slices
    let pauses = 0;
    const d = await decodeVectorFile(buf, header, async () => {
      pauses++;
    });
    if ('rejected' in d) throw new Error(d.rejected);
    expect(d.rows.size).toBe(40_000);
    expect(pauses).toBeGreaterThanOrEqual(2 + 4);
    const row = d.rows.get('tr_00012345')!;
    expect(row).toMatchObject({ userId: 'usr_a', tag: 12345 * 7 });
    expect(row.components[0]).toBe((12345 % 255) - 127);
    expect([...row.density]).toEqual([Math.fround(0.9), Math.fround(0.8)]);
  });

  it('still refuses a damaged file, and one of another model', async () => {
    const buf = file(100);
    const damaged = Buffer.from(buf);
    damaged[damaged.length - 100]! ^= 1;
    const none = async () => {};
    expect(await decodeVectorFile(damaged, header, none)).toMatchObject({ rejected: expect.stringContaining('checksum') });
    expect(await decodeVectorFile(buf.subarray(0, buf.length - 50), header, none)).toHaveProperty('rejected');
    expect(await decodeVectorFile(buf, { ...header, model: 'other' }, none)).toMatchObject({ rejected: expect.stringContaining('model') });
  });
});

/**
 * The persisted vectors grow with the home: a start checks the file a piece at a time and reads
 * each row when the fill asks for it, so the file is never held whole, not even during the fill.
 */
describe('a persisted vector file', () => {
  const home = tempHome();
  afterAll(() => removeHome(home));

  it('is read a piece at a time: its rows are there, the file is not held in memory', async () => {
    const path = join(home, 'builtin-vectors.bin');
    const rowCount = 120_000;
    const size = (() => {
      const buf = file(rowCount);
      writeFileSync(path, buf);
      return buf.length;
    })();
    expect(size).toBeGreaterThan(30 * 2 ** 20);
    const before = arrayBuffers();
    const rows = await new PersistedVectors(path).load(header);
    if (!rows) throw new Error('the file was refused');
    const held = arrayBuffers() - before;
    expect(rows.size).toBe(rowCount);
    // In the order a fill asks (the file's), and out of it.
    for (const i of [0, 1, 2, 65_432, 119_999, 3]) {
      const r = rows.get(`tr_${String(i).padStart(8, '0')}`)!;
      expect(r, `row ${i}`).toMatchObject({ userId: 'usr_a', tag: i * 7 });
      expect(r.components[5]).toBe(((i + 5) % 255) - 127);
      expect([...r.density]).toEqual([Math.fround(0.9), Math.fround(0.8)]);
    }
    expect(rows.get('tr_missing')).toBeUndefined();
    // Alone this holds ~6.8 MB of the 36 MB file; in the full suite buffers of the files run
    // before it in the same process moved it by ±4 MB (10.9 MB once against size / 4, 9 MB).
    expect(held, 'bytes held by the loaded rows').toBeLessThan(size / 3);
    await rows.close();
  }, 60_000);
});
