import type { Logger } from 'pino';
import { OPENING_EVERY_MS, OPENING_STORE } from '../config/daemon-state.js';

const mb = (bytes: number) => Math.round(bytes / 2 ** 20);

/**
 * The store's `loading` callback for a daemon: from OPENING_EVERY_MS after the open began, a log
 * line each OPENING_EVERY_MS saying how much of the store is read. A small home opens before the
 * first line is due and logs nothing; a command that started a large one sees it is coming.
 */
export function logOpenProgress(logger: Logger): (readBytes: number, totalBytes: number) => void {
  let due = Date.now() + OPENING_EVERY_MS;
  return (read, total) => {
    const now = Date.now();
    if (now < due) return;
    due = now + OPENING_EVERY_MS;
    logger.info({ read_mb: mb(read), total_mb: mb(total) }, OPENING_STORE);
  };
}
