import { describe, expect, it } from 'vitest';
import { projectTrace, stripSensitive } from '../../../../src/domain/export/redact.js';

describe('stripSensitive (the last filter of every export)', () => {
  it('drops authored_by and chat_url at any depth, arrays and groups included', () => {
    const body = {
      authored_by: 'x',
      groups: [{ key: 'k', results: [{ uid: 'a', chat_url: 'https://c', fields: { chat_url: 'deep', keep: 1 }, authored_by: 'agent' }] }],
    };
    const out = stripSensitive(body);
    expect(JSON.stringify(out)).not.toMatch(/authored_by|chat_url|https:\/\/c|deep|agent/);
    expect(out.groups[0]!.results[0]).toEqual({ uid: 'a', fields: { keep: 1 } });
  });

  it('drops patch operations that point at a sensitive field', () => {
    const patch = [
      { op: 'replace', path: '/chat_url', value: 'https://c' },
      { op: 'add', path: '/fields/authored_by', value: 'a' },
      { op: 'move', from: '/chat_url', path: '/x' },
      { op: 'replace', path: '/content', value: 'kept' },
    ];
    expect(stripSensitive({ changed: [{ uid: 'a', patch }] })).toEqual({
      changed: [{ uid: 'a', patch: [{ op: 'replace', path: '/content', value: 'kept' }] }],
    });
  });

  it('does not touch its input (stored documents are frozen)', () => {
    const doc = Object.freeze({ uid: 'a', chat_url: 'x' });
    expect(stripSensitive(doc)).toEqual({ uid: 'a' });
    expect(doc.chat_url).toBe('x');
  });
});

describe('projectTrace', () => {
  const t = { uid: 'a', content: 'c', authored_by: 'me', chat_url: 'u', feedback_rating: 4, notes: 'n' };
  it('hides feedback unless asked', () => {
    expect(projectTrace(t, false)).toEqual({ uid: 'a', content: 'c' });
    expect(projectTrace(t, true)).toEqual({ uid: 'a', content: 'c', feedback_rating: 4, notes: 'n' });
  });
});
