import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { trustedDaemonState } from '../../../src/client/trusted-daemon.js';
import { bareHost, isLoopbackHost, isWildcardAddress } from '../../../src/platform/loopback.js';
import { hostAllowed, hostName } from '../../../src/server/middleware/host-check.js';
import { isLoopbackUrl } from '../../../src/sync/oauth/server.js';

const homes: string[] = [];
afterEach(() => {
  for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true });
});
function homeNaming(host: string): string {
  const h = mkdtempSync(join(tmpdir(), 'kairos-loopback-'));
  homes.push(h);
  writeFileSync(join(h, 'daemon.json'), JSON.stringify({ pid: 1, host, port: 7340, url: '', version: '0', started_at: '', tls: false }));
  return h;
}
/** How a host is written in a URL or a Host header. */
const inUrl = (h: string) => (h.includes(':') ? `[${h}]` : h);

const LOOPBACK = ['localhost', 'LOCALHOST', 'localhost.', '127.0.0.1', '127.1.2.3', '::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1'];
const ELSEWHERE = ['example.com', 'localhost.example.com', '10.0.0.1', '128.0.0.1', '::2', '::ffff:10.0.0.1', ''];

describe('the loopback predicates', () => {
  it.each(LOOPBACK)('%s is loopback to the daemon, its Host check, OAuth and the CLI alike', async (h) => {
    expect(isLoopbackHost(h)).toBe(true);
    expect(isLoopbackHost(inUrl(h))).toBe(true);
    expect(hostAllowed('example.org')(hostName(`${inUrl(h)}:7340`))).toBe(true);
    expect(isLoopbackUrl(`http://${inUrl(h)}:8080/token`)).toBe(true);
    expect((await trustedDaemonState(homeNaming(h), {}))?.host).toBe(h);
  });

  it.each(ELSEWHERE)('"%s" is not loopback', (h) => {
    expect(isLoopbackHost(h)).toBe(false);
    expect(hostAllowed('example.org')(hostName(`${inUrl(h)}:7340`))).toBe(false);
    if (h) expect(isLoopbackUrl(`http://${inUrl(h)}/`)).toBe(false);
  });

  it('knows the wildcard addresses in every spelling, and bares a host', () => {
    for (const h of ['0.0.0.0', '::', '[::]', '0:0:0:0:0:0:0:0']) expect(isWildcardAddress(h)).toBe(true);
    for (const h of ['0.0.0.1', '::1', 'localhost']) expect(isWildcardAddress(h)).toBe(false);
    expect(bareHost(' [::1] ')).toBe('::1');
    expect(bareHost('Example.COM.')).toBe('example.com');
  });
});
