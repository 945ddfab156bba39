import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DavServer, davServerOf } from './dav-server.js';

/** Whether the Debian package `radicale` is installed (CalDAV tests skip with one line otherwise). */
export const HAS_RADICALE = spawnSync('radicale', ['--version'], { stdio: 'ignore' }).status === 0;

export type { DavServer };
export type Radicale = DavServer;

/** Radicale with htpasswd auth on a loopback port 0, in a temp folder; stopped by its pid. */
export async function startRadicale(): Promise<Radicale> {
  const dir = mkdtempSync(join(tmpdir(), 'kairos-radicale-'));
  const user = 'alice';
  const password = 'correct horse battery staple';
  writeFileSync(join(dir, 'users'), `${user}:${password}\n`);
  writeFileSync(
    join(dir, 'config'),
    [
      '[server]',
      'hosts = 127.0.0.1:0',
      '[auth]',
      'type = htpasswd',
      `htpasswd_filename = ${join(dir, 'users')}`,
      'htpasswd_encryption = plain',
      'delay = 0',
      '[storage]',
      `filesystem_folder = ${join(dir, 'collections')}`,
      '[rights]',
      'type = owner_only',
      '[logging]',
      'level = info',
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn('radicale', ['--config', join(dir, 'config')], { stdio: ['ignore', 'pipe', 'pipe'] });
  const port = await new Promise<number>((ok, fail) => {
    let out = '';
    const timer = setTimeout(() => fail(new Error(`radicale did not start: ${out}`)), 15_000);
    const onData = (b: Buffer) => {
      out += b;
      const m = /Listening on '\[?127\.0\.0\.1\]?:(\d+)'/.exec(out);
      if (m) {
        clearTimeout(timer);
        ok(Number(m[1]));
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => fail(new Error(`radicale exited (${code}): ${out}`)));
  });
  const base = `http://127.0.0.1:${port}`;
  return davServerOf({
    child,
    dir,
    base,
    user,
    password,
    headers: { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` },
    collection: (name) => `${base}/${user}/${name}/`,
    storage: (name) => join(dir, 'collections', 'collection-root', user, name),
  });
}

/**
 * An HTTP proxy in front of Radicale that counts the requests by method and can drop the
 * connection (the server "going away") once `failAfterWrites` writes (PUT/DELETE) have passed, or
 * refuse the sync-collection report (a server without RFC 6578).
 */
export async function startDavProxy(target: string) {
  const counts: Record<string, number> = {};
  const state = { failAfterWrites: Infinity, writes: 0, refuseSyncCollection: false };
  const server: Server = createServer(async (req, res) => {
    counts[req.method!] = (counts[req.method!] ?? 0) + 1;
    const write = req.method === 'PUT' || req.method === 'DELETE';
    if (write && state.writes++ >= state.failAfterWrites) {
      req.socket.destroy();
      return;
    }
    const parts: Buffer[] = [];
    for await (const b of req) parts.push(b as Buffer);
    const body = Buffer.concat(parts);
    // A server without RFC 6578: the report is refused, as servers that do not implement it answer.
    if (state.refuseSyncCollection && req.method === 'REPORT' && body.includes('sync-collection')) {
      res.writeHead(501).end('not implemented');
      return;
    }
    const t = new URL(target);
    const up = request({ host: t.hostname, port: t.port, method: req.method, path: req.url, headers: { ...req.headers, host: t.host } }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => res.destroy());
    up.end(body);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    counts,
    state,
    reset() {
      for (const k of Object.keys(counts)) delete counts[k];
    },
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

/** A calendar object as another CalDAV client would PUT it: one VEVENT of an hour. */
export const vevent = (uid: string, summary: string, start = '20310601T100000Z', extra: string[] = []) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//other client//EN',
    'BEGIN:VEVENT',
    `UID:${uid}`,
    'DTSTAMP:20250101T000000Z',
    `DTSTART:${start}`,
    'DURATION:PT1H',
    `SUMMARY:${summary}`,
    ...extra,
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');
