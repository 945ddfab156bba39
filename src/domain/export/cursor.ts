import { z } from 'zod';
import { validationFailed } from '../../errors.js';
import { decodeCursor as decodePosition, encodeCursor as encodePosition } from '../page-cursor.js';

export type CursorKey = (string | number)[];

/**
 * An opaque page cursor: the export mode and the sort key of the last item of a page. The mode is
 * part of it, so a summary cursor handed to a full export is refused instead of misread.
 */
export function encodeCursor(mode: string, key: CursorKey): string {
  return encodePosition([mode, ...key]);
}

export function decodeCursor(mode: string, cursor: string, shape: ('string' | 'number')[]): CursorKey {
  const items = shape.map((t) => (t === 'string' ? z.string() : z.number()));
  const position = z.tuple([z.literal(mode), ...items] as [z.ZodLiteral<string>, ...z.ZodType<string | number>[]]);
  const refuse = () =>
    validationFailed(`The cursor is not one of this ${mode} export; pass next_cursor of the previous page as is, with the same export_format.`, [
      { path: 'cursor', message: 'invalid cursor' },
    ]);
  return decodePosition(cursor, position, refuse).slice(1) as CursorKey;
}
