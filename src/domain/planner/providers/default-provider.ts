import { planPrompt } from '../core.js';
import type { PlannerInput } from '../types.js';
import type { PlannerProvider, ProviderPlan } from './provider.js';

/** The offline, deterministic planner (the grammar in core.ts): no network, same input → same plan. */
export class DefaultProvider implements PlannerProvider {
  readonly name = 'default';
  readonly model = null;

  async plan(input: PlannerInput): Promise<ProviderPlan> {
    return planPrompt(input);
  }
}
