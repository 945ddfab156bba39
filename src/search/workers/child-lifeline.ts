/**
 * For the converter children of the daemon: exit when the parent goes away. The parent spawns
 * them with an IPC channel; the channel closes when the parent exits or is killed (even with
 * SIGKILL), and minutes of CPU for nobody would follow. Without a channel (run by hand) nothing
 * changes.
 */
export function dieWithParent(): void {
  if (!process.channel) return;
  process.on('disconnect', () => process.exit(1));
  if (!process.connected) process.exit(1);
  // The channel alone must not keep the child alive once its work is done.
  process.channel.unref();
}

/** Tell the parent how far the work is (0..1), when it listens. */
export function reportProgress(fraction: number): void {
  if (process.connected) process.send?.({ progress: fraction });
}
