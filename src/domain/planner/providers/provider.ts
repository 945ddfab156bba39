import type { ActionNotes, PlannerInput, ProposedAction } from '../types.js';

/** What any provider answers: actions with their reasons, and a reply for a person. */
export interface ProviderPlan {
  actions: ProposedAction[];
  /** Parallel to `actions` when the provider knows them (the default provider does). */
  notes?: ActionNotes[];
  reply: string;
  reasoning: string;
  skipped: { text: string; reason: string }[];
}

/** A planner behind one seam: the offline default, or a language model. */
export interface PlannerProvider {
  readonly name: string;
  readonly model: string | null;
  plan(input: PlannerInput, extra: { memory?: readonly unknown[] }): Promise<ProviderPlan>;
}

/** A provider that could not answer; the service falls back to the default provider. */
export class ProviderFailure extends Error {
  constructor(
    readonly reason: 'timeout' | 'unreachable' | 'http_error' | 'invalid_output' | 'refusal',
    message: string,
  ) {
    super(message);
    this.name = 'ProviderFailure';
  }
}
