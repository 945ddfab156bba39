import { z } from 'zod';
import { IsoDateTime } from './common.js';

export const TimeZone = z.string().refine(isTimeZone, { message: 'unknown IANA time zone' });

export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export const Password = z.string().min(8, 'at least 8 characters').max(1024);

export const RegisterRequest = z
  .object({
    email: z.string().email(),
    password: Password,
    display_name: z.string().min(1).max(200),
    timezone: TimeZone.optional(),
  })
  .strict();

export const UserUpdates = z
  .object({
    email: z.string().email(),
    display_name: z.string().min(1).max(200),
    timezone: TimeZone,
    preferences: z.record(z.string(), z.unknown()),
  })
  .partial()
  .strict();

const CurrentPassword = z
  .string()
  .min(1)
  .max(1024)
  .describe('the current password: with a login token (and no admin scope), needed to change the email or the password');

export const UpdateUserRequest = z.object({ user_id: z.string().optional(), updates: UserUpdates, current_password: CurrentPassword.optional() }).strict();

export const SetPasswordRequest = z.object({ email: z.string().email().optional(), password: Password, current_password: CurrentPassword.optional() }).strict();

export const UserProfile = z
  .object({
    user_id: z.string(),
    email: z.string().nullable(),
    display_name: z.string(),
    timezone: z.string(),
    tempo: z.record(z.string(), z.unknown()).describe('the tempo profile (see GET /tempo/profile)'),
    preferences: z.record(z.string(), z.unknown()),
    constraints: z.record(z.string(), z.unknown()).describe('blocked time, cadence and budget rules for agents'),
    created_at: IsoDateTime,
  })
  .meta({ id: 'UserProfile' });
export type UserProfile = z.infer<typeof UserProfile>;

export const ProfileQuery = z.object({ user_id: z.string().optional() });
