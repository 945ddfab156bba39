import { describe, expect, it } from 'vitest';
import { shortIds } from '../../../../src/cli/input/resolve-id.js';

describe('shortIds', () => {
  it('the shortest prefix that tells each id apart, at least the kind and 6 characters; custom uids whole', () => {
    const a = 'pl_01jq3k5mzr4d8a1bq6wvx0c2ke';
    const b = 'pl_01jq3k5mzr4d8a1bq6wvx0c2kf'; // same millisecond: differs only at the end
    const c = 'pl_01jz9w0000000000000000000a';
    const m = shortIds([a, b, c, 'my-note-1']);
    expect(m.get(a)).toBe(a);
    expect(m.get(b)).toBe(b);
    expect(m.get(c)).toBe('pl_01jz9w');
    expect(m.get('my-note-1')).toBe('my-note-1');
    expect(shortIds(['ev_01jq3k5mzr4d8a1bq6wvx0c2ke']).get('ev_01jq3k5mzr4d8a1bq6wvx0c2ke')).toBe('ev_01jq3k');
  });
});
