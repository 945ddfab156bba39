import { readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { type ConfigFile, resolveConfig } from '../../src/config/config.js';
import { homePaths } from '../../src/config/paths.js';
import { ensureOwnerCredentials } from '../../src/daemon/credentials.js';
import { systemClock } from '../../src/domain/clock.js';
import { createApp } from '../../src/server/app.js';
import { createServices, type ServiceDeps, type Services } from '../../src/server/services.js';
import { attachWebSocket } from '../../src/server/ws.js';
import { Store } from '../../src/store/store.js';
import { apiCaller, LOOPBACK_ALLOW, type TestDaemon, tempHome } from './daemon.js';

/** The API of the daemon, served in the test's own process from `src/` (no build, no spawn). */
export interface TestApp extends Pick<TestDaemon, 'base' | 'port' | 'home' | 'key' | 'userId' | 'api'> {
  services: Services;
  store: Store;
  stop(): Promise<void>;
}

const quiet = { info() {}, warn() {}, error() {} };

/** The daemon's services over `store`, as tests build them (no rate limit, a silent logger). */
export function testServices(store: Store, opts: { env?: Record<string, string>; config?: ConfigFile; planner?: ServiceDeps['planner'] } = {}): Services {
  return createServices({
    store,
    clock: systemClock,
    // Loopback servers of the tests are let through the outbound address policy, as cleanEnv() does.
    config: resolveConfig(opts.config ?? {}, { KAIROS_RATE_LIMIT: '0', KAIROS_OUTBOUND_ALLOW: LOOPBACK_ALLOW, ...opts.env }),
    logger: quiet,
    version: 'test',
    startedAt: new Date(),
    ...(opts.planner !== undefined ? { planner: opts.planner } : {}),
  });
}

/** What a test file's app is started with besides its environment: what the home's config.json would hold. */
export interface AppOptions {
  config?: ConfigFile;
}

/**
 * The app of `createApp(...).callback()` on a loopback port, over a temp home, with `/ws` on the
 * same server: for API cases that need no process boundary (no signals, no restart, no
 * auto-start, no log file, no child process). The same store, the same services and the same
 * owner credentials as the daemon makes; only the process is the test's. Intrinsics are not
 * frozen here (the daemon's `harden` would freeze the test runner's).
 */
export async function startApp(env: Record<string, string> = {}, opts: AppOptions = {}): Promise<TestApp> {
  const home = tempHome();
  const paths = homePaths(home);
  const snapshot = opts.config?.snapshot;
  const store = await Store.open(paths, {
    ...(snapshot?.every_ops !== undefined ? { snapshotEveryOps: snapshot.every_ops } : {}),
    ...(snapshot?.every_ms !== undefined ? { snapshotEveryMs: snapshot.every_ms } : {}),
  });
  const services = testServices(store, { env, ...(opts.config ? { config: opts.config } : {}) });
  await ensureOwnerCredentials(services, paths.credentials);
  const creds = JSON.parse(readFileSync(join(home, 'credentials.json'), 'utf8'));
  const server: Server = createServer(createApp(services).callback());
  const ws = attachWebSocket(server, services);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  const base = `http://127.0.0.1:${port}`;
  return {
    base,
    port,
    home,
    key: creds.api_key,
    userId: creds.user_id,
    services,
    store,
    api: apiCaller(base, creds.api_key),
    async stop() {
      ws.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await store.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** The in-process app of a test file: started before its tests, stopped and its home removed after. */
export function useApp(env: Record<string, string> = {}, opts: AppOptions = {}): TestApp {
  const shared = {} as TestApp;
  beforeAll(async () => {
    Object.assign(shared, await startApp(env, opts));
  });
  afterAll(async () => {
    await shared.stop?.();
  });
  return shared;
}
