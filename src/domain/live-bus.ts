import { EventEmitter } from 'node:events';
import { newId } from './ids.js';

export const LIVE_EVENT_TYPES = [
  'plan.proposed',
  'plan.approved',
  'plan.rejected',
  'plan.executed',
  'plan.edited',
  'trace.created',
  'trace.updated',
  'event.created',
  'event.updated',
  'event.removed',
  /** A CalDAV sync found both sides changed: the server's version kept, the local one as a sync_conflict trace. */
  'event.sync_conflict',
] as const;
export type LiveEventType = (typeof LIVE_EVENT_TYPES)[number];

export interface LiveEvent {
  id: string;
  type: LiveEventType;
  at: string;
  user_id: string;
  data: unknown;
}

/**
 * Domain services announce committed changes here; the WebSocket layer fans them out to the
 * owning user's connections. Publish only after the store acknowledged the write.
 */
export class EventBus {
  private readonly emitter = new EventEmitter();
  private seq = 0;

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  publish(user_id: string, type: LiveEventType, data: unknown): void {
    const ev: LiveEvent = { id: `${newId('rq').slice(3)}-${++this.seq}`, type, at: new Date().toISOString(), user_id, data };
    this.emitter.emit('event', ev);
  }

  subscribe(fn: (ev: LiveEvent) => void): () => void {
    this.emitter.on('event', fn);
    return () => this.emitter.off('event', fn);
  }
}
