import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** Every file kairos keeps in its home folder. */
export interface HomePaths {
  home: string;
  db: string;
  journal: string;
  backups: string;
  credentials: string;
  config: string;
  daemonJson: string;
  daemonLog: string;
  lock: string;
  /** Held by the CLI that is starting the daemon in the background (holds its pid). */
  daemonStarting: string;
  /** Passwords of CalDAV accounts (mode 0600; never in db.json, exports or logs). */
  syncSecrets: string;
}

export function resolveHome(env: NodeJS.ProcessEnv = process.env): string {
  const h = env.KAIROS_HOME;
  return h?.trim() ? resolve(h) : join(homedir(), '.kairos');
}

export function homePaths(home: string): HomePaths {
  return {
    home,
    db: join(home, 'db.json'),
    journal: join(home, 'db.journal'),
    backups: join(home, 'backups'),
    credentials: join(home, 'credentials.json'),
    config: join(home, 'config.json'),
    daemonJson: join(home, 'daemon.json'),
    daemonLog: join(home, 'daemon.log'),
    lock: join(home, 'daemon.lock'),
    daemonStarting: join(home, 'daemon.starting'),
    syncSecrets: join(home, 'sync-secrets.json'),
  };
}

/**
 * The per-user cache of kairos, shared by every clone and home: `$XDG_CACHE_HOME/kairos`, else
 * `~/.cache/kairos` (XDG base directories; a relative XDG_CACHE_HOME is ignored, as the spec says).
 */
export function userCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CACHE_HOME?.trim();
  return join(xdg?.startsWith('/') ? xdg : join(homedir(), '.cache'), 'kairos');
}

export const DIR_MODE = 0o700;
export const FILE_MODE = 0o600;
