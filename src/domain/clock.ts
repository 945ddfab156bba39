/** Injected everywhere "now" matters, so tests and the planner can fix it. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export const isoNow = (clock: Clock) => clock.now().toISOString();
