// How long a large CalDAV multistatus (under the outbound client's 10 MiB cap) holds the daemon's
// event loop: tsdav's parse on the main thread, and on the CalDAV thread (src/sync/dav-thread.ts)
// that the connector uses. Run: npm run build && node bench/caldav-multistatus.mjs
import { createServer } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { propfind } from 'tsdav';
import { DavThread } from '../dist/sync/dav-thread.js';
import { createOutboundClient } from '../dist/sync/outbound/outbound-client.js';

function multistatus(bytes) {
  const parts = ['<?xml version="1.0" encoding="utf-8"?>\n<d:multistatus xmlns:d="DAV:">\n'];
  let size = parts[0].length;
  for (let i = 0; size < bytes; i++) {
    const r = `<d:response><d:href>/cal/event-${i}.ics</d:href><d:propstat><d:prop><d:getetag>"etag-${i}"</d:getetag></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>\n`;
    parts.push(r);
    size += r.length;
  }
  parts.push('</d:multistatus>\n');
  return Buffer.from(parts.join(''));
}

const sizes = [1, 5, 9.9].map((mib) => Math.floor(mib * 1024 * 1024));
const bodies = new Map(sizes.map((b) => [b, multistatus(b)]));
const server = createServer((req, res) => {
  req.resume();
  res.writeHead(207, { 'content-type': 'application/xml' }).end(bodies.get(Number(req.url.split('/')[1])));
});
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const base = `http://127.0.0.1:${server.address().port}`;
const outbound = { allowHosts: ['127.0.0.1'] };
const client = createOutboundClient(outbound);
const thread = new DavThread(outbound);
const ways = {
  'main thread': (p) => propfind({ ...p, fetch: (u, i) => client.fetch(u, i) }),
  'CalDAV thread': (p) => thread.call('propfind', p),
};
for (const bytes of sizes) {
  for (const [way, run] of Object.entries(ways)) {
    // The longest gap between ticks of a 10 ms timer, one tick after the answer included.
    let last = performance.now();
    let stall = 0;
    const tick = setInterval(() => {
      const now = performance.now();
      stall = Math.max(stall, now - last - 10);
      last = now;
    }, 10);
    const t0 = performance.now();
    const rs = await run({ url: `${base}/${bytes}/`, depth: '1', props: { 'd:getetag': {} } });
    const ms = performance.now() - t0;
    await sleep(30);
    clearInterval(tick);
    console.log(`${(bytes / 1048576).toFixed(1)} MiB, ${way}: ${rs.length} responses in ${ms.toFixed(0)} ms; longest event-loop stall ${stall.toFixed(0)} ms`);
  }
}
server.close();
process.exit(0);
