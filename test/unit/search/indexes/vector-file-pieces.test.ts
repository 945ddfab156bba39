import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { crc32 } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeHead, encodeRows, encodeTrailer, type VectorFileHeader } from '../../../../src/search/indexes/vector-file.js';
import type { RawRow } from '../../../../src/search/indexes/vector-index.js';
import { PersistedVectors } from '../../../../src/search/indexes/vector-persistence.js';
import { removeHome, tempHome } from '../../../helpers/daemon.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const arrayBuffers = () => {
  gc();
  return process.memoryUsage().arrayBuffers;
};

/**
 * The persisted vectors of a large home are hundreds of MB (a million traces): a start checks
 * the file a piece at a time and reads each row when the fill asks for it, so the file is never
 * held whole. Held whole, the rows' buffer stayed in memory for the whole fill.
 */
const header: VectorFileHeader = { model: 'test-model', dims: 256, revision: 1 };
const ROWS = 120_000;
const home = tempHome();
afterAll(() => removeHome(home));

const row = (i: number): RawRow => ({
  uid: `tr_${String(i).padStart(8, '0')}`,
  userId: 'usr_a',
  tag: i * 7,
  scale: 0.01,
  components: Int8Array.from({ length: header.dims }, (_, d) => ((i + d) % 255) - 127),
  density: Float32Array.of(0.9, 0.8),
});

function writeFile(file: string): number {
  const head = encodeHead(header);
  let crc = crc32(head);
  const parts = [head];
  for (let i = 0; i < ROWS; i += 10_000) {
    const body = encodeRows(
      Array.from({ length: 10_000 }, (_, j) => row(i + j)),
      header.dims,
    );
    crc = crc32(body, crc);
    parts.push(body);
  }
  parts.push(encodeTrailer(ROWS, crc32(encodeTrailer(ROWS, 0).subarray(0, 4), crc)));
  const buf = Buffer.concat(parts);
  writeFileSync(file, buf);
  return buf.length;
}

describe('a persisted vector file', () => {
  it('is read a piece at a time: its rows are there, the file is not held in memory', async () => {
    const file = join(home, 'builtin-vectors.bin');
    const size = writeFile(file);
    expect(size).toBeGreaterThan(30 * 2 ** 20);
    const before = arrayBuffers();
    const rows = await new PersistedVectors(file).load(header);
    if (!rows) throw new Error('the file was refused');
    const held = arrayBuffers() - before;
    expect(rows.size).toBe(ROWS);
    // In the order a fill asks (the file's), and out of it.
    for (const i of [0, 1, 2, 65_432, 119_999, 3]) {
      const r = rows.get(row(i).uid)!;
      expect(r, `row ${i}`).toMatchObject({ userId: 'usr_a', tag: i * 7 });
      expect(r.components[5]).toBe(((i + 5) % 255) - 127);
      expect([...r.density]).toEqual([Math.fround(0.9), Math.fround(0.8)]);
    }
    expect(rows.get('tr_missing')).toBeUndefined();
    expect(held, 'bytes held by the loaded rows').toBeLessThan(size / 4);
    await rows.close();
  }, 60_000);
});
