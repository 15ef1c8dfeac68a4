/**
 * What every product's "Account Changed" trigger shares around core's change rule: the accounts a
 * user typed, as one lookup per account, and a crossing as the item a workflow or a Zap receives.
 */
import type { Call } from './types';
import type { ChangeRule, Crossing } from './change-rule';
import { MEASURES } from './change-rule';
import { prepare } from './call';

/**
 * The accounts field ("nasa, @natgeo" or one a line) as one call per account for the rule's
 * measure: the same account written two ways is looked up once. Input core refuses throws its
 * sentence; an empty field says what to give.
 */
export function watchCalls(rule: ChangeRule, accounts: string): Call[] {
  const handles = accounts
    .split(/[\n,]+/)
    .map((h) => h.trim())
    .filter(Boolean);
  if (!handles.length) throw new Error('Accounts is empty: give the handles to watch, e.g. "nasa, natgeo".');
  const byHandle = new Map<string, Call>();
  for (const handle of handles) {
    const call = prepare(MEASURES[rule.measure].endpoint, { handle });
    byHandle.set(String(call.params.handle), call);
  }
  return [...byHandle.values()];
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const round = (x: number | null, digits: number) => (x === null ? null : Math.round(x * 10 ** digits) / 10 ** digits);

/** A crossing as a trigger's item: instants in ISO 8601 (UTC), the change rounded as users read it. */
export function crossingItem(c: Crossing) {
  return {
    account: c.account,
    rule: c.rule,
    measure: c.measure,
    before: c.before,
    after: c.after,
    change: round(c.change, 6),
    change_pct: round(c.changePct, 2),
    checked_at: iso(c.at),
    before_at: iso(c.beforeAt),
  };
}
