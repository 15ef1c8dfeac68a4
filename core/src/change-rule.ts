/**
 * The change rule, written once: "followers down 5% since the previous check", "followers down 5%
 * over 7 days", "engagement rate under 1%". A rule is a measure (a number of the profile or
 * engagement endpoint of the registry), a comparison and a threshold, with its baseline said in
 * words. Checked on each account's value at each check, it gives crossings: a rule fires when it
 * becomes true for an account (at the first check, a rule already true fires once), and again only
 * after it was false. Every product's alert (the n8n trigger, the Sheets tracker's alerts, the
 * Zapier trigger) evaluates it here; they keep its state (RuleState: small, plain JSON) where their
 * platform keeps state between runs.
 */
import { estimateCost } from './cost';
import { noun } from './plural';
import { getEndpoint } from './registry/endpoints';

/** What a rule can watch: a number of an endpoint's answer, the words users read, its unit. */
export const MEASURES = {
  followers: { endpoint: 'profile', field: 'followers', words: 'followers', percent: false },
  following: { endpoint: 'profile', field: 'following', words: 'following', percent: false },
  posts: { endpoint: 'profile', field: 'posts', words: 'posts', percent: false },
  engagement_rate: {
    endpoint: 'insights/profile/engagement',
    field: 'engagement_rate_pct',
    words: 'engagement rate',
    percent: true,
  },
  avg_likes: { endpoint: 'insights/profile/engagement', field: 'avg_likes', words: 'average likes', percent: false },
  avg_comments: {
    endpoint: 'insights/profile/engagement',
    field: 'avg_comments',
    words: 'average comments',
    percent: false,
  },
} as const;
export type Measure = keyof typeof MEASURES;

/** down/up: a relative change (threshold in %) against a baseline; under/over: the value itself. */
export type Comparison = 'down' | 'up' | 'under' | 'over';

export interface ChangeRule {
  measure: Measure;
  comparison: Comparison;
  /** down/up: percent of change (5 = 5 %); under/over: the value, in the measure's unit (1 = 1 % for a rate). */
  threshold: number;
  /** down/up only: 'previous' (since the previous check) or a number of days (over N days). */
  baseline?: 'previous' | number;
}

/** One account's kept checks and whether the rule held at its last one. */
export interface AccountState {
  /** Kept checks, oldest first: [time in ms, value]. At most BUCKETS + 2 (one per 1/BUCKETS of the baseline's days). */
  h: [number, number][];
  /** Whether the rule held at the last check (a crossing needs it false first). */
  on: boolean;
}

/** A rule's state across checks: plain JSON, per account (the key the product watches it by). */
export interface RuleState {
  v: 1;
  accounts: Record<string, AccountState>;
}

export interface Crossing {
  account: string;
  /** The rule in words: "followers down 5% over 7 days". */
  rule: string;
  measure: Measure;
  /** The check's time (ms). */
  at: number;
  /** The value compared with: the baseline (down/up) or the previous check's (under/over; null at the first check). */
  before: number | null;
  /** When `before` was checked (ms; null with it). */
  beforeAt: number | null;
  after: number;
  /** after - before (null without a before). */
  change: number | null;
  /** The change in % of before (null without a before or when before is 0). */
  changePct: number | null;
}

const DAY = 86_400_000;
/** An N-day baseline keeps one check per N/BUCKETS days: the baseline is N days old to within that. */
const BUCKETS = 24;

const MEASURE_NAMES = Object.keys(MEASURES) as Measure[];
const num = (n: number) => String(Math.round(n * 1e6) / 1e6);

/** Throws a sentence naming what is wrong with `rule` and what is expected. */
export function checkRuleShape(rule: ChangeRule): ChangeRule {
  if (!MEASURE_NAMES.includes(rule.measure))
    throw new Error(`The measure must be one of ${MEASURE_NAMES.join(', ')}; got "${String(rule.measure)}".`);
  if (!['down', 'up', 'under', 'over'].includes(rule.comparison))
    throw new Error(`The comparison must be down, up, under or over; got "${String(rule.comparison)}".`);
  if (!(typeof rule.threshold === 'number' && Number.isFinite(rule.threshold) && rule.threshold >= 0))
    throw new Error(`The threshold must be a number, 0 or more; got "${String(rule.threshold)}".`);
  const relative = rule.comparison === 'down' || rule.comparison === 'up';
  if (relative) {
    const b = rule.baseline;
    if (!(b === 'previous' || (typeof b === 'number' && Number.isFinite(b) && b > 0 && b <= 365)))
      throw new Error(
        `A rule of a change (${rule.comparison}) needs its baseline: "previous" (since the previous check) ` +
          `or a number of days from 1 to 365 (over N days); got "${String(b)}".`,
      );
    const most = rule.comparison === 'down' ? ' and at most 100 %' : '';
    if (rule.threshold === 0 || (rule.comparison === 'down' && rule.threshold > 100))
      throw new Error(`The change must be over 0 %${most}; got ${rule.threshold} %.`);
  } else if (rule.baseline !== undefined)
    throw new Error(`A rule of a value (${rule.comparison}) has no baseline; remove "${String(rule.baseline)}".`);
  return rule;
}

/**
 * The rule in words: "followers down 5% since the previous check", "engagement rate under 1%".
 * `check`: what the product calls one check ("run" for a Sheets tracker: "since the previous run").
 */
export function describeRule(rule: ChangeRule, check: 'check' | 'run' = 'check'): string {
  const m = MEASURES[rule.measure];
  const pct = m.percent ? '%' : '';
  if (rule.comparison === 'under' || rule.comparison === 'over')
    return `${m.words} ${rule.comparison} ${num(rule.threshold)}${pct}`;
  const b = rule.baseline;
  const since =
    b === 'previous' ? `since the previous ${check}` : `over ${num(b as number)} ${noun(b as number, 'day')}`;
  return `${m.words} ${rule.comparison} ${num(rule.threshold)}% ${since}`;
}

const WORDS: [RegExp, Measure][] = [
  [/^followers?$/, 'followers'],
  [/^following$/, 'following'],
  [/^posts?$/, 'posts'],
  [/^(engagement( rate)?|er)$/, 'engagement_rate'],
  [/^(average |avg\.? ?)?likes$/, 'avg_likes'],
  [/^(average |avg\.? ?)?comments$/, 'avg_comments'],
];

/**
 * A rule from its words, as describeRule writes them (and a few close forms: "fell", "rose",
 * "below", "above", "in 7 days", "since the last run"). Throws a sentence with an example.
 */
export function parseRule(text: string): ChangeRule {
  const t = text.trim().toLowerCase().replace(/\s+/g, ' ');
  const example =
    'Write it like "followers down 5% since the previous check", "followers down 5% over 7 days" ' +
    'or "engagement rate under 1%".';
  const m =
    /^(.+?) (down|up|fell|fall|falls|rose|rise|rises|under|below|over|above) (?:by )?([\d.,]+) ?(%?)(?: (.*))?$/.exec(
      t,
    );
  if (!m) throw new Error(`Not a rule: "${text}". ${example}`);
  const [, what, verb, amount, pctSign, rest] = m;
  const measure = WORDS.find(([re]) => re.test(what))?.[1];
  if (!measure)
    throw new Error(
      `Not a measure: "${what}". Measures: ${MEASURE_NAMES.map((k) => MEASURES[k].words).join(', ')}. ${example}`,
    );
  const comparison: Comparison = /^(down|fell|falls?)$/.test(verb)
    ? 'down'
    : /^(up|rose|rises?)$/.test(verb)
      ? 'up'
      : /^(under|below)$/.test(verb)
        ? 'under'
        : 'over';
  const threshold = Number(amount.replace(',', '.'));
  if (!Number.isFinite(threshold)) throw new Error(`Not a number: "${amount}" in "${text}". ${example}`);
  if (comparison === 'under' || comparison === 'over') {
    if (rest) throw new Error(`"${rest}" after a value: "${text}" compares the value itself. ${example}`);
    if (pctSign && !MEASURES[measure].percent)
      throw new Error(`${MEASURES[measure].words} is a count, not a percentage: "${text}". ${example}`);
    return checkRuleShape({ measure, comparison, threshold });
  }
  if (!pctSign) throw new Error(`A change is in %: "${text}" (e.g. "down 5%"). ${example}`);
  let baseline: ChangeRule['baseline'];
  if (rest && /^since (the )?(previous|last) (check|run)$/.test(rest)) baseline = 'previous';
  else {
    const d = rest && /^(?:over|in|within) (?:the (?:last|past) )?([\d.]+) days?$/.exec(rest);
    if (!d) throw new Error(`Say the baseline of "${text}": "since the previous check" or "over 7 days". ${example}`);
    baseline = Number(d[1]);
  }
  return checkRuleShape({ measure, comparison, threshold, baseline });
}

/** The credits one check of `accounts` accounts costs: the lookups its measures need, priced by the registry. */
export function checkCost(measures: Measure[], accounts: number): number {
  const ids = [...new Set(measures.map((m) => MEASURES[m].endpoint))];
  return accounts * ids.reduce((sum, id) => sum + estimateCost(getEndpoint(id), {}).credits, 0);
}

/** The value a rule reads from the answer of its measure's endpoint (undefined when it is not a number). */
export function measureOf(measure: Measure, data: Record<string, unknown>): number | undefined {
  const v = data[MEASURES[measure].field];
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** The check a change is measured against, or undefined when there is none yet. */
function baselineOf(rule: ChangeRule, h: [number, number][], at: number): [number, number] | undefined {
  if (!h.length) return undefined;
  if (rule.baseline === 'previous') return h[h.length - 1];
  const cutoff = at - (rule.baseline as number) * DAY;
  // the latest check at or before the cutoff; before the watch is that old, its first check
  let best = h[0];
  for (const e of h) if (e[0] <= cutoff) best = e;
  return best;
}

/** Keeps what the next checks can need: the last check for "previous"; for N days, one check per N/BUCKETS days. */
function kept(rule: ChangeRule, h: [number, number][], at: number): [number, number][] {
  if (rule.baseline !== 'previous' && typeof rule.baseline === 'number') {
    const window = rule.baseline * DAY;
    const bucket = window / BUCKETS;
    const cutoff = at - window;
    // the latest at or before the cutoff stays (the next checks' baseline), older ones go
    let first = 0;
    for (let i = 0; i < h.length; i++) if (h[i][0] <= cutoff) first = i;
    return thin(h.slice(first), bucket);
  }
  return h.slice(-1);
}

/** One check per bucket (the first of it), the newest kept whatever its bucket. */
function thin(h: [number, number][], bucket: number): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < h.length; i++) {
    const prev = out[out.length - 1];
    const newest = i === h.length - 1;
    if (prev && !newest && Math.floor(prev[0] / bucket) === Math.floor(h[i][0] / bucket)) continue;
    out.push(h[i]);
  }
  return out;
}

/** Whether the rule holds for `after` against `before` (relative rules need a non-zero before). */
function holds(rule: ChangeRule, before: number | undefined, after: number): boolean {
  switch (rule.comparison) {
    case 'under':
      return after < rule.threshold;
    case 'over':
      return after > rule.threshold;
    default: {
      if (before === undefined || before === 0) return false;
      const pct = ((after - before) / Math.abs(before)) * 100;
      // a tolerance for floating point: "down 5%" holds at exactly 5 %
      return rule.comparison === 'down' ? pct <= -rule.threshold + 1e-9 : pct >= rule.threshold - 1e-9;
    }
  }
}

/**
 * One check: the value of each watched account at `at` (undefined when its lookup failed this time:
 * its state stays as it was). Accounts in the state that are not in `values` are no longer watched:
 * they are dropped. Returns the new state (the given one is not changed) and the crossings, in the
 * order of `values`.
 */
export function checkRule(
  rule: ChangeRule,
  state: RuleState | undefined,
  at: number,
  values: Record<string, number | undefined>,
): { state: RuleState; crossings: Crossing[] } {
  checkRuleShape(rule);
  const old = state?.v === 1 ? state.accounts : {};
  const accounts: Record<string, AccountState> = {};
  const crossings: Crossing[] = [];
  const words = describeRule(rule);
  for (const [account, value] of Object.entries(values)) {
    const prior = old[account];
    if (value === undefined || !Number.isFinite(value)) {
      if (prior) accounts[account] = prior;
      continue;
    }
    const h = prior?.h ?? [];
    const relative = rule.comparison === 'down' || rule.comparison === 'up';
    const base = relative ? baselineOf(rule, h, at) : h[h.length - 1];
    const on = holds(rule, base?.[1], value);
    if (on && !prior?.on) {
      const before = base ? base[1] : null;
      crossings.push({
        account,
        rule: words,
        measure: rule.measure,
        at,
        before,
        beforeAt: base ? base[0] : null,
        after: value,
        change: before === null ? null : value - before,
        changePct: before === null || before === 0 ? null : ((value - before) / Math.abs(before)) * 100,
      });
    }
    accounts[account] = { h: kept(rule, [...h, [at, value]], at), on };
  }
  return { state: { v: 1, accounts }, crossings };
}

/** The crossings of one account's series of checks (oldest first), from no state. */
export function crossingsOf(
  rule: ChangeRule,
  series: { at: number; value: number }[],
  account = 'account',
): Crossing[] {
  let state: RuleState | undefined;
  const out: Crossing[] = [];
  for (const { at, value } of series) {
    const r = checkRule(rule, state, at, { [account]: value });
    state = r.state;
    out.push(...r.crossings);
  }
  return out;
}
