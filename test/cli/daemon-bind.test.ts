import { execFileSync } from 'node:child_process';
import { request } from 'node:https';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeHome, startDaemon, tempHome } from '../helpers/daemon.js';

const homes: string[] = [];
afterAll(() => homes.forEach(removeHome));

function selfSignedCert(dir: string): { cert: string; key: string } {
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=localhost'], {
    stdio: 'ignore',
  });
  return { cert, key };
}

/** A GET that accepts the self-signed certificate (its CN does not name 127.0.0.1). */
function httpsGet(url: string): Promise<{ status: number; body: string }> {
  return new Promise((ok, fail) => {
    const req = request(url, { rejectUnauthorized: false }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => ok({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', fail);
    req.end();
  });
}

describe('binding', () => {
  it('serves HTTPS with --tls-cert and --tls-key', async () => {
    const home = tempHome();
    homes.push(home);
    const { cert, key } = selfSignedCert(home);
    const d = await startDaemon({ home, args: ['--tls-cert', cert, '--tls-key', key] });
    try {
      expect(d.stdout()).toMatch(/^kairos listening on https:\/\/127\.0\.0\.1:\d+\n/);
      const r = await httpsGet(`https://127.0.0.1:${d.port}/health`);
      expect(r.status).toBe(200);
      expect(JSON.parse(r.body)).toEqual({ status: 'ok' });
    } finally {
      expect(await d.stop()).toBe(0);
    }
  });

  it('binds every interface with --insecure, and clients still find it on loopback', async () => {
    const home = tempHome();
    homes.push(home);
    const d = await startDaemon({ home, args: ['--host', '0.0.0.0', '--insecure'] });
    try {
      expect(d.stdout()).toMatch(/^kairos listening on http:\/\/0\.0\.0\.0:\d+\n/);
      expect((await d.api('GET', '/health')).status).toBe(200);
    } finally {
      await d.stop();
    }
  });
});
