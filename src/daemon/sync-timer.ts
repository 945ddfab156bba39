import type { Logger, Services } from '../server/services.js';

/** How long a stop waits for the round under way. */
const STOP_WAIT_MS = 500;

/**
 * The daemon's clock for calendar sync: every `checkMs` it refreshes the subscriptions that are
 * due and syncs the CalDAV accounts that are due, one round at a time (a slow feed delays the next round, never doubles it). Stopped with
 * the daemon: `stop()` waits for the round under way only briefly. A refresh cut between two
 * chunks by the store closing is completed by the next one (each chunk is its own transaction),
 * so a slow feed never holds up a stop.
 */
export function startSyncTimer(services: Pick<Services, 'subscriptions' | 'caldav'>, checkMs: number, logger: Logger): { stop(): Promise<void> } {
  let round: Promise<void> | undefined;
  let stopped = false;
  const tick = () => {
    if (round || stopped) return;
    round = services.subscriptions
      .refreshDue()
      .then(() => services.caldav.runDue())
      .then(() => {})
      .catch((e: unknown) => logger.error({ err: String(e) }, 'subscription round failed'))
      .finally(() => {
        round = undefined;
      });
  };
  const timer = setInterval(tick, checkMs);
  timer.unref();
  // The first round soon after start: subscriptions that fell due while the daemon was down.
  const first = setTimeout(tick, Math.min(checkMs, 2000));
  first.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      clearTimeout(first);
      if (!round) return;
      let wait: NodeJS.Timeout | undefined;
      await Promise.race([round, new Promise((ok) => (wait = setTimeout(ok, STOP_WAIT_MS)))]);
      clearTimeout(wait);
    },
  };
}
