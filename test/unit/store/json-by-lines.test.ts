import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JsonFileError, readJsonByLines } from '../../../src/store/json-by-lines.js';
import { jsonInSlices } from '../../../src/store/json-in-slices.js';
import { removeHome, tempHome } from '../../helpers/daemon.js';

const home = tempHome();
afterAll(() => removeHome(home));
let n = 0;
const file = (text: string) => {
  const path = join(home, `f${n++}.json`);
  writeFileSync(path, text);
  return path;
};

const value = {
  schema_version: 2,
  journal_seq: 7,
  meta: { a: { b: [1, 'two', null] }, e: {}, __proto__x: 1 },
  collections: {
    traces: [
      { uid: 't1', content: 'line\nbreak } ] {', tags: ['a'] },
      { uid: 't2', nested: { deep: [{ x: '"' }] } },
    ],
    empty: [],
  },
};

describe('readJsonByLines', () => {
  it('reads the snapshot layout (one document per line)', async () => {
    const parts = await jsonInSlices(value, { compactValues: true });
    expect(await readJsonByLines(file(Buffer.concat(parts).toString()))).toEqual(value);
  });

  it('reads any pretty-printed JSON and a file on one line', async () => {
    for (const indent of [0, 1, 2, 4]) expect(await readJsonByLines(file(JSON.stringify(value, null, indent)))).toEqual(value);
  });

  it('keeps a "__proto__" member as JSON.parse does (an own property, the prototype untouched)', async () => {
    const got = (await readJsonByLines(file('{\n "__proto__": {\n  "polluted": 1\n }\n}\n'))) as Record<string, unknown>;
    expect(got).toEqual(JSON.parse('{"__proto__": {"polluted": 1}}'));
    expect(Object.getPrototypeOf(got)).toBe(Object.prototype);
  });

  it('refuses a truncated or damaged file with the line or the reason', async () => {
    const whole = Buffer.concat(await jsonInSlices(value, { compactValues: true })).toString();
    await expect(readJsonByLines(file(whole.slice(0, whole.length - 10)))).rejects.toThrow(JsonFileError);
    await expect(readJsonByLines(file(whole.replace('"t2"', '"t2')))).rejects.toThrow(/not valid JSON/);
    await expect(readJsonByLines(file(`${whole}{}\n`))).rejects.toThrow(JsonFileError);
  });
});
