import type { StoredSubscription } from '../../contracts/stored.js';
import { type RefreshOutcome, SUBSCRIPTION_EVERY, type SubscribeRequest, type Subscription } from '../../contracts/sync.js';
import { AppError, notFound } from '../../errors.js';
import type { Store } from '../../store/store.js';
import type { FeedApplied, FeedRef } from '../calendar/feed-apply.js';
import type { PreparedImport } from '../calendar/import-check.js';
import type { Clock } from '../clock.js';
import { newId } from '../ids.js';
import { assertOwner, type Principal } from '../principal.js';
import { capReached } from './caps.js';
import { FeedError, type FeedFetcher } from './feed-port.js';
import { defaultFeedName, fetchableUrl } from './feed-url.js';

/** What the subscriptions need of the calendar area (CalendarService implements it). */
export interface FeedCalendar {
  readFeed(userId: string, text: string): Promise<PreparedImport>;
  applyFeed(feed: FeedRef, prepared: PreparedImport): Promise<FeedApplied>;
  removeFeed(feed: { id: string; userId: string }): Promise<number>;
  feedEventCount(feed: { id: string; userId: string }): number;
}

export interface SubscriptionsDeps {
  store: Store;
  clock: Clock;
  calendar: FeedCalendar;
  fetcher: FeedFetcher;
  logger: { warn(obj: object, msg?: string): void };
  /** The most subscriptions one user may have. */
  maxPerUser: number;
}

const MINUTE = 60_000;

/**
 * Subscriptions to remote .ics feeds: owns the `subscriptions` collection; fetches through the
 * FeedFetcher port; the calendar area stores the feed's events (read-only, `source: subscription`).
 * A refresh that fails keeps the last good copy and records why.
 */
export class SubscriptionsService {
  /** One refresh per subscription at a time: a second caller gets the running one's answer. */
  private readonly running = new Map<string, Promise<RefreshOutcome>>();

  constructor(private readonly d: SubscriptionsDeps) {}

  /** Subscribe and refresh once; the answer says what the first refresh did (it may have failed: the subscription stays). */
  async subscribe(p: Principal, req: SubscribeRequest): Promise<Subscription & { refresh: RefreshOutcome }> {
    const now = this.d.clock.now();
    const url = req.url.trim();
    const sub: StoredSubscription = {
      id: newId('sub', now.getTime()),
      user_id: p.userId,
      name: req.name ?? defaultFeedName(url),
      url,
      every_minutes: req.every_minutes ?? SUBSCRIPTION_EVERY.default,
      created_at: now.toISOString(),
      last_refresh_at: null,
      last_success_at: null,
      last_error: null,
      etag: null,
      last_modified: null,
    };
    await this.d.store.transact((tx) => {
      if (tx.byIndex('subscriptions', 'user_id', p.userId).length >= this.d.maxPerUser)
        throw capReached('subscriptions', 'sync.max_subscriptions', this.d.maxPerUser);
      tx.put('subscriptions', sub);
    });
    const refresh = await this.refreshOnce(sub.id);
    return { ...this.view(this.stored(sub.id)), refresh };
  }

  list(p: Principal): Subscription[] {
    return this.d.store
      .byIndex('subscriptions', 'user_id', p.userId)
      .sort((a, b) => a.created_at.localeCompare(b.created_at))
      .map((s) => this.view(s));
  }

  async refresh(p: Principal, id: string): Promise<Subscription & { refresh: RefreshOutcome }> {
    this.owned(p, id);
    const refresh = await this.refreshOnce(id);
    return { ...this.view(this.stored(id)), refresh };
  }

  /** Unsubscribe: the subscription and every event of its feed go. */
  async remove(p: Principal, id: string): Promise<{ deleted: string; events_removed: number }> {
    const sub = this.owned(p, id);
    // A refresh under way would put events back after the removal: let it finish first.
    await this.running.get(id)?.catch(() => {});
    await this.d.store.transact((tx) => {
      tx.delete('subscriptions', id);
    });
    const events_removed = await this.d.calendar.removeFeed({ id, userId: sub.user_id });
    return { deleted: id, events_removed };
  }

  /** Refresh every subscription whose interval has passed (the daemon calls this on a timer), one after the other. */
  async refreshDue(): Promise<RefreshOutcome[]> {
    const now = this.d.clock.now().getTime();
    const due = this.d.store.all('subscriptions').filter((s) => nextRefresh(s) <= now);
    const out: RefreshOutcome[] = [];
    for (const s of due) out.push(await this.refreshOnce(s.id));
    return out;
  }

  private refreshOnce(id: string): Promise<RefreshOutcome> {
    const running = this.running.get(id);
    if (running) return running;
    const run = this.doRefresh(id).finally(() => this.running.delete(id));
    this.running.set(id, run);
    return run;
  }

  private async doRefresh(id: string): Promise<RefreshOutcome> {
    const sub = this.stored(id);
    const started = this.d.clock.now().toISOString();
    const outcome: RefreshOutcome = { at: started, status: 'failed', imported: 0, updated: 0, removed: 0, unchanged: 0, errors: [] };
    let validators: Pick<StoredSubscription, 'etag' | 'last_modified'> = { etag: sub.etag, last_modified: sub.last_modified };
    try {
      const res = await this.d.fetcher.fetch(fetchableUrl(sub.url), { etag: sub.etag, lastModified: sub.last_modified });
      if (res.status === 'not_modified') outcome.status = 'not_modified';
      else {
        if (!/BEGIN:VCALENDAR/i.test(res.text.slice(0, 4096)))
          throw new FeedError('feed_not_calendar', `The feed at ${sub.url} did not answer with an iCalendar file (no BEGIN:VCALENDAR).`);
        const prepared = await this.d.calendar.readFeed(sub.user_id, res.text);
        outcome.errors = prepared.errors.slice(0, 100);
        if (prepared.checked.length === 0 && prepared.errors.length > 0)
          throw new FeedError('feed_not_calendar', `None of the ${prepared.errors.length} events of the feed at ${sub.url} could be read.`);
        const applied = await this.d.calendar.applyFeed({ id: sub.id, userId: sub.user_id, name: sub.name }, prepared);
        Object.assign(outcome, applied, { status: 'updated' });
        validators = { etag: res.etag, last_modified: res.lastModified };
      }
    } catch (e) {
      const error = describe(e);
      outcome.status = 'failed';
      outcome.error = error;
      this.d.logger.warn({ subscription: sub.id, code: error.code, ...(e instanceof FeedError ? {} : { err: String(e) }) }, 'subscription refresh failed');
    }
    await this.d.store.transact((tx) => {
      const cur = tx.get('subscriptions', id);
      // Unsubscribed meanwhile: nothing to record.
      if (!cur) return;
      tx.put('subscriptions', {
        ...cur,
        last_refresh_at: started,
        ...(outcome.status !== 'failed'
          ? { last_success_at: started, last_error: null, etag: validators.etag, last_modified: validators.last_modified }
          : { last_error: { ...outcome.error!, at: started } }),
      });
    });
    return outcome;
  }

  private stored(id: string): StoredSubscription {
    const s = this.d.store.get('subscriptions', id);
    if (!s) throw notFound(`No subscription ${id}.`);
    return s;
  }

  private owned(p: Principal, id: string): StoredSubscription {
    const s = this.stored(id);
    assertOwner(p, s.user_id);
    return s;
  }

  private view(s: StoredSubscription): Subscription {
    const { etag: _e, last_modified: _m, ...shown } = s;
    return {
      ...shown,
      event_count: this.d.calendar.feedEventCount({ id: s.id, userId: s.user_id }),
      next_refresh_at: new Date(nextRefresh(s)).toISOString(),
    };
  }
}

/** When a subscription is due: its interval after the last attempt (a failed one too: no hammering a broken feed). */
function nextRefresh(s: StoredSubscription): number {
  const last = s.last_refresh_at ?? s.created_at;
  return Date.parse(last) + s.every_minutes * MINUTE;
}

/** A refresh's failure as `{code, message}`: a feed's own words are never passed on, only ours. */
function describe(e: unknown): { code: string; message: string } {
  if (e instanceof FeedError) return { code: e.code, message: e.message };
  if (e instanceof AppError && e.expose) return { code: e.code, message: e.message };
  return { code: 'refresh_failed', message: 'The feed could not be refreshed (internal error; see the daemon log). The last good copy is kept.' };
}
