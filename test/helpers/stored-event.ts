import type { StoredEvent } from '../../src/domain/calendar/occurrences.js';

/** A one-hour Europe/Berlin event as the store holds it; tests override what they exercise. */
export function storedEvent(over: Partial<StoredEvent> = {}): StoredEvent {
  return {
    uid: 'ev_1',
    user_id: 'usr_1',
    title: 'Event',
    scheduled_for: '2031-03-10T08:00:00.000Z',
    duration_minutes: 60,
    task_id: null,
    tag: null,
    all_day: false,
    timezone: 'Europe/Berlin',
    status: 'confirmed',
    source: 'api',
    created_at: '2031-01-01T00:00:00.000Z',
    updated_at: '2031-01-01T00:00:00.000Z',
    version: 1,
    ...over,
  };
}
