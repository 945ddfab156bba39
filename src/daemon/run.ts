import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { chmod, mkdir, readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { readConfigFile, resolveConfig } from '../config/config.js';
import { DIR_MODE, homePaths } from '../config/paths.js';
import { systemClock } from '../domain/clock.js';
import { AppError } from '../errors.js';
import { createApp } from '../server/app.js';
import { createServices } from '../server/services.js';
import { attachWebSocket } from '../server/ws.js';
import { isNoSpace } from '../store/durable-file.js';
import { Store, StoreOpenError } from '../store/store.js';
import { VERSION } from '../version.js';
import { ensureOwnerCredentials } from './credentials.js';
import { DaemonRunningError, acquireLock } from './lock.js';
import { removeDaemonState, writeDaemonState } from './state.js';

export interface RunOptions {
  home: string;
  port?: number;
  host?: string;
  tlsCert?: string;
  tlsKey?: string;
  insecure?: boolean;
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

const isLoopback = (host: string) => /^(127\.\d+\.\d+\.\d+|localhost|::1|\[::1\])$/.test(host);

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
  if (!isLoopback(config.host) && !tls && !opts.insecure) {
    throw new AppError(422, 'usage', `Refusing to listen on ${config.host} without TLS: pass --tls-cert and --tls-key, or --insecure to accept plain HTTP on the network.`);
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
  let store: Store | undefined;
  try {
    store = await Store.open(paths, {
      snapshotEveryOps: config.snapshot.everyOps,
      snapshotEveryMs: config.snapshot.everyMs,
      backups: config.snapshot.backups,
      log: (msg, extra) => logger.warn(extra ?? {}, msg),
    });
    const startedAt = new Date();
    const services = createServices({ store, clock: systemClock, config, logger, version: VERSION, startedAt });
    await ensureOwnerCredentials(services, paths.credentials);
    const app = createApp(services);
    const handler = app.callback();
    const server = tls
      ? createHttpsServer({ cert: await readFile(opts.tlsCert!), key: await readFile(opts.tlsKey!) }, handler)
      : createHttpServer(handler);
    const ws = attachWebSocket(server, services);
    await new Promise<void>((ok, fail) => {
      server.once('error', fail);
      server.listen(config.port, config.host, () => ok());
    });
    const port = (server.address() as AddressInfo).port;
    const shownHost = config.host.includes(':') ? `[${config.host}]` : config.host;
    const url = `${tls ? 'https' : 'http'}://${shownHost}:${port}`;
    await writeDaemonState(paths.daemonJson, { pid: process.pid, host: config.host, port, url, version: VERSION, started_at: startedAt.toISOString(), tls });
    (opts.stdout ?? ((l) => process.stdout.write(l + '\n')))(`kairos listening on ${url}`);
    logger.info({ url, version: VERSION, home: paths.home }, 'daemon started');

    let stopping: Promise<void> | undefined;
    const stop = () =>
      (stopping ??= (async () => {
        logger.info('daemon stopping');
        ws.close();
        // Stop accepting, let in-flight requests finish, then drop idle keep-alive connections.
        const closed = new Promise<void>((ok) => server.close(() => ok()));
        server.closeIdleConnections();
        const force = setTimeout(() => server.closeAllConnections(), 5000);
        await closed;
        clearTimeout(force);
        await store!.close();
        await removeDaemonState(paths.daemonJson, process.pid);
        await release();
        logger.info('daemon stopped');
      })());
    return { url, port, server, stop };
  } catch (e) {
    await store?.close().catch(() => {});
    await release();
    throw startFailure(e, config.port);
  }
}

/** Why the daemon could not start, as one clear message (no stack) for the CLI to print. */
function startFailure(e: unknown, port?: number): AppError {
  if (e instanceof AppError) return e;
  if (e instanceof StoreOpenError || e instanceof DaemonRunningError) return new AppError(500, 'daemon_start_failed', e.message);
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') return new AppError(500, 'daemon_start_failed', `Port ${port} is in use; choose another with --port (0 = any free port).`);
  if (code === 'EACCES') return new AppError(500, 'daemon_start_failed', `Not allowed: ${(e as Error).message}`);
  return new AppError(500, 'daemon_start_failed', `The daemon could not start: ${(e as Error).message}`);
}
