import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOAuth } from '../../src/sync/oauth/index.js';
import { browse } from '../helpers/browser.js';
import { removeHome, startDaemon, type TestDaemon, tempHome } from '../helpers/daemon.js';
import { startAuthServer, type TestAuthServer } from '../helpers/oauth-server.js';

/**
 * OAuth secrets stay in `<home>/oauth/`: a daemon running on a home that holds a grant and a
 * client secret shows neither in an export, a trace dump, the calendar feed, its log or its
 * output, and no other file of the home holds them (issue 21, Secrets).
 */

let as: TestAuthServer;
let d: TestDaemon;
let secrets: string[];
beforeAll(async () => {
  as = await startAuthServer();
  const home = tempHome();
  const oauth = createOAuth({ home });
  await oauth.authorize(
    { name: 'work', issuer: as.issuer, client_id: as.confidentialClient.id, client_secret: as.confidentialClient.secret, scopes: ['openid', 'offline_access'] },
    {
      owner: 'usr_owner',
      mode: 'loopback',
      prompt: () => {},
      openUrl: async (url) => {
        void browse(url, { login: 'alice', password: 'any' });
        return true;
      },
    },
  );
  const f = JSON.parse(readFileSync(join(home, 'oauth', 'work.json'), 'utf8'));
  secrets = [f.grant.access_token, f.grant.refresh_token, as.confidentialClient.secret];
  d = await startDaemon({ home, env: { DEBUG: 'true' } });
  const r = await d.api('POST', '/memory/push', {
    body: { traces: [{ uid: 'note', type: 'observation', task_id: 'sync', timestamp: '2031-02-03T09:00:00Z', content: 'calendar sync set up' }] },
  });
  expect(r.status, r.text).toBe(201);
});
afterAll(async () => {
  await d?.stop();
  if (d) removeHome(d.home);
  await as?.close();
});

describe('OAuth secrets', () => {
  it('appear in no export, trace dump or calendar feed', async () => {
    const answers = await Promise.all([
      d.api('GET', `/context/export?user_id=${d.userId}&export_format=full`),
      d.api('POST', '/debug/trace-dump', { body: { trace_uid: 'note' } }),
      d.api('GET', '/calendar/export.ics'),
      d.api('GET', '/agent/status'),
    ]);
    for (const r of answers) {
      expect(r.status, r.text).toBe(200);
      for (const s of secrets) expect(r.text).not.toContain(s);
    }
  });

  it('appear in no file of the home but the 0600 account file, nor in the daemon output', async () => {
    await d.stop();
    const files = readdirSync(d.home, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    const holding = files
      .filter((e) => secrets.some((s) => readFileSync(join(e.parentPath, e.name), 'latin1').includes(s)))
      .map((e) => relative(d.home, join(e.parentPath, e.name)));
    expect(holding).toEqual(['oauth/work.json']);
    expect(statSync(join(d.home, 'oauth', 'work.json')).mode & 0o777).toBe(0o600);
    for (const s of secrets) expect(d.stdout() + d.stderr()).not.toContain(s);
  });
});
