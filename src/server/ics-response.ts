import { Readable } from 'node:stream';
import type { Context } from 'koa';
import type { IcsAnswer } from '../domain/calendar/export-ics.js';

/**
 * An iCalendar answer as a calendar app polls it: a strong ETag (the body's SHA-256) and
 * Last-Modified, and a Cache-Control that lets a client keep it and revalidate each time (it holds
 * a person's calendar, so no shared cache). The app's route handler answers 304 to a request whose
 * If-None-Match / If-Modified-Since still match. `modified` is read before the body is made, so a
 * change made meanwhile is never hidden behind it.
 */
export function icsResponse(ctx: Context, filename: string, answer: IcsAnswer, modified: Date): Buffer | Readable {
  ctx.set('Content-Disposition', `inline; filename="${filename}"`);
  ctx.set('Cache-Control', 'private, no-cache');
  ctx.etag = `"${answer.sha256}"`;
  ctx.lastModified = modified;
  // A stream is pulled as the client reads it, and dropped unread by a 304.
  return Buffer.isBuffer(answer.body) ? answer.body : Readable.from(answer.body, { objectMode: false });
}
