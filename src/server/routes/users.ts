import { endpoint } from '../../contracts/endpoints.js';
import { targetUser } from '../../domain/principal.js';
import { route } from '../route.js';

export const userRoutes = [
  route({
    ...endpoint('POST /user/register'),
    tag: 'user',
    summary: 'Create a user (admin)',
    auth: 'admin',
    handler: ({ body, services }) => services.users.register(body),
  }),
  route({
    ...endpoint('GET /user/profile'),
    tag: 'user',
    summary: "The caller's profile: identity, time zone, tempo, preferences and agent constraints",
    auth: 'profile:read',
    handler: ({ query, principal, services }) => services.users.profile(targetUser(principal, query.user_id)),
  }),
  route({
    ...endpoint('PATCH /user/update'),
    tag: 'user',
    summary: 'Change email, display name, time zone or preferences',
    auth: 'profile:write',
    authNote: 'changing `email` needs `admin`, or a login token plus `current_password`',
    handler: ({ body, principal, services }) => services.users.update(principal, body.user_id, body.updates, body.current_password),
  }),
  route({
    ...endpoint('POST /user/password'),
    tag: 'user',
    summary: "Set the caller's email and password (used by `kairos user passwd`)",
    auth: 'profile:write',
    authNote: 'needs `admin`, or a login token plus `current_password`',
    handler: ({ body, principal, services }) => services.users.setPassword(principal, body),
  }),
];
