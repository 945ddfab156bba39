import type { DAVResponse } from 'tsdav';
import {
  type CalDavConnector,
  type CalDavCredentials,
  CalDavError,
  type CalDavSession,
  type ChangeSet,
  type RemoteObject,
  type RemoteRef,
} from '../domain/sync/caldav-port.js';
import { AppError } from '../errors.js';
import { DavThread } from './dav-thread.js';
import { createOutboundClient, type OutboundOptions } from './outbound/outbound-client.js';
import { OutboundError } from './outbound/outbound-error.js';

export interface CalDavOptions {
  /** The outbound client's policy and limits (default: its defaults). */
  outbound?: OutboundOptions;
  /** Objects per calendar-multiget (default 100). */
  batch?: number;
}

/**
 * The CalDAV port over tsdav's request builders (PROPFIND, REPORT sync-collection and
 * calendar-multiget, PUT and DELETE with If-Match / If-None-Match), each sent through the outbound
 * client (tsdav's `fetch` hook): the address policy, the body cap and the deadline hold for every
 * request. tsdav keeps the raw body of a failed answer; nothing of it goes into our errors, which
 * name the status only — and never the credentials, which travel only in the Authorization header.
 */
export function createCalDavConnector(opts: CalDavOptions = {}): CalDavConnector {
  const client = createOutboundClient(opts.outbound);
  const dav = new DavThread(opts.outbound ?? {});
  const batch = opts.batch ?? 100;
  const fetch = (input: RequestInfo | URL, init?: RequestInit) => client.fetch(input instanceof Request ? input.url : input, init);
  // The reports whose multistatus is parsed run on the CalDAV thread; PUT and DELETE stay here.
  const propfind = (p: Record<string, unknown>) => dav.call('propfind', p);
  const syncCollection = (p: Record<string, unknown>) => dav.call('syncCollection', p);
  const calendarMultiGet = (p: Record<string, unknown>) => dav.call('calendarMultiGet', p);
  return {
    async open(url: string, creds: CalDavCredentials): Promise<CalDavSession> {
      // tsdav loads at the first sync, not at every start of the daemon.
      const { createObject, deleteObject, updateObject } = await import('tsdav');
      const base = url.endsWith('/') ? url : `${url}/`;
      const bearer = 'provider' in creds ? creds : undefined;
      const basic = 'password' in creds ? `Basic ${Buffer.from(`${creds.username}:${creds.password}`).toString('base64')}` : '';
      let token = bearer ? await bearer.accessToken({ refresh: false }) : '';
      let refreshed = false;
      const auth = () => ({ authorization: bearer ? `Bearer ${token}` : basic });
      /**
       * Sends a request; a 401 to a Bearer token (expired early, or revoked with the grant still
       * alive) gets one fresh token per session and the request once more. A second 401 is the
       * caller's to report.
       */
      const authed = async <T>(send: (headers: { authorization: string }) => Promise<T>, status: (r: T) => number | undefined): Promise<T> => {
        const first = await send(auth());
        if (!bearer || refreshed || status(first) !== 401) return first;
        if (first instanceof Response) await first.body?.cancel();
        refreshed = true;
        token = await bearer.accessToken({ refresh: true });
        return send(auth());
      };
      const davStatus = (rs: DAVResponse[]) => (rs.length === 1 && rs[0] && !rs[0].props && !rs[0].ok ? rs[0].status : undefined);
      const resStatus = (r: Response) => r.status;
      const guard = async <T>(what: string, fn: () => Promise<T>): Promise<T> => {
        try {
          return await fn();
        } catch (e) {
          // Ours (CalDavError) or the token source's (an AppError naming the provider and its fix).
          if (e instanceof CalDavError || e instanceof AppError) throw e;
          if (e instanceof OutboundError && e.code === 'timeout')
            throw new CalDavError('caldav_timeout', `The CalDAV server did not answer ${what}: ${e.message}.`);
          if (e instanceof OutboundError && e.code === 'too_large')
            throw new CalDavError('caldav_too_large', `The CalDAV server's answer ${what} was too large: ${e.message}.`);
          if (e instanceof OutboundError) throw new CalDavError('caldav_unreachable', `The CalDAV server at ${e.message} ${what}.`);
          throw new CalDavError('caldav_unreachable', `The CalDAV server at ${new URL(base).host} gave no usable answer ${what}.`);
        }
      };
      const failed = (status: number, what: string): CalDavError => {
        if (bearer && status === 401)
          return new CalDavError(
            'caldav_auth_failed',
            `The CalDAV server refused the access token of the OAuth provider "${bearer.provider}" (HTTP 401) ${what}, also a freshly refreshed one. Nothing was changed. Check that this provider grants access to that calendar, then authorize again with: ${bearer.reauthorize}`,
          );
        if (bearer && status === 403)
          return new CalDavError(
            'caldav_auth_failed',
            `The CalDAV server refused access to the token of the OAuth provider "${bearer.provider}" (HTTP 403) ${what}: the grant may lack the calendar scope. Nothing was changed. Add the scope to the provider, then authorize again with: ${bearer.reauthorize}`,
          );
        if (status === 401 || status === 403)
          return new CalDavError('caldav_auth_failed', `The CalDAV server refused the user name or password (HTTP ${status}) ${what}. Nothing was changed.`);
        if (status === 412) return new CalDavError('precondition_failed', `The object changed on the server meanwhile (HTTP 412) ${what}.`);
        return new CalDavError('caldav_http_error', `The CalDAV server answered HTTP ${status} ${what}.`);
      };
      const check = (rs: DAVResponse[], what: string): DAVResponse[] => {
        const top = rs[0];
        if (rs.length === 1 && top && !top.props && !top.ok) throw failed(top.status, what);
        return rs;
      };

      // The collection: credentials right, a calendar, its ctag and sync token, its reports.
      const root = check(
        await guard('when asked about the collection', () =>
          authed(
            (headers) =>
              propfind({
                url: base,
                depth: '0',
                props: { 'd:resourcetype': {}, 'cs:getctag': {}, 'd:sync-token': {}, 'd:supported-report-set': {} },
                headers,
              }),
            davStatus,
          ),
        ),
        'when asked about the collection',
      )[0]!;
      if (!root.ok) throw failed(root.status, 'when asked about the collection');
      if (!root.props?.resourcetype || !('calendar' in root.props.resourcetype))
        throw new CalDavError('caldav_not_calendar', `${base} is not a CalDAV calendar collection; give the URL of one calendar.`);
      const canSync = JSON.stringify(root.props.supportedReportSet ?? '').includes('syncCollection');

      const hrefOf = (href: string) => new URL(href, base).pathname;
      const isObject = (href: string | undefined): href is string => Boolean(href) && hrefOf(href!) !== new URL(base).pathname;
      const etagOf = (r: DAVResponse) => (r.props?.getetag == null ? null : String(r.props.getetag));

      const listing = async (): Promise<RemoteRef[]> => {
        const rs = check(
          await guard('when listing the collection', () =>
            authed((headers) => propfind({ url: base, depth: '1', props: { 'd:getetag': {} }, headers }), davStatus),
          ),
          'when listing the collection',
        );
        return rs.filter((r) => isObject(r.href) && r.ok).map((r) => ({ href: hrefOf(r.href!), etag: etagOf(r) }));
      };
      const ctagNow = async (): Promise<string | null> => {
        const rs = check(
          await guard('when asked for its ctag', () =>
            authed((headers) => propfind({ url: base, depth: '0', props: { 'cs:getctag': {} }, headers }), davStatus),
          ),
          'when asked for its ctag',
        );
        return rs[0]?.props?.getctag == null ? null : String(rs[0].props.getctag);
      };

      return {
        hrefFor: (icalUid) => `${new URL(base).pathname}${encodeURIComponent(icalUid.replace(/[/\\]/g, '_'))}.ics`,

        async changes(state): Promise<ChangeSet> {
          if (canSync) {
            const rs = await guard('during sync-collection', () =>
              authed(
                (headers) =>
                  syncCollection({
                    url: base,
                    props: { 'd:getetag': {} },
                    syncLevel: 1,
                    syncToken: state.syncToken ?? '',
                    headers,
                  }),
                davStatus,
              ),
            );
            const top = rs[0];
            const token = top?.raw?.multistatus?.syncToken;
            // Refused — a token the server no longer knows (RFC 6578 §3.2), or a report it announced but
            // does not serve — falls back to the ctag and an etag listing; a wrong password does not.
            const refused = rs.length === 1 && top !== undefined && !top.ok && !top.props;
            if (refused && top.status === 401) check(rs, 'during sync-collection');
            if (!refused && (typeof token === 'string' || typeof token === 'number')) {
              const objects = rs.filter((r) => isObject(r.href));
              return {
                method: 'sync-collection',
                token: String(token),
                changed: objects.filter((r) => r.status !== 404).map((r) => ({ href: hrefOf(r.href!), etag: etagOf(r) })),
                removed: objects.filter((r) => r.status === 404).map((r) => hrefOf(r.href!)),
              };
            }
          }
          const ctag = await ctagNow();
          if (ctag !== null && ctag === state.ctag) return { method: 'none', ctag };
          return { method: 'etag-listing', ctag, all: await listing() };
        },

        async get(hrefs: string[]): Promise<RemoteObject[]> {
          const out: RemoteObject[] = [];
          for (let at = 0; at < hrefs.length; at += batch) {
            const part = hrefs.slice(at, at + batch);
            const rs = check(
              await guard('when fetching events', () =>
                authed(
                  (headers) =>
                    calendarMultiGet({
                      url: base,
                      props: { 'd:getetag': {}, 'c:calendar-data': {} },
                      objectUrls: part,
                      depth: '1',
                      headers,
                    }),
                  davStatus,
                ),
              ),
              'when fetching events',
            );
            for (const r of rs) {
              if (!r.ok || !isObject(r.href)) continue;
              const data = r.props?.calendarData?._cdata ?? r.props?.calendarData;
              if (typeof data === 'string') out.push({ href: hrefOf(r.href), etag: etagOf(r), data });
            }
          }
          return out;
        },

        async put(href, data, cond) {
          const url = new URL(href, base).toString();
          const res = await guard('when saving an event', () =>
            authed((headers) => {
              const h = { ...headers, 'content-type': 'text/calendar; charset=utf-8' };
              return 'ifNoneMatch' in cond
                ? createObject({ url, data, headers: { ...h, 'If-None-Match': '*' }, fetch })
                : updateObject({ url, data, etag: cond.ifMatch ?? undefined, headers: h, fetch });
            }, resStatus),
          );
          await res.body?.cancel();
          if (!res.ok) throw failed(res.status, 'when saving an event');
          return { etag: res.headers.get('etag') };
        },

        async delete(href, ifMatch) {
          const url = new URL(href, base).toString();
          const res = await guard('when removing an event', () =>
            authed((headers) => deleteObject({ url, etag: ifMatch ?? undefined, headers, fetch }), resStatus),
          );
          await res.body?.cancel();
          // Already gone is what we wanted.
          if (!res.ok && res.status !== 404) throw failed(res.status, 'when removing an event');
        },
      };
    },
  };
}
