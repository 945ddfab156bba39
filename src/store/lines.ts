import { open } from 'node:fs/promises';

/** Bytes read from the file at a time. */
const CHUNK_BYTES = 1 << 20;

/** A line longer than the reader takes: the file is not laid out one record per line. */
export class LineTooLongError extends Error {
  constructor(
    readonly line: number,
    readonly maxBytes: number,
  ) {
    super(`line ${line} is longer than ${maxBytes} bytes`);
  }
}

/**
 * Call `fn` with each line of a file (without its `\n`), its number (from 1) and the byte offset
 * where it starts, reading a chunk at a time: a file of any size is read in the memory of its
 * longest line, never as one string (V8 refuses strings past ~512 MiB). A last line without a
 * newline is a line too; the empty piece after a final newline is not. A line past `maxLineBytes` throws LineTooLongError before it is built.
 * `onRead` learns how many bytes each chunk brought (progress of a long read).
 */
export async function forEachLine(
  path: string,
  maxLineBytes: number,
  fn: (line: string, n: number, offset: number) => void,
  onRead?: (bytes: number) => void,
): Promise<void> {
  const fh = await open(path, 'r');
  try {
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    /** Pieces of the line under way that earlier chunks held. */
    let carry: Buffer[] = [];
    let carryBytes = 0;
    let lineStart = 0;
    let n = 1;
    let filePos = 0;
    for (;;) {
      const { bytesRead } = await fh.read(chunk, 0, CHUNK_BYTES, filePos);
      if (bytesRead === 0) break;
      onRead?.(bytesRead);
      let at = 0;
      while (at < bytesRead) {
        const nl = chunk.indexOf(10, at);
        const end = nl === -1 || nl >= bytesRead ? bytesRead : nl;
        if (carryBytes + end - at > maxLineBytes) throw new LineTooLongError(n, maxLineBytes);
        if (end === bytesRead) {
          // The line goes on in the next chunk: keep a copy of this piece (the chunk is reused).
          carry.push(Buffer.from(chunk.subarray(at, end)));
          carryBytes += end - at;
          break;
        }
        const text = carryBytes ? Buffer.concat([...carry, chunk.subarray(at, end)]).toString('utf8') : chunk.toString('utf8', at, end);
        carry = [];
        carryBytes = 0;
        fn(text, n++, lineStart);
        at = end + 1;
        lineStart = filePos + at;
      }
      filePos += bytesRead;
    }
    if (carryBytes) fn(Buffer.concat(carry).toString('utf8'), n, lineStart);
  } finally {
    await fh.close();
  }
}
