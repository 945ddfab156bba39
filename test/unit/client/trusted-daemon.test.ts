import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { trustedDaemonState } from '../../../src/client/trusted-daemon.js';
import type { AppError } from '../../../src/errors.js';

const homes: string[] = [];
afterEach(() => {
  for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true });
});

function home(host: string, config?: object): string {
  const h = mkdtempSync(join(tmpdir(), 'kairos-trust-'));
  homes.push(h);
  writeFileSync(join(h, 'daemon.json'), JSON.stringify({ pid: 1, host, port: 7340, url: '', version: '0', started_at: '', tls: false }));
  if (config) writeFileSync(join(h, 'config.json'), JSON.stringify(config));
  return h;
}

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: AppError) => e.code,
  );

describe('trustedDaemonState', () => {
  it.each(['127.0.0.1', '127.3.4.5', 'localhost', 'LOCALHOST', '::1', '[::1]', '0.0.0.0', '::'])('trusts %s (this machine)', async (host) => {
    expect((await trustedDaemonState(home(host), {}))?.host).toBe(host);
  });

  it("trusts an address of one of this machine's interfaces", async () => {
    const own = Object.values(networkInterfaces())
      .flat()
      .find((a) => a && !a.internal)?.address;
    if (!own) return;
    expect((await trustedDaemonState(home(own), {}))?.host).toBe(own);
  });

  it('refuses any other host, unless it is the configured one (KAIROS_HOST, else config.json host)', async () => {
    expect(await refusal(trustedDaemonState(home('192.0.2.1'), {}))).toBe('daemon_untrusted');
    expect(await refusal(trustedDaemonState(home('evil.example'), {}))).toBe('daemon_untrusted');
    expect(await refusal(trustedDaemonState(home('evil.example', { host: 'other.example' }), {}))).toBe('daemon_untrusted');
    expect((await trustedDaemonState(home('kairos.lan', { host: 'kairos.lan' }), {}))?.host).toBe('kairos.lan');
    expect((await trustedDaemonState(home('kairos.lan'), { KAIROS_HOST: 'kairos.lan' }))?.host).toBe('kairos.lan');
  });

  it('refuses a daemon.json without a host string, and reads nothing from a home others may change', async () => {
    const h = home('127.0.0.1');
    writeFileSync(join(h, 'daemon.json'), JSON.stringify({ pid: 1, port: 7340 }));
    expect(await refusal(trustedDaemonState(h, {}))).toBe('daemon_untrusted');
    const open = home('127.0.0.1');
    chmodSync(open, 0o750);
    expect(await refusal(trustedDaemonState(open, {}))).toBe('home_untrusted');
  });

  it('a home with no daemon.json, or no home yet, has no daemon', async () => {
    const h = mkdtempSync(join(tmpdir(), 'kairos-trust-'));
    homes.push(h);
    expect(await trustedDaemonState(h, {})).toBeUndefined();
    expect(await trustedDaemonState(join(h, 'not-yet'), {})).toBeUndefined();
  });
});
