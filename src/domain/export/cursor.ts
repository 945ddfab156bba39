import { validationFailed } from '../../errors.js';

export type CursorKey = (string | number)[];

/**
 * An opaque page cursor: the export mode and the sort key of the last item of a page. The mode is
 * part of it, so a summary cursor handed to a full export is refused instead of misread.
 */
export function encodeCursor(mode: string, key: CursorKey): string {
  return Buffer.from(JSON.stringify([mode, ...key])).toString('base64url');
}

export function decodeCursor(mode: string, cursor: string, shape: ('string' | 'number')[]): CursorKey {
  try {
    const v: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(v) && v[0] === mode && v.length === shape.length + 1 && shape.every((t, i) => typeof v[i + 1] === t)) return v.slice(1) as CursorKey;
  } catch {
    // fall through to the 422 below
  }
  throw validationFailed(`The cursor is not one of this ${mode} export; pass next_cursor of the previous page as is, with the same export_format.`, [
    { path: 'cursor', message: 'invalid cursor' },
  ]);
}
