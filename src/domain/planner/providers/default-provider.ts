import type { PlannerInput } from '../types.js';
import type { PlannerProvider, ProviderPlan } from './provider.js';

/** The offline, deterministic planner (deterministic-planner.ts): no network, same input → same plan. */
export class DefaultProvider implements PlannerProvider {
  readonly name = 'default';
  readonly model = null;

  async plan(input: PlannerInput): Promise<ProviderPlan> {
    // Loaded at the first plan, not at the daemon's start: the grammar brings chrono-node (~50
    // modules), which was a tenth of what a start loaded.
    const { planPrompt } = await import('../deterministic-planner.js');
    return planPrompt(input);
  }
}
