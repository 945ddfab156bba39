import { z } from 'zod';

/**
 * The most bytes of JSON the items of one page carry (pull, history, events, export). A page is
 * built as one string and sent as one buffer: by count alone, 1,000 traces of 100,000 characters
 * would be hundreds of MB in one string, close to V8's limit and that much memory per request.
 * 4 MiB keeps the serialisation of a page to a few ms of one turn, yet holds a dozen of the
 * longest traces (three bytes a character); the caller goes on with next_cursor.
 */
export const PAGE_BYTES = 4 * 1024 * 1024;

/** The budget as the API's descriptions say it. */
export const PAGE_SIZE_TEXT = `${PAGE_BYTES / 1024 / 1024} MiB of JSON`;

/** The `cursor` of a paged GET: where the previous page ended. */
export const PageCursor = z.string().max(1000).optional().describe('next_cursor of the previous page');

/** The `next_cursor` of a paged answer. */
export const NextCursor = z.string().nullable().describe(`null on the last page; a page ends before ${PAGE_SIZE_TEXT} (a larger item comes alone)`);
