/**
 * Steps: a test's control over an account's numbers. A step multiplies one measure of a seeded
 * account from an instant of the world's time on (followers, or the likes and comments of its
 * posts: its engagement), on top of the world's own drift (moving.ts). Tests place steps to know
 * exactly which changes a watcher must see; the drift alone never makes followers fall 5 % in a
 * week (test/sandbox/steps.test.ts).
 */
export const STEP_MEASURES = ['followers', 'engagement'] as const;
export type StepMeasure = (typeof STEP_MEASURES)[number];

export interface Step {
  username: string;
  measure: StepMeasure;
  /** World time (ms) from which the step holds. */
  at: number;
  /** Relative change: -0.1 multiplies the measure by 0.9 from `at` on. */
  change: number;
}

export class Steps {
  private readonly byAccount = new Map<string, Step[]>();
  private engagementSteps = 0;

  /** Adds a step for account `id`; `worldNow` is the world's time: a step cannot be placed before it. */
  add(id: string, step: Step, worldNow: number): Step[] {
    if (!(STEP_MEASURES as readonly string[]).includes(step.measure))
      throw new Error(`measure must be one of ${STEP_MEASURES.join(', ')}; got "${step.measure}"`);
    if (!(Number.isFinite(step.change) && step.change >= -1 && step.change <= 100))
      throw new Error(`change must be a fraction from -1 to 100 (-0.1 = down 10 %); got ${step.change}`);
    if (!Number.isFinite(step.at)) throw new Error('at must be an instant (ISO 8601, like 2026-11-25T10:00:00Z)');
    if (step.at < worldNow)
      throw new Error(
        `at ${new Date(step.at).toISOString()} is before the world's time ${new Date(worldNow).toISOString()}: ` +
          'answers already given would change; place steps at the world time or later',
      );
    const list = this.byAccount.get(id) ?? [];
    list.push({ ...step });
    list.sort((x, y) => x.at - y.at);
    this.byAccount.set(id, list);
    if (step.measure === 'engagement') this.engagementSteps++;
    return list.map((s) => ({ ...s }));
  }

  touches(id: string): boolean {
    return this.byAccount.has(id);
  }

  /** Whether any engagement step exists (lists of posts need no second look otherwise). */
  anyEngagement(): boolean {
    return this.engagementSteps > 0;
  }

  /** The product of (1 + change) of the account's steps of `measure` placed at `at` or before. */
  factor(id: string, measure: StepMeasure, at: number): number {
    const list = this.byAccount.get(id);
    let k = 1;
    if (list) for (const s of list) if (s.measure === measure && s.at <= at) k *= 1 + s.change;
    return k;
  }
}
