import { expect } from 'vitest';
import type { ApiResult } from './daemon.js';

/** The SPEC's error envelope: status, stable code, a message, and the request's trace id in body and header. */
export function expectError(r: ApiResult, status: number, code: string): void {
  expect(r.status, r.text).toBe(status);
  expect(r.json?.error?.code, r.text).toBe(code);
  expect(typeof r.json.error.message).toBe('string');
  expect(r.json.error.message.length).toBeGreaterThan(0);
  expect(r.json.error.trace_id).toBeTruthy();
  expect(r.headers.get('x-trace-id')).toBe(r.json.error.trace_id);
}
