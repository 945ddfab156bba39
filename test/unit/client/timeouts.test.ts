import { describe, expect, it } from 'vitest';
import { DEFAULT_TIMEOUT_MS, LONG_TIMEOUT_MS, timeoutFor, timeoutFromEnv } from '../../../src/client/timeouts.js';

describe('client timeouts', () => {
  it('gives ordinary requests 30 s and the long ones 5 min, unless configured', () => {
    expect(DEFAULT_TIMEOUT_MS).toBe(30_000);
    expect(timeoutFor('GET /memory/pull', undefined)).toBe(30_000);
    expect(timeoutFor('POST /agent/plan', undefined)).toBe(LONG_TIMEOUT_MS);
    expect(timeoutFor('POST /calendar/import', undefined)).toBe(LONG_TIMEOUT_MS);
    expect(timeoutFor('POST /agent/plan', 2000)).toBe(2000);
    expect(timeoutFor('GET /memory/pull', 0)).toBe(0);
  });

  it('reads KAIROS_TIMEOUT_MS as whole milliseconds and refuses anything else', () => {
    expect(timeoutFromEnv({})).toBeUndefined();
    expect(timeoutFromEnv({ KAIROS_TIMEOUT_MS: '' })).toBeUndefined();
    expect(timeoutFromEnv({ KAIROS_TIMEOUT_MS: ' 2500 ' })).toBe(2500);
    expect(timeoutFromEnv({ KAIROS_TIMEOUT_MS: '0' })).toBe(0);
    for (const bad of ['-1', '1.5', '30s', 'never', '99999999999'])
      expect(() => timeoutFromEnv({ KAIROS_TIMEOUT_MS: bad }), bad).toThrow(/KAIROS_TIMEOUT_MS must be a whole number/);
  });
});
