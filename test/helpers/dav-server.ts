import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';

/** A CalDAV server a test starts on loopback (Radicale, xandikos). */
export interface DavServer {
  /** http://127.0.0.1:<port> of the server itself. */
  base: string;
  user: string;
  password: string;
  /** Make a calendar collection; returns its URL. */
  mkcalendar(name: string): Promise<string>;
  /** The folder the server keeps a collection's objects in (one .ics file each). */
  storage(name: string): string;
  /** An authenticated request straight to the server (the "other side" of the sync). */
  dav(method: string, url: string, body?: string, headers?: Record<string, string>): Promise<{ status: number; text: string; etag: string | null }>;
  stop(): Promise<void>;
}

/** What differs between the servers once one is listening: where things live and how to log in. */
export interface DavServerParts {
  child: ChildProcess;
  /** The temp folder the server keeps everything in; removed at stop. */
  dir: string;
  base: string;
  user: string;
  password: string;
  /** Headers every request to the server carries (its login). */
  headers?: Record<string, string>;
  /** The URL of the calendar collection `name`. */
  collection(name: string): string;
  storage(name: string): string;
}

/** The test-facing handle on a started server: requests, MKCALENDAR, and a stop by pid. */
export function davServerOf(p: DavServerParts): DavServer {
  const dav: DavServer['dav'] = async (method, url, body, headers = {}) => {
    const res = await fetch(new URL(url, p.base), { method, body, headers: { ...p.headers, ...headers } });
    return { status: res.status, text: await res.text(), etag: res.headers.get('etag') };
  };
  return {
    base: p.base,
    user: p.user,
    password: p.password,
    dav,
    storage: p.storage,
    async mkcalendar(name) {
      const url = p.collection(name);
      const r = await dav('MKCALENDAR', url);
      if (r.status !== 201) throw new Error(`MKCALENDAR ${url}: ${r.status} ${r.text}`);
      return url;
    },
    async stop() {
      if (p.child.exitCode === null && p.child.pid) {
        process.kill(p.child.pid, 'SIGTERM');
        await new Promise((r) => p.child.once('exit', r));
      }
      rmSync(p.dir, { recursive: true, force: true });
    },
  };
}
