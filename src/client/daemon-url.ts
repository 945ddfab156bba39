import type { DaemonState } from '../config/daemon-state.js';

/** daemon.json's address, but loopback when it listens on every interface. */
export function localUrl(s: DaemonState): string {
  const host = s.host === '0.0.0.0' || s.host === '::' ? '127.0.0.1' : s.host.includes(':') ? `[${s.host}]` : s.host;
  return `${s.tls ? 'https' : 'http'}://${host}:${s.port}`;
}
