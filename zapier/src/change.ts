/**
 * The "New Account Change" polling trigger (the n8n trigger's "Account Changed"): at most one check
 * in each period of "Check at most every N minutes", each reading every watched account's measure
 * once (one lookup an account), evaluated by core's change rule; one item per crossing, with
 * before, after and the change. A crossing's `id` is `account:rule:instant`, stable, which Zapier
 * deduplicates per Zap.
 *
 * The state (core's RuleState, the last check's time, the crossings of the last 30 minutes) is kept
 * in z.cache by kept.ts: per Zap where Zapier gives the Zap's id; without one, two Zaps of one
 * connection watching the same accounts by the same rule cannot be told apart, so they share one
 * watch: checked once a period for all of them, and every poll hands out the crossings found within
 * LOG_WINDOW_MS. Zapier polls each Zap at least every 15 minutes, so each crossing is in the answer
 * of every Zap's next poll (twice over), and Zapier's deduplication, kept per Zap, lets each Zap
 * emit it once (feed-shared.ts does the same with posts).
 *
 * The populating poll (`isPopulatingDedupe`, when the Zap is turned on) only fills Zapier's
 * deduplication table: with no state it makes the first check and returns nothing, and the
 * crossings of that check (a rule already true fires once at the first check: core) come out at the
 * next poll, under ids the populating poll did not return. With a state (a shared watch, a Zap
 * turned on again) it checks nothing and returns what was handed out lately.
 */
import { createHash } from 'node:crypto';
import type { Bundle, ZObject } from 'zapier-platform-core';
import type { ApiResult, Crossing, RuleState } from '@igdata/core';
import { checkRule, crossingItem, describeRule, isIgError, measureOf, stopsBulkRun } from '@igdata/core';
import { lookUpEach } from './client';
import { asZapierError } from './errors';
import { STATE_TTL_SECONDS, isDue } from './feed-rule';
import type { Watch } from './change-fields';
import { watchOf } from './change-fields';
import { keptOf } from './kept';
import type { OutputField } from './outputs';

type Item = Record<string, unknown>;

/** What z.cache keeps for one watch (a rule on a set of accounts). */
interface Watched {
  checkedAt: number;
  state: RuleState;
  /** Crossings found within LOG_WINDOW_MS, newest check first, with when they were found. */
  log: { at: number; item: Item }[];
}

const MINUTE = 60_000;
/** Zapier's longest polling interval (its Free plan's), twice: a late or failed poll still gets them. */
const LOG_WINDOW_MS = 2 * 15 * MINUTE;
/** Longer than a step may run (30 s): a check whose step died frees the watch after this. */
const CHECKING_LOCK_SECONDS = 60;

/** A crossing as the trigger's item (core's, as the n8n trigger's), with Zapier's `id`. */
export function itemOf(c: Crossing): Item {
  const item = crossingItem(c);
  return { id: `${c.account}:${c.rule}:${item.checked_at}`, ...item };
}

/** The item's fields, labelled for the Zap editor. */
export const CHANGE_OUTPUT_FIELDS: OutputField[] = [
  { key: 'id', label: 'ID', type: 'string' },
  { key: 'account', label: 'Account', type: 'string' },
  { key: 'rule', label: 'Rule', type: 'string' },
  { key: 'measure', label: 'Measure', type: 'string' },
  { key: 'before', label: 'Before', type: 'number' },
  { key: 'after', label: 'After', type: 'number' },
  { key: 'change', label: 'Change', type: 'number' },
  { key: 'change_pct', label: 'Change (%)', type: 'number' },
  { key: 'checked_at', label: 'Checked At', type: 'datetime' },
  { key: 'before_at', label: 'Before Checked At', type: 'datetime' },
];

const isWatched = (s: unknown): s is Watched =>
  typeof s === 'object' &&
  s !== null &&
  typeof (s as Watched).checkedAt === 'number' &&
  typeof (s as Watched).state === 'object' &&
  Array.isArray((s as Watched).log);

const handedOut = (s: Watched | null, now: number): Item[] =>
  s ? s.log.filter((l) => now - l.at < LOG_WINDOW_MS).map((l) => l.item) : [];

/** The watch's name: the rule in words and its accounts (another rule or set starts afresh). */
function nameOf(w: Watch): string {
  const accounts = w.calls.map((c) => String(c.params.handle)).sort();
  const hash = createHash('sha256')
    .update(JSON.stringify([describeRule(w.rule), accounts]))
    .digest('base64url');
  return `change:${hash.slice(0, 22)}`;
}

/** Kept as long as a Zap off for a month, and at least the baseline's days and a period more. */
const ttlOf = (w: Watch) =>
  Math.max(
    STATE_TTL_SECONDS,
    (typeof w.rule.baseline === 'number' ? w.rule.baseline * 86_400 : 0) + w.everyMinutes * 60 + 86_400,
  );

/** Each account's value now (undefined where its lookup failed: it keeps its state); all failing: the step's error. */
async function valuesOf(z: ZObject, bundle: Bundle, w: Watch): Promise<Record<string, number | undefined>> {
  const outcomes = await lookUpEach(z, bundle, w.calls);
  const values: Record<string, number | undefined> = {};
  let failed: { error: unknown; index: number } | undefined;
  outcomes.forEach((o, i) => {
    const handle = String(w.calls[i].params.handle);
    if (isIgError(o)) {
      // a bad key or an empty balance fails every lookup: say so now rather than skip them all
      if (stopsBulkRun(o)) throw asZapierError(z, o, w.calls[i]);
      failed ??= { error: o, index: i };
      values[handle] = undefined;
    } else values[handle] = measureOf(w.rule.measure, (o as ApiResult).data);
  });
  if (failed && Object.values(values).every((v) => v === undefined))
    throw asZapierError(z, failed.error, w.calls[failed.index]);
  return values;
}

/** A sample (`isLoadingSample`): one check from no state, nothing kept; each account as a first check shows it. */
async function sampleCheck(z: ZObject, bundle: Bundle, w: Watch): Promise<Item[]> {
  const now = Date.now();
  const values = await valuesOf(z, bundle, w);
  const { crossings } = checkRule(w.rule, undefined, now, values);
  const shown: Crossing[] = crossings.length
    ? crossings
    : Object.entries(values)
        .filter((e): e is [string, number] => e[1] !== undefined)
        .map(([account, after]) => ({
          account,
          rule: describeRule(w.rule),
          measure: w.rule.measure,
          at: now,
          before: null,
          beforeAt: null,
          after,
          change: null,
          changePct: null,
        }));
  const limit = bundle.meta?.limit ?? 0;
  return (limit > 0 ? shown.slice(0, limit) : shown).map(itemOf);
}

export async function checkChange(z: ZObject, bundle: Bundle): Promise<Item[]> {
  const w = watchOf(z, bundle);
  if (bundle.meta?.isLoadingSample) return sampleCheck(z, bundle, w);
  const kept = keptOf(z, bundle);
  const name = nameOf(w);
  const populating = !!bundle.meta?.isPopulatingDedupe;
  const now = Date.now();
  const stateOf = async () => {
    const s = await kept.get<Watched>(name);
    return isWatched(s) ? s : null;
  };
  const idle = (s: Watched | null) => !!s && (populating || !isDue(s.checkedAt, now, w.everyMinutes));
  let s = await stateOf();
  if (idle(s)) return handedOut(s, now);
  const lock = `${name}:checking`;
  if (!(await kept.set(lock, now, CHECKING_LOCK_SECONDS, true))) return handedOut(s, now);
  try {
    s = await stateOf(); // another poll may have checked since
    if (idle(s)) return handedOut(s, now);
    const { state, crossings } = checkRule(w.rule, s?.state, now, await valuesOf(z, bundle, w));
    const fresh = crossings.map((c) => ({ at: now, item: itemOf(c) }));
    const log = [...fresh, ...(s?.log ?? [])].filter((l) => now - l.at < LOG_WINDOW_MS);
    await kept.set(name, { checkedAt: now, state, log } satisfies Watched, ttlOf(w));
    // The populating poll's answer is recorded as seen, never emitted: this check's crossings wait for the next poll.
    return populating ? [] : log.map((l) => l.item);
  } finally {
    await kept.delete(lock);
  }
}
