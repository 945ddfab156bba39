import type { StoredProfile } from '../../contracts/stored.js';
import type { PreferencesInput, TempoProfile } from '../../contracts/tempo.js';
import { notFound } from '../../errors.js';
import type { Store } from '../../store/store.js';
import { isTempoTag, normalizeTag, tagMinutes } from '../../time/tags.js';
import { eventReads } from '../calendar/event-reads.js';
import type { Clock } from '../clock.js';
import { traceReads } from '../memory/traces.js';
import type { UsersService } from '../users/users-service.js';
import { BUILTIN_TAGS, defaultSettings, mergeSettings, type TempoSettings, tagsOfSettings } from './profile.js';

function settingsOf(stored: StoredProfile | undefined): TempoSettings {
  if (!stored) return defaultSettings();
  const { user_id: _u, updated_at: _t, ...settings } = stored;
  // A document written before a field existed gets that field's default.
  return { ...defaultSettings(), ...settings };
}

/** Labels first (alphabetical), then duration blocks from short to long. */
function compareTags(a: string, b: string): number {
  const ma = tagMinutes(a);
  const mb = tagMinutes(b);
  if (ma === undefined && mb === undefined) return a < b ? -1 : a > b ? 1 : 0;
  if (ma === undefined) return -1;
  if (mb === undefined) return 1;
  return ma - mb || (a < b ? -1 : 1);
}

/**
 * Tempo profiles: a user without a stored profile has the defaults; an adjustment stores the whole
 * merged profile in `tempo_profiles` (through the store, so caches keyed on the user's data see
 * the change). The time zone is the user's own field, read from the users service.
 */
export class TempoService {
  constructor(
    private readonly store: Store,
    private readonly users: UsersService,
    private readonly clock: Clock,
  ) {}

  /** The stored settings, or the defaults. */
  settings(userId: string): TempoSettings {
    return storedSettings(this.store, userId);
  }

  /** GET /tempo/profile: 404 for an unknown user (only an admin can name one). */
  profile(userId: string): TempoProfile {
    const user = this.users.get(userId);
    if (!user) throw notFound(`No user ${userId}.`);
    return { user_id: userId, timezone: user.timezone, ...this.settings(userId) };
  }

  /** POST /tempo/adjust: merge a validated partial update and store it. */
  async adjust(userId: string, prefs: PreferencesInput): Promise<TempoProfile> {
    if (!this.users.get(userId)) throw notFound(`No user ${userId}.`);
    if (Object.keys(prefs).length) {
      await this.store.transact((tx) => {
        const merged = mergeSettings(settingsOf(tx.get('tempo_profiles', userId)), prefs);
        tx.put('tempo_profiles', { user_id: userId, ...merged, updated_at: this.clock.now().toISOString() });
      });
    }
    return this.profile(userId);
  }

  /** GET /tempo/tags: the built-ins and every tag in the user's traces, events and profile. */
  tags(userId: string): string[] {
    const found = new Set<string>(BUILTIN_TAGS);
    const add = (v: unknown) => {
      if (typeof v !== 'string') return;
      const t = normalizeTag(v);
      if (isTempoTag(t)) found.add(t);
    };
    for (const t of traceReads(this.store).ofUser(userId)) add(t.tempo_tag);
    for (const e of eventReads(this.store).ofUser(userId)) add(e.tag);
    for (const t of tagsOfSettings(this.settings(userId))) add(t);
    return [...found].sort(compareTags);
  }
}

/** A user's stored tempo settings, or the defaults. */
function storedSettings(store: Store, userId: string): TempoSettings {
  return settingsOf(store.get('tempo_profiles', userId));
}

/**
 * The parts of GET /user/profile this area owns. They read only the store, so the users service
 * is built with them before the tempo service (which needs the users service for the zone).
 */
export function tempoProfileParts(store: Store) {
  return {
    tempo: (userId: string) => {
      const s = storedSettings(store, userId);
      return { time_ranges: s.time_ranges, tag_mappings: s.tag_mappings, duration_biases: s.duration_biases };
    },
    constraints: (userId: string) => {
      const s = storedSettings(store, userId);
      return { blocked: s.blocked, cadence: s.cadence, budget: s.budget };
    },
  };
}
