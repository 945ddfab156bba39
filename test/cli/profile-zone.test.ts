import { beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, runCli, useDaemon } from '../helpers/daemon.js';

// Whatever a person reads is in the profile's zone (Berlin here, UTC+1 in January) and says so,
// whatever the terminal's TZ; --json stays ISO UTC.

const d = useDaemon();
const kairos = (args: string[]) => runCli(args, { env: cliEnv(d, { TZ: 'UTC' }) });
let uid = '';
let name = '';
beforeAll(async () => {
  const p = await d.api('PATCH', '/user/update', { body: { user_id: d.userId, updates: { timezone: 'Europe/Berlin', display_name: 'Ada' } } });
  expect(p.status, p.text).toBe(200);
  name = p.json.display_name;
  const r = await d.api('POST', '/memory/push', {
    body: { traces: [{ type: 'observation', task_id: 'zones', content: 'slept badly', timestamp: '2031-01-10T08:00:00Z' }] },
  });
  expect(r.status, r.text).toBeLessThan(300);
  uid = r.json.saved[0].uid;
});

describe('times a person reads are in the profile’s zone', () => {
  it('trace history: local time with the zone, and the person’s name instead of a user id', async () => {
    const h = await kairos(['trace', 'history', uid]);
    expect(h.code, h.stderr).toBe(0);
    expect(h.stdout).toMatch(/v1 .*Europe\/Berlin {2}by Ada/);
    expect(h.stdout).not.toContain(d.userId);
    expect(name).toBe('Ada');
  });

  it('export: the summary’s times are Berlin’s (a terminal also gets the zone’s name); --json stays UTC', async () => {
    const r = await kairos(['export', '--format', 'summary']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^2031-01-10 09:00\tobservation\tzones/m);
    const j = JSON.parse((await kairos(['--json', 'export', '--format', 'summary'])).stdout);
    expect(JSON.stringify(j)).toContain('2031-01-10T08:00:00.000Z');
  });
});
