import { describe, expect, it } from 'vitest';
import { highlight } from '../../web/src/highlight.js';
import { replay } from '../../web/src/history.js';

describe('search hits', () => {
  it('marks each query word and the words it begins, case-insensitively', () => {
    expect(highlight('Flossing daily, said the dentist (floss!)', 'floss Dentist')).toEqual([
      { text: 'Flossing', hit: true },
      { text: ' daily, said the ', hit: false },
      { text: 'dentist', hit: true },
      { text: ' (', hit: false },
      { text: 'floss', hit: true },
      { text: '!)', hit: false },
    ]);
  });

  it('takes regular-expression characters in the query literally', () => {
    expect(highlight('a+b (c)', '(c) a+b')).toEqual([{ text: 'a+b (c)', hit: false }]);
    expect(
      highlight('cost $5.00', '$5.00')
        .filter((p) => p.hit)
        .map((p) => p.text),
    ).toEqual(['00']);
  });
});

describe('a trace’s history', () => {
  const created = { uid: 'tr_1', content: 'first', importance: 3, version: 1 };
  const versions = [
    {
      version: 2,
      timestamp: '2026-12-01T10:00:00Z',
      actor: 'us_1',
      patch: [
        { op: 'replace' as const, path: '/content', value: 'second' },
        { op: 'replace' as const, path: '/version', value: 2 },
      ],
    },
    { version: 1, timestamp: '2026-12-01T09:00:00Z', actor: 'us_1', patch: [{ op: 'add' as const, path: '', value: created }] },
    {
      version: 3,
      timestamp: '2026-12-01T11:00:00Z',
      actor: 'bot',
      patch: [
        { op: 'add' as const, path: '/notes', value: 'n' },
        { op: 'replace' as const, path: '/version', value: 3 },
      ],
    },
  ];

  it('replays the versions into the trace as it is now, without touching the input', () => {
    const { current } = replay(versions);
    expect(current).toEqual({ uid: 'tr_1', content: 'second', importance: 3, version: 3, notes: 'n' });
    expect(created.content).toBe('first');
  });

  it('lists the changes newest first, each field with its value before and after', () => {
    const { rows } = replay(versions);
    expect(rows.map((r) => r.version)).toEqual([3, 2, 1]);
    expect(rows[1]!.changes).toEqual([{ path: '/content', before: 'first', after: 'second' }]);
    expect(rows[0]!.changes).toContainEqual({ path: '/notes', before: undefined, after: 'n' });
    expect(rows[2]!.changes).toEqual([]);
  });
});
