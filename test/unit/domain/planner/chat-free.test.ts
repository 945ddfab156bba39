import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { homePaths } from '../../../../src/config/paths.js';
import { ensureOwnerCredentials } from '../../../../src/daemon/credentials.js';
import type { BusyPort, PlansPort } from '../../../../src/domain/planner/planner-service.js';
import { PlannerService } from '../../../../src/domain/planner/planner-service.js';
import type { Principal } from '../../../../src/domain/principal.js';
import type { Services } from '../../../../src/server/services.js';
import { Store } from '../../../../src/store/store.js';
import { removeHome, tempHome } from '../../../helpers/daemon.js';
import { testServices } from '../../../helpers/in-process.js';

/**
 * A chat question about free time reads the day in the person's zone at the clock's instant, and
 * asks the calendar for that day's free time. It does not gather what a plan is made against (the
 * calendar's window of months ahead, the tempo profile, the actions budgets count): the calendar
 * the planner is given counts the windows it is asked for, and passes each to the real one.
 */
const home = tempHome();
const clock = { now: () => new Date('2031-04-14T10:00:00Z') };
let store: Store;
let services: Services;
let owner: Principal;
let windows = 0;
let planner: PlannerService;
const noPlans: PlansPort = {
  propose: () => Promise.reject(new Error('a free-time question proposes no plan')),
};

beforeAll(async () => {
  store = await Store.open(homePaths(home));
  services = testServices(store);
  const creds = await ensureOwnerCredentials(services, homePaths(home).credentials);
  owner = { userId: creds.user_id, authUserId: creds.user_id, keyId: null, agentId: null, scopes: new Set(['admin']), via: 'key' };
  await services.users.update(owner, undefined, { timezone: 'Europe/Berlin' });
  // Tuesday 2031-04-15, Berlin (UTC+2): Review 10:00–12:00.
  await services.calendar.create(owner, { title: 'Review', scheduled_for: '2031-04-15T10:00:00+02:00', duration_minutes: 120 });
  const calendar: BusyPort = {
    busy: (...args) => {
      windows++;
      return services.calendar.busy(...args);
    },
    free: (userId, q) => services.calendar.free(userId, q),
  };
  const { users, tempo, memory, config } = services;
  planner = new PlannerService({ store, clock, config, users, tempo, memory, calendar });
});
afterAll(async () => {
  await services.semantic.close();
  await store.close();
  removeHome(home);
});

describe('a free-time question in chat', () => {
  it("answers from the day's free time without gathering the planner's calendar window", async () => {
    windows = 0;
    const r = await planner.respond(owner, { prompt: 'When am I free tomorrow for 2h?' }, noPlans);
    expect(windows).toBe(0);
    expect(r.intent).toBe('free');
    expect(r.free).toMatchObject({ date: '2031-04-15', timezone: 'Europe/Berlin', duration_minutes: 120 });
    expect(r.reply).toContain('Free on 2031-04-15 (Europe/Berlin) for 120 minutes or more');
    expect(r.reply).toContain('12:00–22:00');
    // The same answer as the daemon's chat gives with that instant and zone in the context.
    const context = { now: clock.now().toISOString(), timezone: 'Europe/Berlin' };
    expect(await services.chat.respond(owner, { prompt: 'When am I free tomorrow for 2h?', context })).toEqual(r);
  });

  it('a plan of the same person does gather the window (what the count above would see)', async () => {
    windows = 0;
    await planner.preview(owner, { prompt: 'Gym tomorrow at 7am for an hour' });
    expect(windows).toBe(1);
  });
});
