import { z } from 'zod';
import { IsoDateTime } from './common.js';
import { UserProfile } from './users.js';

/** A one-time sign-in link for the web page (what `kairos open` opens). */
export const PageCode = z
  .object({
    code: z.string().describe('one-time code: works once, within `expires_at`'),
    url: z.string().describe('the page with the code in its fragment: http://127.0.0.1:PORT/app/#code=CODE'),
    expires_at: IsoDateTime,
  })
  .meta({ id: 'PageCode' });

/** The page signs in with a one-time code, or with email and password. */
export const PageSignIn = z
  .union([z.object({ code: z.string().min(1).max(200) }).strict(), z.object({ email: z.string().email(), password: z.string().min(1).max(1000) }).strict()])
  .meta({ id: 'PageSignIn' });

/** A page session: the cookie carries it; the CSRF token stays in the page's memory. */
export const PageSession = z
  .object({
    user: UserProfile,
    csrf_token: z.string().describe('send it as X-CSRF-Token on every request that is not GET, HEAD or OPTIONS'),
    expires_at: IsoDateTime,
  })
  .meta({ id: 'PageSession' });

export const PageSignedOut = z.object({ signed_out: z.boolean() });
