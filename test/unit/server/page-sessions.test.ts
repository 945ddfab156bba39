import { describe, expect, it } from 'vitest';
import { CODE_TTL_MS, csrfMatches, PageSessions } from '../../../src/server/web/page-sessions.js';

// Codes and sessions on a clock the test moves: a code dies after its minute, a session at its end.
function sessions() {
  let now = Date.parse('2031-01-01T00:00:00Z');
  const users = {
    tokenFor: async (userId: string) => ({
      token: `token-of-${userId}`,
      token_type: 'Bearer' as const,
      expires_at: new Date(now + 3_600_000).toISOString(),
      user_id: userId,
    }),
  };
  const s = new PageSessions({ clock: { now: () => new Date(now) }, users } as never);
  return { s, advance: (ms: number) => (now += ms) };
}

describe('page sessions', () => {
  it('a code works within its minute, once', () => {
    const { s, advance } = sessions();
    const a = s.newCode('usr_1');
    advance(CODE_TTL_MS - 1);
    expect(s.takeCode(a.code)).toBe('usr_1');
    expect(s.takeCode(a.code)).toBeUndefined();
    const b = s.newCode('usr_1');
    advance(CODE_TTL_MS);
    expect(s.takeCode(b.code)).toBeUndefined();
  });

  it('keeps at most 64 codes: a flood pushes out the oldest, not the memory', () => {
    const { s } = sessions();
    const first = s.newCode('usr_1');
    for (let i = 0; i < 64; i++) s.newCode('usr_1');
    expect(s.takeCode(first.code)).toBeUndefined();
  });

  it('a session ends at its expiry and at sign-out; its CSRF token is its own', async () => {
    const { s, advance } = sessions();
    const a = await s.open('usr_1');
    const b = await s.open('usr_1');
    expect(s.get(a.sid)?.userId).toBe('usr_1');
    expect(csrfMatches(a.session, a.session.csrf)).toBe(true);
    expect(csrfMatches(a.session, b.session.csrf)).toBe(false);
    expect(csrfMatches(a.session, undefined)).toBe(false);
    expect(s.end(b.sid)).toBe(true);
    expect(s.get(b.sid)).toBeUndefined();
    advance(3_600_000);
    expect(s.get(a.sid)).toBeUndefined();
  });
});
