import { rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppError } from '../../../src/errors.js';
import { resolveServer } from '../../../src/sync/oauth/server.js';
import { tempHome } from '../../helpers/daemon.js';
import { type HostileServer, startHostileServer } from '../../helpers/hostile-server.js';

/**
 * The OAuth module's requests go through the outbound client: a provider's answer is capped, and
 * under the address policy (here without the tests' KAIROS_OUTBOUND_ALLOW) a provider on loopback
 * is refused before any connection, an open port reading like a closed one.
 */
let s: HostileServer;
const home = tempHome();
beforeAll(async () => {
  s = await startHostileServer();
});
afterAll(async () => {
  await s?.close();
  rmSync(home, { recursive: true, force: true });
});
afterEach(() => {
  vi.unstubAllEnvs();
});

async function refusal(issuer: string): Promise<AppError> {
  const e = await resolveServer({ name: 'evil', issuer, client_id: 'kairos', scopes: ['openid'] }).then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(AppError);
  return e as AppError;
}

describe('OAuth requests', () => {
  it("cut a provider's gzip bomb at the cap", async () => {
    vi.stubEnv('KAIROS_HOME', home);
    const e = await refusal(`${s.base}/bomb`);
    expect(e.code).toBe('oauth_provider_unreachable');
    expect(e.message).toMatch(/more than \d+ bytes/);
  });

  it('refuse a provider on loopback without connecting, an open port reading like a closed one', async () => {
    vi.stubEnv('KAIROS_HOME', home);
    vi.stubEnv('KAIROS_OUTBOUND_ALLOW', '');
    const probe = createServer();
    await new Promise<void>((ok) => probe.listen(0, '127.0.0.1', () => ok()));
    const closedPort = (probe.address() as AddressInfo).port;
    await new Promise<void>((ok) => probe.close(() => ok()));
    const before = s.accepted();
    const open = await refusal(`${s.base}/status/403`);
    const closed = await refusal(`http://127.0.0.1:${closedPort}/status/403`);
    expect(s.accepted()).toBe(before);
    expect(open.code).toBe('oauth_provider_unreachable');
    const shape = (e: AppError) => ({ code: e.code, message: e.message.replace(/:\d+/g, ':PORT') });
    expect(shape(open)).toEqual(shape(closed));
  });
});
