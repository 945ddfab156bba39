import type { z } from 'zod';
import { validationFailed } from '../errors.js';

/** An opaque cursor: the position of the last item of a page (a small JSON array), encoded. */
export const encodeCursor = (position: readonly (string | number)[]): string => Buffer.from(JSON.stringify(position)).toString('base64url');

/**
 * The position a cursor of `encodeCursor` holds, checked against its shape; any other text is
 * refused with `refuse()` (the 422 of invalidCursor unless the listing says more).
 */
export function decodeCursor<T>(cursor: string, shape: z.ZodType<T>, refuse: () => Error = invalidCursor): T {
  try {
    const v = shape.safeParse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
    if (v.success) return v.data;
  } catch {
    // fall through to the refusal below
  }
  throw refuse();
}

/** The 422 of a cursor this server did not make for this listing. */
export const invalidCursor = () =>
  validationFailed('The cursor is not one this server made; pass next_cursor of the previous page as is.', [{ path: 'cursor', message: 'invalid cursor' }]);
