/**
 * The input of the "New Account Change" trigger (the n8n trigger's "Account Changed" event, with
 * the same words): the accounts, the rule (core's change rule: a measure, a comparison, a threshold
 * and its baseline) and "Check at most every N minutes". What a check costs is said from the
 * registry's prices (core's checkCost), never written here.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import type { Call, ChangeRule, Comparison, Measure } from '@igdata/core';
import { MEASURES, checkCost, checkRuleShape, counted, isIgError, plural, watchCalls } from '@igdata/core';
import { asZapierError } from './errors';
import { wholeNumberOf } from './fields';

const DAY_MINUTES = 1440;
/** The default period: one check an hour (24 a day), as the n8n trigger's default. */
export const CHANGE_EVERY_DEFAULT = 60;
/** At most a week between checks (a longer setting falls back to the default). */
const EVERY_MAX = 7 * DAY_MINUTES;
/** Accounts one check may read: their lookups run at once and answer well within Zapier's 30 s a step. */
export const ACCOUNTS_MAX = 50;

const credits = (c: number) => counted(c, 'credit');
const measureNames = Object.keys(MEASURES) as Measure[];
const lookups = [...new Set(measureNames.map((m) => MEASURES[m].endpoint))].map((id) => {
  const measures = measureNames.filter((m) => MEASURES[m].endpoint === id);
  return { id, words: measures.map((m) => MEASURES[m].words), credits: checkCost(measures, 1) };
});

/** "followers, following, posts (profile): 1 credit; engagement rate, ... (insights/profile/engagement): 2 credits" */
const CHECK_PRICES = lookups.map((l) => `${l.words.join(', ')} (${l.id}): ${credits(l.credits)}`).join('; ');

/** The price sentences of the trigger: per account and check, and a day at a few settings. */
export function changeCost(): string {
  const followers = checkCost(['followers'], 1);
  const day = (every: number) => credits(3 * (DAY_MINUTES / every) * followers);
  return (
    `Each check costs, per account: ${CHECK_PRICES}. One check at most in each period of "Check at most every ` +
    `N minutes", whatever Zapier's polling: a day costs accounts × that price × 1,440 / N. Three accounts of ` +
    `followers: ${day(CHANGE_EVERY_DEFAULT)} a day with the default ${CHANGE_EVERY_DEFAULT}, ${day(15)} with 15, ` +
    `${day(360)} with 360.`
  );
}

const choices = <T extends string>(entries: [T, string][]) =>
  entries.map(([value, label]) => ({ value, label, sample: value }));

export const changeInputFields = [
  {
    key: 'accounts',
    label: 'Accounts',
    helpText:
      `The accounts to watch: handles (or profile links) separated by commas, at most ${ACCOUNTS_MAX}. ` +
      'Example: nasa, natgeo, @nike.',
    required: true,
    type: 'string' as const,
  },
  {
    key: 'measure',
    label: 'Measure',
    helpText: `The number watched. Its lookup per account and check: ${CHECK_PRICES}.`,
    required: true,
    type: 'string' as const,
    default: 'followers',
    choices: choices(measureNames.map((m) => [m, MEASURES[m].words.replace(/^./, (c) => c.toUpperCase())])),
  },
  {
    key: 'comparison',
    label: 'Comparison',
    helpText:
      'Down or Up: a change by at least the threshold in %, against the baseline. Under or Over: the value itself.',
    required: true,
    type: 'string' as const,
    default: 'down',
    choices: choices<Comparison>([
      ['down', 'Down by at least (%)'],
      ['up', 'Up by at least (%)'],
      ['under', 'Under'],
      ['over', 'Over'],
    ]),
  },
  {
    key: 'threshold',
    label: 'Threshold',
    helpText:
      'Down or Up: the change in % (5 = 5 %). ' +
      "Under or Over: the value, in the measure's unit (engagement rate in %: 1 = 1 %).",
    required: true,
    type: 'number' as const,
    default: '5',
  },
  {
    key: 'baseline',
    label: 'Baseline',
    helpText: 'Down or Up only: what a change is measured against, the previous check or the value some days ago.',
    required: false,
    type: 'string' as const,
    default: 'previous',
    choices: choices([
      ['previous', 'Since the previous check'],
      ['days', 'Over a number of days'],
    ]),
  },
  {
    key: 'days',
    label: 'Days',
    helpText:
      'With the baseline "Over a number of days": compare with the value this many days ago ' +
      '(before the watch is that old: its first check). From 1 to 365.',
    required: false,
    type: 'integer' as const,
    default: '7',
  },
  {
    key: 'every_minutes',
    label: 'Check at most every N minutes',
    helpText:
      'Every check costs credits, even when nothing changed. Zapier polls every 1 to 15 minutes by plan; this allows ' +
      `one check in each period of N minutes, and a poll sooner costs nothing. Default ${CHANGE_EVERY_DEFAULT} ` +
      '(24 checks a day); 1440: one a day.',
    required: false,
    type: 'integer' as const,
    default: String(CHANGE_EVERY_DEFAULT),
  },
];

/** What the step's input says: the rule, the lookups (one an account), the period. */
export interface Watch {
  rule: ChangeRule;
  calls: Call[];
  everyMinutes: number;
}

const text = (v: unknown) => (v === undefined || v === null ? '' : String(v).trim());

/** The step's input, read and checked (core's rule shape, `prepare`): a bad one is a HaltedError, nothing sent. */
export function watchOf(z: ZObject, bundle: Bundle): Watch {
  const input = bundle.inputData as Record<string, unknown>;
  try {
    const comparison = (text(input.comparison) || 'down') as Comparison;
    const measure = (text(input.measure) || 'followers') as Measure;
    const threshold = text(input.threshold) === '' ? NaN : Number(text(input.threshold));
    const relative = comparison === 'down' || comparison === 'up';
    const days = text(input.days) === '' ? 7 : Number(text(input.days));
    const rule: ChangeRule = relative
      ? { measure, comparison, threshold, baseline: text(input.baseline) === 'days' ? days : 'previous' }
      : { measure, comparison, threshold };
    checkRuleShape(rule);
    const raw = Array.isArray(input.accounts) ? input.accounts.join(',') : text(input.accounts);
    const calls = watchCalls(rule, raw);
    if (calls.length > ACCOUNTS_MAX)
      throw new Error(
        `Accounts has ${plural(calls.length, 'account')}: at most ${ACCOUNTS_MAX}; split them over two Zaps.`,
      );
    const everyMinutes = wholeNumberOf(bundle, 'every_minutes', CHANGE_EVERY_DEFAULT, EVERY_MAX);
    return { rule, calls, everyMinutes };
  } catch (e) {
    if (isIgError(e)) throw asZapierError(z, e, undefined);
    throw new z.errors.HaltedError(`${(e as Error).message} (Not charged.)`);
  }
}
