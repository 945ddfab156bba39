import { createHash } from 'node:crypto';
import type { Context } from 'koa';

/**
 * An iCalendar body as a calendar app polls it: a strong ETag (the body's SHA-256) and
 * Last-Modified, and a Cache-Control that lets a client keep it and revalidate each time (it holds
 * a person's calendar, so no shared cache). The app's route handler answers 304 to a request whose
 * If-None-Match / If-Modified-Since still match. `modified` is read before the body is made, so a
 * change made meanwhile is never hidden behind it.
 */
export function icsResponse(ctx: Context, filename: string, body: Buffer, modified: Date): Buffer {
  ctx.set('Content-Disposition', `inline; filename="${filename}"`);
  ctx.set('Cache-Control', 'private, no-cache');
  ctx.etag = `"${createHash('sha256').update(body).digest('base64url')}"`;
  ctx.lastModified = modified;
  return body;
}
