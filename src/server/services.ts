import type { Config } from '../config/config.js';
import { CalendarService } from '../domain/calendar/calendar-service.js';
import type { Clock } from '../domain/clock.js';
import { EventBus } from '../domain/events.js';
import { ExportService } from '../domain/export/export-service.js';
import { MemoryService } from '../domain/memory/memory-service.js';
import { PlannerService } from '../domain/planner/planner-service.js';
import { PlansService } from '../domain/plans/plans-service.js';
import { TempoService } from '../domain/tempo/tempo-service.js';
import { KeysService } from '../domain/users/keys-service.js';
import { UsersService } from '../domain/users/users-service.js';
import { createSearch } from '../search/index.js';
import type { Store } from '../store/store.js';

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
}

/** The composition root of the domain: every service, wired once per daemon (or per test app). */
export function createServices(deps: ServiceDeps) {
  const { store, clock } = deps;
  const bus = new EventBus();
  const users = new UsersService(store, clock);
  const keys = new KeysService(store, clock);
  const tempo = new TempoService(store, users, clock);
  users.setProfileParts(tempo.profileParts());
  const { keyword: traceIndex, semantic } = createSearch({ store, config: deps.config, log: (msg, extra) => deps.logger.warn(extra ?? {}, msg) });
  const memory = new MemoryService(store, clock, bus, traceIndex, semantic);
  const calendar = new CalendarService({ store, clock, bus, zoneOf: (id) => users.get(id)?.timezone ?? 'UTC', announceTrace: (t, k) => memory.announce(t, k) });
  const exporter = new ExportService(store, clock, users, deps.config);
  const plans = new PlansService({ store, clock, bus, memory, tempo, users, logger: deps.logger });
  plans.setCalendar(calendar);
  const planner = new PlannerService({ store, clock, config: deps.config, users, tempo, memory, calendar, plans, logger: deps.logger });
  plans.setPlanner(planner);
  return { ...deps, bus, users, keys, tempo, memory, traceIndex, semantic, calendar, exporter, plans, planner };
}

export type Services = ReturnType<typeof createServices>;
