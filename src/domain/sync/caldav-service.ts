import type { StoredTrace } from '../../contracts/memory.js';
import type { CaldavItem, StoredCaldavAccount } from '../../contracts/stored.js';
import type { AccountRemoved, AddAccountRequest, CaldavAccount, SyncCounts, SyncRun } from '../../contracts/sync.js';
import { AppError, conflict, notFound } from '../../errors.js';
import type { Store, Tx } from '../../store/store.js';
import { FEED_FIELDS } from '../calendar/editable-fields.js';
import type { FeedPorts } from '../calendar/feed-apply.js';
import type { ImportedCore, PreparedImport } from '../calendar/import-check.js';
import { keptSource, stageKeptSource, writeBackIcs } from '../calendar/kept-source.js';
import type { StoredEvent } from '../calendar/occurrences.js';
import { eventFingerprint, type StagedChange, stageRemoteRemove, stageRemoteUpsert } from '../calendar/remote-events.js';
import type { Clock } from '../clock.js';
import type { EventBus } from '../live-bus.js';
import { stageTrace } from '../memory/stage-trace.js';
import type { Principal } from '../principal.js';
import { type CalDavConnector, type CalDavCredentials, CalDavError, type CalDavSession, type RemoteObject } from './caldav-port.js';
import { capReached } from './caps.js';
import type { OAuthGrants } from './oauth-grants.js';
import type { SecretStore } from './secret-port.js';
import type { TokenSource } from './token-port.js';

/** What the sync needs of the calendar area. */
export interface SyncCalendar {
  readFeed(userId: string, text: string): Promise<PreparedImport>;
  feedPorts(): FeedPorts;
}

export interface CaldavDeps {
  store: Store;
  clock: Clock;
  bus: EventBus;
  calendar: SyncCalendar;
  connector: CalDavConnector;
  secrets: SecretStore;
  /** Access tokens of accounts that authenticate with an OAuth provider. */
  tokens: TokenSource;
  /** Who may sign an account with which provider, and the hosts it may then reach. */
  grants: OAuthGrants;
  /** The most CalDAV accounts one user may have. */
  maxAccounts: number;
  announceTrace: (t: StoredTrace, kind: 'created') => void;
  logger: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };
  /** Interval of the daemon's periodic sync. */
  everyMs: number;
}

/** Objects applied per transaction: each is durable with its mapping rows, so a stop between two never half-applies one. */
const CHUNK = 100;
const ACTOR = 'caldav';

const zero = (): SyncCounts => ({ pulled: 0, pushed: 0, removed_local: 0, removed_remote: 0, conflicts: 0 });
const accountId = (userId: string, name: string) => `${userId}/${name}`;
const itemId = (accountId: string, eventUid: string) => `${accountId}|${eventUid}`;

/**
 * Two-way sync of a user's calendar with one CalDAV collection. Pull first (sync-collection, else
 * ctag and an etag listing), every changed object fetched before anything is written; then push
 * kairos' creations, edits and removals with If-None-Match / If-Match. Both sides changed: the
 * server's version wins in the calendar, the local one is kept as a `sync_conflict` trace and
 * announced on /ws. A second run with nothing changed sends no write to the server.
 */
export class CaldavService {
  private readonly running = new Map<string, Promise<SyncRun>>();

  constructor(private readonly d: CaldavDeps) {}

  /**
   * Add an account: the credentials are tried first (nothing is stored when they fail). An OAuth
   * account names one of the caller's providers and a URL on its hosts; only the name is stored,
   * its tokens stay in the provider's file.
   */
  async add(p: Principal, req: AddAccountRequest): Promise<CaldavAccount> {
    const id = accountId(p.userId, req.name);
    if (this.d.store.get('caldav_accounts', id)) throw conflict(`You already have a sync account named "${req.name}".`, 'account_exists');
    if (this.d.store.byIndex('caldav_accounts', 'user_id', p.userId).length >= this.d.maxAccounts)
      throw capReached('CalDAV accounts', 'sync.max_accounts', this.d.maxAccounts);
    const oauth = 'oauth' in req ? req.oauth : null;
    if (oauth !== null) await this.d.grants.attach(p, oauth, req.url);
    const creds: CalDavCredentials = 'oauth' in req ? this.bearer(req.oauth) : { username: req.username, password: req.password };
    // A collection that cannot be reached or read, or a grant that no longer holds, is something to correct: 422, nothing stored.
    await this.d.connector.open(req.url, creds).catch((e: unknown) => {
      if (e instanceof CalDavError) throw new AppError(422, e.code, `${e.message} The account was not added.`.replace('Nothing was changed. ', ''));
      if (e instanceof AppError && e.status < 500) throw new AppError(422, e.code, `${e.message} The account was not added.`);
      throw asAppError(e);
    });
    if (!('oauth' in req)) await this.d.secrets.set(id, { username: req.username, password: req.password });
    const acct: StoredCaldavAccount = {
      id,
      name: req.name,
      user_id: p.userId,
      url: req.url,
      username: 'oauth' in req ? null : req.username,
      auth: oauth !== null ? 'oauth' : 'password',
      oauth_provider: oauth,
      created_at: this.d.clock.now().toISOString(),
      last_sync_at: null,
      last_success_at: null,
      last_error: null,
      last_counts: null,
      sync_token: null,
      ctag: null,
    };
    await this.d.store.transact((tx) => {
      // Checked again here: two adds may both have passed the first check while their servers answered.
      if (tx.get('caldav_accounts', id)) throw conflict(`You already have a sync account named "${req.name}".`, 'account_exists');
      if (tx.byIndex('caldav_accounts', 'user_id', p.userId).length >= this.d.maxAccounts)
        throw capReached('CalDAV accounts', 'sync.max_accounts', this.d.maxAccounts);
      tx.put('caldav_accounts', acct);
    });
    return this.view(acct);
  }

  list(p: Principal): CaldavAccount[] {
    return this.d.store
      .byIndex('caldav_accounts', 'user_id', p.userId)
      .sort((a, b) => a.created_at.localeCompare(b.created_at))
      .map((a) => this.view(a));
  }

  /**
   * Remove the account, its password and its mapping; the events stay in kairos (as local events).
   * An OAuth account's provider is kept: it may serve other accounts (`kairos cal oauth remove`).
   */
  async remove(p: Principal, name: string): Promise<AccountRemoved> {
    const acct = this.owned(p, name);
    await this.running.get(acct.id)?.catch(() => {});
    const items = this.d.store.byIndex('caldav_items', 'account_id', acct.id);
    await this.d.store.transact((tx) => {
      for (const i of items) tx.delete('caldav_items', i.id);
      tx.delete('caldav_accounts', acct.id);
    });
    const secret_removed = await this.d.secrets.delete(acct.id);
    return { deleted: name, secret_removed, oauth_provider: acct.oauth_provider ?? null };
  }

  /** Sync one of the caller's accounts, or all of them. */
  async run(p: Principal, name?: string): Promise<SyncRun[]> {
    const accts = name ? [this.owned(p, name)] : this.d.store.byIndex('caldav_accounts', 'user_id', p.userId);
    const out: SyncRun[] = [];
    for (const a of accts) out.push(await this.runOnce(a.id));
    return out;
  }

  /** Sync every account whose interval has passed (the daemon's timer). */
  async runDue(): Promise<SyncRun[]> {
    const now = this.d.clock.now().getTime();
    const out: SyncRun[] = [];
    for (const a of this.d.store.all('caldav_accounts'))
      if (Date.parse(a.last_sync_at ?? a.created_at) + this.d.everyMs <= now || a.last_sync_at === null) out.push(await this.runOnce(a.id));
    return out;
  }

  private runOnce(id: string): Promise<SyncRun> {
    const running = this.running.get(id);
    if (running) return running;
    const run = this.sync(id).finally(() => this.running.delete(id));
    this.running.set(id, run);
    return run;
  }

  private async sync(id: string): Promise<SyncRun> {
    const acct = this.d.store.get('caldav_accounts', id);
    if (!acct) throw notFound(`No sync account ${id}.`);
    const at = this.d.clock.now().toISOString();
    const result: SyncRun = { account: acct.name, at, status: 'ok', method: 'none', counts: zero(), conflicts: [] };
    try {
      const session = await this.d.connector.open(acct.url, await this.credentials(acct));
      await this.pull(acct, session, result);
      await this.push(acct, session, result);
    } catch (e) {
      const err = asAppError(e);
      result.status = 'failed';
      result.error = { code: err.code, message: err.message };
      this.d.logger.warn({ account: acct.name, code: err.code, ...(err.code === 'sync_failed' ? { err: String(e) } : {}) }, 'caldav sync failed');
    }
    await this.d.store.transact((tx) => {
      const cur = tx.get('caldav_accounts', id);
      if (!cur) return;
      tx.put('caldav_accounts', {
        ...cur,
        last_sync_at: at,
        last_counts: result.counts,
        ...(result.status === 'ok' ? { last_success_at: at, last_error: null } : { last_error: { ...result.error!, at } }),
      });
    });
    return result;
  }

  // ------------------------------------------------------------------ pull

  private async pull(acct: StoredCaldavAccount, session: CalDavSession, result: SyncRun): Promise<void> {
    const items = this.d.store.byIndex('caldav_items', 'account_id', acct.id);
    const byHref = new Map(items.map((i) => [i.href, i]));
    const changes = await session.changes({ syncToken: acct.sync_token, ctag: acct.ctag });
    result.method = changes.method;
    let changed: string[] = [];
    let removed: string[] = [];
    if (changes.method === 'sync-collection') {
      changed = changes.changed.filter((r) => r.etag === null || byHref.get(r.href)?.etag !== r.etag).map((r) => r.href);
      removed = changes.removed.filter((h) => byHref.has(h));
    } else if (changes.method === 'etag-listing') {
      const seen = new Set(changes.all.map((r) => r.href));
      changed = changes.all.filter((r) => r.etag === null || byHref.get(r.href)?.etag !== r.etag).map((r) => r.href);
      removed = items.filter((i) => !seen.has(i.href)).map((i) => i.href);
    }
    this.d.logger.info({ account: acct.name, method: changes.method, changed: changed.length, removed: removed.length }, 'caldav pull');
    // Everything is fetched and read before the first write: a server that goes away now leaves kairos as it was.
    const objects = changed.length ? await session.get(changed) : [];
    const parsed: { obj: RemoteObject; uid: string; core: ImportedCore }[] = [];
    for (const obj of objects) {
      const prepared = await this.d.calendar.readFeed(acct.user_id, obj.data);
      const first = prepared.checked[0];
      if (!first) {
        this.d.logger.warn({ account: acct.name, href: obj.href, errors: prepared.errors.length }, 'caldav object without a readable event skipped');
        continue;
      }
      parsed.push({ obj, uid: first.uid, core: first.core });
    }
    const ports = this.d.calendar.feedPorts();
    const now = this.d.clock.now();
    type Step = { kind: 'upsert'; p: (typeof parsed)[number] } | { kind: 'gone'; href: string };
    const steps: Step[] = [...parsed.map((p) => ({ kind: 'upsert' as const, p })), ...removed.map((href) => ({ kind: 'gone' as const, href }))];
    for (let at = 0; at < steps.length; at += CHUNK) {
      const chunk = steps.slice(at, at + CHUNK);
      const staged = await this.d.store.transact((tx) => {
        const done: StagedChange[] = [];
        const traces: StoredTrace[] = [];
        for (const s of chunk) {
          if (s.kind === 'gone') {
            const item = tx.get('caldav_items', byHref.get(s.href)!.id);
            if (!item) continue;
            const local = tx.get('events', item.event_uid);
            if (local && eventFingerprint(local) !== item.fingerprint) traces.push(this.conflictTrace(tx, acct, local, 'the server removed it', now, result));
            const r = stageRemoteRemove(ports, tx, item.event_uid, now);
            if (r) {
              done.push(r);
              result.counts.removed_local++;
            }
            tx.delete('caldav_items', item.id);
            continue;
          }
          const { obj, uid, core } = s.p;
          const item = byHref.get(obj.href) ? tx.get('caldav_items', byHref.get(obj.href)!.id) : undefined;
          const local = item ? tx.get('events', item.event_uid) : undefined;
          if (local && item && sameContent(local, core)) {
            // Only what kairos does not model changed (an attendee, an alarm): the new text is the one to write back into.
            stageKeptSource(tx, local, obj.data);
            tx.put('caldav_items', { ...item, etag: obj.etag, fingerprint: eventFingerprint(local) });
            continue;
          }
          if (local && item && eventFingerprint(local) !== item.fingerprint)
            traces.push(this.conflictTrace(tx, acct, local, 'both sides changed it', now, result));
          const r = stageRemoteUpsert(ports, tx, acct.user_id, local?.uid, { icalUid: uid, core, ics: obj.data }, now);
          done.push(r);
          result.counts.pulled++;
          tx.put('caldav_items', {
            id: itemId(acct.id, r.event.uid),
            account_id: acct.id,
            user_id: acct.user_id,
            event_uid: r.event.uid,
            ical_uid: uid,
            href: obj.href,
            etag: obj.etag,
            fingerprint: eventFingerprint(r.event),
          });
        }
        return { done, traces };
      });
      for (const c of staged.done) ports.publish(c.kind, c.event, c.trace);
      for (const t of staged.traces) {
        this.d.announceTrace(t, 'created');
        this.d.bus.publish(acct.user_id, 'event.sync_conflict', { account: acct.name, event_uid: t.linked_event_uid, trace_uid: t.uid });
      }
    }
    // The new token only once every change it covers is applied: a stop before this repeats the pull, which skips what is done.
    await this.d.store.transact((tx) => {
      const cur = tx.get('caldav_accounts', acct.id);
      if (!cur) return;
      if (changes.method === 'sync-collection') tx.put('caldav_accounts', { ...cur, sync_token: changes.token });
      else tx.put('caldav_accounts', { ...cur, sync_token: null, ctag: changes.ctag });
    });
  }

  /** Keep the local version of a conflicting event as a trace (reason sync_conflict); the server's goes in the calendar. */
  private conflictTrace(tx: Tx, acct: StoredCaldavAccount, local: StoredEvent, why: string, now: Date, result: SyncRun): StoredTrace {
    const r = local as unknown as Record<string, unknown>;
    const kept = Object.fromEntries(FEED_FIELDS.filter((k) => r[k] !== undefined).map((k) => [k, r[k]]));
    const trace = stageTrace(
      tx,
      {
        user_id: acct.user_id,
        type: 'calendar_event',
        task_id: local.task_id ?? 'calendar',
        content: `Sync conflict with "${acct.name}" on "${local.title}": ${why} while it was changed in kairos. The server's version is in the calendar; this trace keeps the kairos version.`,
        actor: ACTOR,
        linked_event_uid: local.uid,
        fields: { reason: 'sync_conflict', account: acct.name, event_uid: local.uid, local_version: kept, version: local.version },
      },
      now,
    );
    result.counts.conflicts++;
    result.conflicts.push({ event_uid: local.uid, title: local.title, trace_uid: trace.uid });
    return trace;
  }

  // ------------------------------------------------------------------ push

  private async push(acct: StoredCaldavAccount, session: CalDavSession, result: SyncRun): Promise<void> {
    const items = new Map(this.d.store.byIndex('caldav_items', 'account_id', acct.id).map((i) => [i.event_uid, i]));
    const elsewhere = new Set(
      this.d.store
        .byIndex('caldav_accounts', 'user_id', acct.user_id)
        .filter((a) => a.id !== acct.id)
        .flatMap((a) => this.d.store.byIndex('caldav_items', 'account_id', a.id).map((i) => i.event_uid)),
    );
    const now = this.d.clock.now();
    for (const e of this.d.store.byIndex('events', 'user_id', acct.user_id)) {
      if (e.source === 'subscription' || elsewhere.has(e.uid)) continue;
      const item = items.get(e.uid);
      const fp = eventFingerprint(e);
      if (item && item.fingerprint === fp) continue;
      const icalUid = item?.ical_uid ?? e.ical_uid ?? e.uid;
      const href = item?.href ?? session.hrefFor(icalUid);
      // Written into the server's own text when kairos keeps it: only what changed since is replaced.
      const ics = writeBackIcs(e, icalUid, now, keptSource(this.d.store, e.uid));
      let etag: string | null;
      try {
        ({ etag } = await session.put(href, ics, item ? { ifMatch: item.etag } : { ifNoneMatch: true }));
      } catch (err) {
        // The server's copy moved since the pull: the next pull brings it (server wins), so nothing is forced now.
        if (err instanceof CalDavError && err.code === 'precondition_failed') continue;
        throw err;
      }
      const next: CaldavItem = {
        id: itemId(acct.id, e.uid),
        account_id: acct.id,
        user_id: acct.user_id,
        event_uid: e.uid,
        ical_uid: icalUid,
        href,
        etag,
        fingerprint: fp,
      };
      await this.d.store.transact((tx) => {
        tx.put('caldav_items', next);
        // What the server now holds is what the next edit is written into.
        const cur = tx.get('events', e.uid);
        if (cur && eventFingerprint(cur) === fp) stageKeptSource(tx, cur, ics);
      });
      result.counts.pushed++;
    }
    for (const item of items.values()) {
      if (this.d.store.get('events', item.event_uid)) continue;
      try {
        await session.delete(item.href, item.etag);
      } catch (err) {
        if (err instanceof CalDavError && err.code === 'precondition_failed') continue;
        throw err;
      }
      await this.d.store.transact((tx) => {
        tx.delete('caldav_items', item.id);
      });
      result.counts.removed_remote++;
    }
  }

  // ------------------------------------------------------------------ credentials

  /** What a sync run of the account authenticates with: its stored password, or its provider's tokens. */
  private async credentials(acct: StoredCaldavAccount): Promise<CalDavCredentials> {
    if (acct.auth === 'oauth' && acct.oauth_provider) {
      await this.d.grants.reach(acct.user_id, acct.oauth_provider, acct.url);
      return this.bearer(acct.oauth_provider);
    }
    const secret = await this.d.secrets.get(acct.id);
    if (!secret) throw new CalDavError('caldav_auth_failed', `No password is stored for "${acct.name}": remove the account and add it again.`);
    return secret;
  }

  /** Bearer credentials over the token source: a token when the session opens, a fresh one if the server refuses it. */
  private bearer(provider: string): CalDavCredentials {
    return { provider, accessToken: (o) => this.d.tokens.accessToken(provider, o), reauthorize: this.d.tokens.reauthorizeCommand(provider) };
  }

  // ------------------------------------------------------------------ reads

  private owned(p: Principal, name: string): StoredCaldavAccount {
    const a = this.d.store.get('caldav_accounts', accountId(p.userId, name));
    if (!a) throw notFound(`No sync account named "${name}". See: kairos cal sync list`);
    return a;
  }

  private view(a: StoredCaldavAccount): CaldavAccount {
    const { id: _i, sync_token: _t, ctag: _c, ...shown } = a;
    return { ...shown, oauth_provider: a.oauth_provider ?? null, events: this.d.store.byIndex('caldav_items', 'account_id', a.id).length };
  }
}

function sameContent(e: StoredEvent, core: ImportedCore): boolean {
  const r = e as unknown as Record<string, unknown>;
  const c = core as unknown as Record<string, unknown>;
  return FEED_FIELDS.every((k) => JSON.stringify(r[k] ?? null) === JSON.stringify(c[k] ?? null));
}

/** A sync failure as the API's error: a CalDAV one keeps its code (401/403 from the server is a 422 here: the stored credentials are wrong, not the caller's key). */
function asAppError(e: unknown): AppError {
  if (e instanceof AppError) return e;
  if (e instanceof CalDavError)
    return new AppError(e.code === 'caldav_auth_failed' || e.code === 'caldav_not_calendar' ? 422 : 502, e.code, e.message, { expose: true });
  return new AppError(500, 'sync_failed', 'The sync stopped on an internal error (see the daemon log); nothing half-applied is kept.', { cause: e });
}
