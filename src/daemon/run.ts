import { chmod, mkdir, readFile } from 'node:fs/promises';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { readConfigFile, resolveConfig } from '../config/config.js';
import { DIR_MODE, homePaths } from '../config/paths.js';
import { systemClock } from '../domain/clock.js';
import { AppError } from '../errors.js';
import { isLoopbackHost } from '../platform/loopback.js';
import { createApp } from '../server/app.js';
import { answerClientErrors } from '../server/client-errors.js';
import { createServices, type Services } from '../server/services.js';
import { attachWebSocket } from '../server/ws.js';
import { isNoSpace } from '../store/durable-file.js';
import { Store, StoreOpenError } from '../store/store.js';
import { VERSION } from '../version.js';
import { ensureOwnerCredentials } from './credentials.js';
import { hardenIntrinsics } from './harden.js';
import { acquireLock, DaemonRunningError } from './lock.js';
import { startMemoryReducer } from './memory-reducer.js';
import { logOpenProgress } from './open-progress.js';
import { removeDaemonState, writeDaemonState } from './state.js';
import { startSyncTimer } from './sync-timer.js';

export interface RunOptions {
  home: string;
  port?: number;
  host?: string;
  tlsCert?: string;
  tlsKey?: string;
  insecure?: boolean;
  /**
   * Listen on a free port when the configured one is taken (auto-start and `daemon start`
   * without --port); daemon.json records the port in use and the one that was taken.
   */
  portFallback?: boolean;
  env?: NodeJS.ProcessEnv;
  /** Where the "kairos listening on" line goes. */
  stdout?: (line: string) => void;
}

export interface RunningDaemon {
  url: string;
  port: number;
  server: Server;
  stop(): Promise<void>;
}

/**
 * The daemon starts loading its search model (a second or so of decoding on the event loop, at
 * 100,000 traces then the persisted index) once it has answered its first request (the client's
 * /health, usually), or this long after listening, whichever comes first; a query that needs the
 * model starts it sooner.
 */
const MODEL_AFTER_LISTEN_MS = 1000;

/** How long a stop lets a client's open connection finish its request before cutting it. */
const FORCE_CLOSE_MS = 1000;

/**
 * Start the daemon in this process: lock the home, open the store, bootstrap the owner, listen,
 * write daemon.json. Resolves once listening; `stop()` (also on SIGTERM/SIGINT) drains and flushes.
 */
export async function runDaemon(opts: RunOptions): Promise<RunningDaemon> {
  const env = opts.env ?? process.env;
  const paths = homePaths(opts.home);
  await mkdir(paths.home, { recursive: true, mode: DIR_MODE });
  await chmod(paths.home, DIR_MODE).catch(() => {});
  const config = resolveConfig(await readConfigFile(paths.config), env, { port: opts.port, host: opts.host });
  const tls = Boolean(opts.tlsCert || opts.tlsKey);
  if (tls && !(opts.tlsCert && opts.tlsKey)) throw new AppError(422, 'usage', 'TLS needs both --tls-cert and --tls-key.');
  if (!isLoopbackHost(config.host) && !tls && !opts.insecure) {
    throw new AppError(
      422,
      'usage',
      `Refusing to listen on ${config.host} without TLS: pass --tls-cert and --tls-key, or --insecure to accept plain HTTP on the network.`,
    );
  }

  const release = await acquireLock(paths.lock, paths.home).catch((e: unknown) => {
    throw startFailure(e);
  });
  // On a full disk a log line must not fail the request that logs it: it waits (up to 1 MiB) and
  // goes out with the next line that fits.
  const logFile = pino.destination({ dest: paths.daemonLog, sync: true, mkdir: true, mode: 0o600, maxLength: 1 << 20 });
  logFile.on('error', (e: unknown) => {
    if (!isNoSpace(e)) throw e;
  });
  const logger = pino({ base: { pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime }, logFile);
  logger.info(hardenIntrinsics(), 'intrinsics frozen against prototype pollution');
  let store: Store | undefined;
  let services: Services | undefined;
  try {
    store = await Store.open(paths, {
      snapshotEveryOps: config.snapshot.everyOps,
      snapshotEveryMs: config.snapshot.everyMs,
      backups: config.snapshot.backups,
      log: (msg, extra) => logger.warn(extra ?? {}, msg),
      loading: logOpenProgress(logger),
    });
    const startedAt = new Date();
    services = createServices({ store, clock: systemClock, config, logger, version: VERSION, startedAt });
    await ensureOwnerCredentials(services, paths.credentials);
    const app = createApp(services);
    const handler = app.callback();
    const server = tls ? createHttpsServer({ cert: await readFile(opts.tlsCert!), key: await readFile(opts.tlsKey!) }, handler) : createHttpServer(handler);
    answerClientErrors(server);
    const ws = attachWebSocket(server, services);
    let fallbackFrom: number | undefined;
    try {
      await listen(server, config.port, config.host);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE' || !opts.portFallback || config.port === 0) throw e;
      fallbackFrom = config.port;
      await listen(server, 0, config.host);
    }
    const port = (server.address() as AddressInfo).port;
    if (fallbackFrom !== undefined) logger.warn({ port, taken: fallbackFrom }, `port ${fallbackFrom} is in use; listening on ${port} instead`);
    const shownHost = config.host.includes(':') ? `[${config.host}]` : config.host;
    const url = `${tls ? 'https' : 'http'}://${shownHost}:${port}`;
    await writeDaemonState(paths.daemonJson, {
      pid: process.pid,
      host: config.host,
      port,
      url,
      version: VERSION,
      started_at: startedAt.toISOString(),
      tls,
      ...(fallbackFrom !== undefined ? { port_fallback_from: fallbackFrom } : {}),
    });
    const syncTimer = startSyncTimer(services, config.sync.checkMs, logger);
    (opts.stdout ?? ((l) => process.stdout.write(l + '\n')))(`kairos listening on ${url}`);
    // The search model loads once the daemon answers (a query that needs it starts it sooner);
    // the search indexes fill themselves behind it, a slice per turn of the event loop.
    const beginModel = () => setImmediate(() => services?.semantic.begin());
    setTimeout(beginModel, MODEL_AFTER_LISTEN_MS).unref();
    server.once('request', (_req, res) => res.once('finish', beginModel));
    logger.info({ url, version: VERSION, home: paths.home }, 'daemon started');
    // What the start left behind (db.json's text, parsed copies, the search file) is collected once idle.
    const reducer = startMemoryReducer({
      onCollect: ({ beforeBytes, ms }) => logger.debug({ before_mb: Math.round(beforeBytes / 2 ** 20), ms: Math.round(ms) }, 'idle: garbage collected'),
    });

    let stopping: Promise<void> | undefined;
    const stop = () =>
      (stopping ??= (async () => {
        logger.info('daemon stopping');
        // What each step of the stop took, counted from its start, in daemon.log: the stop's goal
        // is two seconds whatever is pending.
        const began = performance.now();
        const steps: Record<string, number> = {};
        const done = (name: string) => () => void (steps[name] = Math.round(performance.now() - began));
        reducer.stop();
        ws.close();
        // Stop accepting, let in-flight requests finish, then drop idle keep-alive connections
        // (and, after a moment, any connection a slow client keeps open).
        const closed = new Promise<void>((ok) => server.close(() => ok()));
        server.closeIdleConnections();
        const force = setTimeout(() => server.closeAllConnections(), FORCE_CLOSE_MS);
        // The search (its thread, its model's children, the index saved as it stands) and a sync
        // round stop alongside the requests: none waits for another.
        const requests = closed.then(() => clearTimeout(force)).then(done('requests_ms'));
        const search = Promise.all([services!.semantic.close(), services!.traceIndex.close()]).then(done('search_ms'));
        const sync = syncTimer.stop().then(done('sync_ms'));
        await Promise.all([requests, search, sync]);
        // Only the journal's last fdatasync: no snapshot (the next start replays the journal).
        await store!.close();
        done('store_ms')();
        await removeDaemonState(paths.daemonJson, process.pid);
        await release();
        logger.info(steps, 'daemon stopped');
      })());
    return { url, port, server, stop };
  } catch (e) {
    await services?.semantic.close().catch(() => {});
    await services?.traceIndex.close().catch(() => {});
    await store?.close().catch(() => {});
    await release();
    throw startFailure(e, config.port, paths.config);
  }
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((ok, fail) => {
    const onError = (e: Error) => fail(e);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      ok();
    });
  });
}

/** Why the daemon could not start, as one clear line (no stack) for the CLI to print. */
function startFailure(e: unknown, port?: number, configFile?: string): AppError {
  if (e instanceof AppError) return e;
  if (e instanceof StoreOpenError || e instanceof DaemonRunningError) return new AppError(500, 'daemon_start_failed', e.message);
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') {
    return new AppError(
      500,
      'daemon_start_failed',
      `Port ${port} is in use by another program: choose another with --port, or set "port" in ${configFile} (0 = any free port).`,
    );
  }
  if (code === 'EACCES') return new AppError(500, 'daemon_start_failed', `Not allowed: ${(e as Error).message}`);
  return new AppError(500, 'daemon_start_failed', `The daemon could not start: ${(e as Error).message}`);
}
