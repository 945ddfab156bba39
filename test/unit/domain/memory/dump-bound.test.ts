import { describe, expect, it } from 'vitest';
import type { StoredTrace } from '../../../../src/contracts/memory.js';
import { dumpTraces, MAX_DUMP_CHARS } from '../../../../src/domain/memory/dump.js';
import { AppError } from '../../../../src/errors.js';

/** One 100,000-character text shared by every trace: the test holds it once. */
const TEXT = 'a'.repeat(100_000);
const trace = (i: number): StoredTrace =>
  ({
    uid: `t${i}`,
    task_id: 'meetings',
    content: TEXT,
    timestamp: `2031-01-01T00:00:${String(i % 60).padStart(2, '0')}Z`,
    linked_trace_ids: [],
    child_trace_ids: [],
  }) as unknown as StoredTrace;

describe('trace dump', () => {
  it('answers a task whose text fits', () => {
    const traces = Array.from({ length: 10 }, (_, i) => trace(i));
    expect(dumpTraces(traces, { task_id: 'meetings' }).traces).toHaveLength(10);
  });

  it('refuses a task with more text than one answer holds: 413 dump_too_large, saying how to read it', () => {
    const n = Math.ceil(MAX_DUMP_CHARS / TEXT.length) + 1;
    const traces = Array.from({ length: n }, (_, i) => trace(i));
    let err: unknown;
    try {
      dumpTraces(traces, { task_id: 'meetings' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ status: 413, code: 'dump_too_large' });
    expect((err as Error).message).toMatch(/trace_uid/);
    expect((err as Error).message).toMatch(/cursor/);
  });
});
