import { describe, expect, it } from 'vitest';
import { appCliEnv, runCliInProcess } from '../helpers/cli-in-process.js';
import { useApp } from '../helpers/in-process.js';

// The daemon's raw validation answers become sentences naming the flag or field, with an example
// (issue 19); --json still prints the API's envelope as it is.
const d = useApp();
const kairos = (args: string[], input?: string) => runCliInProcess(args, { env: appCliEnv(d), ...(input !== undefined ? { input } : {}) });

describe('validation errors on the command line', () => {
  it('a query field is said of its flag, with the value given and an example', async () => {
    const r = await kairos(['trace', 'pull', '--type', 'musing']);
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/^kairos: --type: "musing" must be one of .*\(e\.g\. --type observation\)\.\n$/);
    const json = await kairos(['--json', 'trace', 'pull', '--type', 'musing']);
    expect(JSON.parse(json.stderr).error).toMatchObject({ code: 'validation_failed', details: [{ path: 'type' }] });
  });

  it('a field of a pushed trace is said of the trace (counted from 1), with an example', async () => {
    const r = await kairos(['trace', 'push', '-'], '{"type":"goal","content":"x","importance":9}\n{"type":"goal","task_id":5,"content":"y"}\n');
    expect(r.code).toBe(6);
    expect(r.stderr).toBe(
      [
        'kairos: trace 1: task_id is missing (e.g. "task_id": "marathon").',
        'kairos: trace 1: importance must be at most 5 (e.g. "importance": 3).',
        'kairos: trace 2: task_id must be text, not a number (e.g. "task_id": "marathon").',
        '',
      ].join('\n'),
    );
  });
});
