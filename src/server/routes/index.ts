import type { RouteDef } from '../route.js';
import { agentRoutes } from './agent.js';
import { authRoutes } from './auth.js';
import { caldavRoutes } from './caldav.js';
import { calendarRoutes } from './calendar.js';
import { changesRoutes } from './changes.js';
import { chatRoutes } from './chat.js';
import { chatSummaryRoutes } from './chat-summary.js';
import { debugRoutes } from './debug.js';
import { exportRoutes } from './export.js';
import { memoryRoutes } from './memory.js';
import { statusRoutes } from './status.js';
import { subscriptionRoutes } from './subscriptions.js';
import { systemRoutes } from './system.js';
import { tempoRoutes } from './tempo.js';
import { userRoutes } from './users.js';
import { webRoutes } from './web.js';

/** Every endpoint of the API, in the order the OpenAPI document lists them. */
export function allRoutes(): RouteDef[] {
  return [
    ...systemRoutes,
    ...statusRoutes,
    ...authRoutes,
    ...userRoutes,
    ...webRoutes,
    ...memoryRoutes,
    ...chatRoutes,
    ...chatSummaryRoutes,
    ...debugRoutes,
    ...calendarRoutes,
    ...changesRoutes,
    ...subscriptionRoutes,
    ...caldavRoutes,
    ...tempoRoutes,
    ...exportRoutes,
    ...agentRoutes,
  ];
}
