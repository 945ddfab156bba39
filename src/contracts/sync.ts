import { z } from 'zod';
import { IsoDateTime } from './common.js';

/**
 * Calendar sync: subscriptions to remote .ics feeds (read-only, refreshed by the daemon). One
 * schema per shape; the stored documents extend these in stored.ts.
 */

/** Shortest and longest refresh interval of a subscription, in minutes. */
export const SUBSCRIPTION_EVERY = { min: 5, max: 7 * 1440, default: 60 } as const;

/** A feed address: http(s) or webcal (read as https). Credentials in the URL are refused: they would be shown back. */
export const FeedUrl = z
  .string()
  .trim()
  .max(2048)
  .superRefine((v, ctx) => {
    let u: URL;
    try {
      u = new URL(v);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'not a URL' });
      return;
    }
    if (!['http:', 'https:', 'webcal:', 'webcals:'].includes(u.protocol))
      ctx.addIssue({ code: 'custom', message: `only http, https and webcal URLs can be subscribed to, not ${u.protocol.replace(':', '')}` });
    if (u.username || u.password) ctx.addIssue({ code: 'custom', message: 'a user name or password in the URL is not accepted' });
  })
  .describe('http(s):// or webcal:// address of an iCalendar feed');

export const SubscribeRequest = z
  .object({
    url: FeedUrl,
    name: z.string().trim().min(1).max(200).optional().describe("shown on the feed's events; default: the URL's host and file"),
    every_minutes: z
      .number()
      .int()
      .min(SUBSCRIPTION_EVERY.min)
      .max(SUBSCRIPTION_EVERY.max)
      .optional()
      .describe(`refresh interval (default ${SUBSCRIPTION_EVERY.default})`),
  })
  .strict();
export type SubscribeRequest = z.infer<typeof SubscribeRequest>;

/** The outcome of one refresh of a feed. */
export const RefreshOutcome = z
  .object({
    at: IsoDateTime,
    status: z.enum(['updated', 'not_modified', 'failed']),
    imported: z.number().int().describe('events new in the feed'),
    updated: z.number().int().describe('events whose content changed'),
    removed: z.number().int().describe('events gone from the feed, removed locally'),
    unchanged: z.number().int(),
    errors: z
      .array(z.object({ uid: z.string().optional(), line: z.number().int().optional(), message: z.string() }))
      .describe('events of the feed that could not be read (their last good copy is kept)'),
    error: z.object({ code: z.string(), message: z.string() }).optional().describe('why the refresh failed (the last good copy is kept)'),
  })
  .meta({ id: 'SubscriptionRefresh' });
export type RefreshOutcome = z.infer<typeof RefreshOutcome>;

export const Subscription = z
  .object({
    id: z.string(),
    user_id: z.string(),
    name: z.string(),
    url: z.string(),
    every_minutes: z.number().int(),
    event_count: z.number().int().describe('events of this feed in the calendar'),
    created_at: IsoDateTime,
    last_refresh_at: IsoDateTime.nullable(),
    last_success_at: IsoDateTime.nullable(),
    last_error: z.object({ code: z.string(), message: z.string(), at: IsoDateTime }).nullable(),
    next_refresh_at: IsoDateTime,
  })
  .meta({ id: 'Subscription' });
export type Subscription = z.infer<typeof Subscription>;

export const SubscriptionCreated = Subscription.extend({ refresh: RefreshOutcome }).meta({ id: 'SubscriptionCreated' });
export const SubscriptionList = z.object({ subscriptions: z.array(Subscription) });
export const SubscriptionIdParams = z.object({ id: z.string().min(1) });
export const SubscriptionRemoved = z.object({ deleted: z.string(), events_removed: z.number().int() });
