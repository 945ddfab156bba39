import { expect } from 'vitest';
import { PAGE_BYTES } from '../../src/contracts/page.js';
import type { TestDaemon } from './daemon.js';

/**
 * Every page of a paged listing from the first, following `next_cursor`: each answers 200 within
 * PAGE_BYTES, and there are fewer than `maxPages` (a cursor that never ends fails instead of
 * looping). `key` names the answer's array.
 */
export async function everyPage<T>(d: Pick<TestDaemon, 'api'>, path: string, key: string, maxPages: number): Promise<{ pages: number; items: T[] }> {
  const items: T[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const r = await d.api('GET', cursor ? `${path}${path.includes('?') ? '&' : '?'}cursor=${cursor}` : path);
    expect(r.status, r.text.slice(0, 300)).toBe(200);
    expect(Buffer.byteLength(r.text)).toBeLessThanOrEqual(PAGE_BYTES);
    items.push(...(r.json[key] as T[]));
    cursor = r.json.next_cursor ?? undefined;
    expect(++pages).toBeLessThan(maxPages);
  } while (cursor);
  return { pages, items };
}
