import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

/** What became of a body read under a byte cap. */
export type BodyResult = { ok: true; body: Buffer } | { ok: false; reason: 'too_large' | 'broken' };

/**
 * Reads a response body, inflating gzip, deflate and br, and stops at `maxBytes` of the wire bytes
 * or of the inflated ones, whichever comes first: a small gzip bomb is cut where its output passes
 * the cap, not after it fills memory. Every early stop destroys the response, which closes its
 * socket. The caller's deadline destroys `res` too, which ends this read as `broken`.
 */
export function readCapped(res: IncomingMessage, maxBytes: number): Promise<BodyResult> {
  return new Promise((resolve) => {
    const declared = Number(res.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) {
      res.destroy();
      return resolve({ ok: false, reason: 'too_large' });
    }
    let stream: Readable = res;
    const decoders: Readable[] = [];
    for (const enc of codings(res.headers['content-encoding'])) {
      const d = enc === 'gzip' || enc === 'x-gzip' ? createGunzip() : enc === 'deflate' ? createInflate() : enc === 'br' ? createBrotliDecompress() : null;
      if (!d) continue;
      stream = stream.pipe(d);
      decoders.push(d);
    }
    let settled = false;
    const finish = (r: BodyResult) => {
      if (settled) return;
      settled = true;
      if (!r.ok) {
        res.destroy();
        for (const d of decoders) d.destroy();
      }
      resolve(r);
    };
    let wire = 0;
    res.on('data', (b: Buffer) => {
      wire += b.length;
      if (wire > maxBytes) finish({ ok: false, reason: 'too_large' });
    });
    const parts: Buffer[] = [];
    let size = 0;
    if (stream !== res) stream.on('data', (b: Buffer) => collect(b));
    else res.on('data', (b: Buffer) => collect(b));
    function collect(b: Buffer) {
      if (settled) return;
      size += b.length;
      if (size > maxBytes) return finish({ ok: false, reason: 'too_large' });
      parts.push(b);
    }
    stream.on('end', () => finish({ ok: true, body: Buffer.concat(parts) }));
    for (const s of [res, ...decoders]) s.on('error', () => finish({ ok: false, reason: 'broken' }));
    res.on('close', () => {
      if (!res.complete) finish({ ok: false, reason: 'broken' });
    });
  });
}

/** The content codings of a response, in the order they must be undone. */
function codings(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s && s !== 'identity')
    .reverse();
}
