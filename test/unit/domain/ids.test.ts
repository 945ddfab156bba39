import { describe, expect, it } from 'vitest';
import { newId } from '../../../src/domain/ids.js';

describe('newId', () => {
  it('ids made in one batch stay sortable and differ within the first 10 characters after the kind', () => {
    const now = Date.UTC(2031, 0, 7, 9, 0, 0);
    const batch = Array.from({ length: 50 }, () => newId('ev', now));
    expect([...batch].sort()).toEqual(batch);
    expect(new Set(batch.map((id) => id.slice(3, 13))).size).toBe(batch.length);
    for (const id of batch) expect(id).toMatch(/^ev_[0-9a-hjkmnp-tv-z]{26}$/);
  });
});
