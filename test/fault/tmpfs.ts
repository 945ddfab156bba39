import { execFileSync } from 'node:child_process';
import { closeSync, fstatSync, ftruncateSync, mkdtempSync, openSync, rmdirSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A small tmpfs to play "disk full" for real: the kernel refuses writes with ENOSPC (short writes
 * included) exactly as a full disk does. Mounting needs root (or a user namespace); without it the
 * caller skips with `reason`.
 */
export function mountTmpfs(sizeKiB: number): { dir?: string; reason?: string } {
  const dir = mkdtempSync(join(tmpdir(), 'kairos-tmpfs-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeKiB}k,mode=0700`, 'tmpfs', dir], { stdio: 'pipe' });
    return { dir };
  } catch (e) {
    rmdirSync(dir);
    return {
      reason: `cannot mount a tmpfs here (${
        String((e as { stderr?: Buffer }).stderr ?? e)
          .trim()
          .split('\n')[0]
      })`,
    };
  }
}

export function unmountTmpfs(dir: string): void {
  execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
  rmdirSync(dir);
}

/** A file that eats the free space of its file system; `free` gives some back, `fill` takes it all again. */
export class Filler {
  private readonly fd: number;
  constructor(readonly path: string) {
    this.fd = openSync(path, 'w');
  }

  /** Write until the file system says ENOSPC. */
  fill(): void {
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    for (let size = chunk.length; size >= 512; size = size >> 1) {
      for (;;) {
        try {
          const n = writeSync(this.fd, chunk, 0, size, fstatSync(this.fd).size);
          if (n < size) break;
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code === 'ENOSPC') break;
          throw e;
        }
      }
    }
  }

  /** Give `bytes` back to the file system. */
  free(bytes: number): void {
    const size = fstatSync(this.fd).size;
    ftruncateSync(this.fd, Math.max(0, size - bytes));
  }

  remove(): void {
    closeSync(this.fd);
    unlinkSync(this.path);
  }
}
