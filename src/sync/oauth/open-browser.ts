import { spawn } from 'node:child_process';

/**
 * Whether a browser can be opened here: macOS and Windows always have one; elsewhere only with a
 * graphical session (an SSH login or a container has none, and xdg-open would pick a text browser
 * or fail).
 */
export function hasDisplay(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): boolean {
  if (platform === 'darwin' || platform === 'win32') return true;
  return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}

/**
 * Opens the URL with the platform's opener (open, xdg-open, or start on Windows), detached.
 * Resolves false when the opener is missing or fails to start: the caller prints the URL then.
 */
export function openBrowser(url: string, platform: NodeJS.Platform = process.platform): Promise<boolean> {
  const [cmd, args] =
    platform === 'darwin' ? ['open', [url]] : platform === 'win32' ? ['cmd', ['/c', 'start', '""', url.replace(/&/g, '^&')]] : ['xdg-open', [url]];
  return new Promise((ok) => {
    const child = spawn(cmd, args as string[], { stdio: 'ignore', detached: true });
    child.once('error', () => ok(false));
    child.once('spawn', () => {
      child.unref();
      ok(true);
    });
  });
}
