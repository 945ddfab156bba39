import type { Config } from '../config/config.js';
import type { RespondRequest } from '../contracts/planner.js';
import { CalendarService } from '../domain/calendar/calendar-service.js';
import type { Clock } from '../domain/clock.js';
import { ExportService } from '../domain/export/export-service.js';
import { EventBus } from '../domain/live-bus.js';
import { MemoryService } from '../domain/memory/memory-service.js';
import { PlannerService } from '../domain/planner/planner-service.js';
import { PlansService } from '../domain/plans/plans-service.js';
import type { Planner } from '../domain/plans/ports.js';
import { UndoService } from '../domain/plans/undo.js';
import type { Principal } from '../domain/principal.js';
import type { CalDavConnector } from '../domain/sync/caldav-port.js';
import { CaldavService } from '../domain/sync/caldav-service.js';
import type { FeedFetcher } from '../domain/sync/feed-port.js';
import { OAuthGrants } from '../domain/sync/oauth-grants.js';
import { SubscriptionsService } from '../domain/sync/subscriptions-service.js';
import { TempoService, tempoProfileParts } from '../domain/tempo/tempo-service.js';
import { KeysService } from '../domain/users/keys-service.js';
import { UsersService } from '../domain/users/users-service.js';
import { createSearch } from '../search/index.js';
import type { Store } from '../store/store.js';
import { createCalDavConnector } from '../sync/caldav-client.js';
import { createFeedFetcher } from '../sync/feed-fetcher.js';
import { createOAuthTokenSource } from '../sync/oauth-token-source.js';
import { createOutboundClient } from '../sync/outbound/outbound-client.js';
import { createSecretFile } from '../sync/secret-file.js';

export interface Logger {
  info(obj: object | string, msg?: string): void;
  warn(obj: object | string, msg?: string): void;
  error(obj: object | string, msg?: string): void;
}

export interface ServiceDeps {
  store: Store;
  clock: Clock;
  config: Config;
  logger: Logger;
  version: string;
  startedAt: Date;
  /** Tests: the planner the plans service asks (null: none, so prompt-only plans are refused). */
  planner?: Planner | null;
  /** Tests: how feeds are fetched (default: the outbound client, src/sync/feed-fetcher.ts). */
  feedFetcher?: FeedFetcher;
  /** Tests: how CalDAV servers are reached (default: tsdav, src/sync/caldav-client.ts). */
  caldav?: CalDavConnector;
}

/**
 * The composition root of the domain: every service, built once per daemon (or per test app) in
 * dependency order, each given what it uses in its constructor. The one loop (a chat prompt
 * becomes a plan; a plan asks the planner) is closed here by handing the plans service to
 * /chat/respond as the planner's PlansPort.
 */
export function createServices(deps: ServiceDeps) {
  const { store, clock } = deps;
  const bus = new EventBus();
  const users = new UsersService(store, clock, tempoProfileParts(store));
  const keys = new KeysService(store, clock);
  const tempo = new TempoService(store, users, clock);
  const { keyword: traceIndex, semantic } = createSearch({
    store,
    config: deps.config,
    log: (msg, extra, level = 'warn') => deps.logger[level](extra ?? {}, msg),
  });
  const memory = new MemoryService(store, clock, bus, traceIndex, semantic);
  const calendar = new CalendarService({ store, clock, bus, zoneOf: (id) => users.get(id)?.timezone ?? 'UTC', announceTrace: (t, k) => memory.announce(t, k) });
  const exporter = new ExportService(store, clock, users, deps.config);
  const planner = new PlannerService({ store, clock, config: deps.config, users, tempo, memory, calendar, logger: deps.logger });
  const plans = new PlansService({
    store,
    clock,
    bus,
    memory,
    tempo,
    users,
    calendar,
    planner: deps.planner === null ? undefined : (deps.planner ?? planner),
    logger: deps.logger,
  });
  const subscriptions = new SubscriptionsService({
    store,
    clock,
    calendar,
    fetcher: deps.feedFetcher ?? createFeedFetcher(createOutboundClient(deps.config.outbound)),
    logger: deps.logger,
    maxPerUser: deps.config.sync.maxSubscriptions,
  });
  const tokens = createOAuthTokenSource(store.paths.home, () => users.owner()?.user_id);
  const oauthGrants = new OAuthGrants(tokens);
  const caldav = new CaldavService({
    store,
    clock,
    bus,
    calendar,
    connector: deps.caldav ?? createCalDavConnector({ outbound: deps.config.outbound }),
    secrets: createSecretFile(store.paths.syncSecrets),
    tokens,
    grants: oauthGrants,
    maxAccounts: deps.config.sync.maxAccounts,
    announceTrace: (t, k) => memory.announce(t, k),
    logger: deps.logger,
    everyMs: deps.config.sync.caldavEveryMs,
  });
  const undo = new UndoService({ store, calendar, memory });
  const chat = { respond: (p: Principal, req: RespondRequest) => planner.respond(p, req, plans) };
  return { ...deps, bus, users, keys, tempo, memory, traceIndex, semantic, calendar, exporter, plans, planner, chat, subscriptions, caldav, oauthGrants, undo };
}

export type Services = ReturnType<typeof createServices>;
