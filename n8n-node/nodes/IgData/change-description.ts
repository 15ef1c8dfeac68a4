/**
 * The fields of the trigger's "Account Changed" event: the accounts, the rule (core's change rule:
 * a measure, a comparison, a threshold and its baseline) and how often it may check. What a check
 * costs is said from the registry's prices (core's checkCost), never written here.
 */
import type { INodeProperties } from 'n8n-workflow';
import type { ChangeRule, Comparison, Measure } from '@igdata/core';
import { MEASURES, checkCost, plural } from '@igdata/core';

const show = { event: ['change'] };

const credits = (n: number) => plural(n, 'credit');
const measureNames = Object.keys(MEASURES) as Measure[];
/** The endpoints a rule reads, each with its measures and its price per account and check. */
const lookups = [...new Set(measureNames.map((m) => MEASURES[m].endpoint))].map((id) => ({
  id,
  measures: measureNames.filter((m) => MEASURES[m].endpoint === id).map((m) => MEASURES[m].words),
  credits: checkCost(
    measureNames.filter((m) => MEASURES[m].endpoint === id),
    1,
  ),
}));
const profileCredits = checkCost(['followers'], 1);
/** "followers, following, posts (profile): 1 credit; engagement rate, ... (insights/profile/engagement): 2 credits" */
export const CHECK_PRICES = lookups.map((l) => `${l.measures.join(', ')} (${l.id}): ${credits(l.credits)}`).join('; ');

/** The price sentence of the event: per account and check, and a day at the default setting. */
export const CHANGE_COST =
  `Each check costs, per account: ${CHECK_PRICES}. At most one check per period of ` +
  '"Check at Most Every": a day costs accounts × that price × checks a day (every hour: 24 checks, ' +
  `so 3 accounts of followers cost ${credits(3 * 24 * profileCredits)} a day; every 6 hours: 4 checks, ` +
  `${credits(3 * 4 * profileCredits)}).`;

export interface ChangeParams {
  accounts: string;
  measure: Measure;
  comparison: Comparison;
  threshold: number;
  baseline: 'previous' | 'days';
  days: number;
  checkEvery: number;
  checkEveryUnit: 'minutes' | 'hours';
}

/** The rule the fields say (core checks its shape). */
export const ruleOf = (p: ChangeParams): ChangeRule =>
  p.comparison === 'down' || p.comparison === 'up'
    ? {
        measure: p.measure,
        comparison: p.comparison,
        threshold: p.threshold,
        baseline: p.baseline === 'days' ? p.days : 'previous',
      }
    : { measure: p.measure, comparison: p.comparison, threshold: p.threshold };

export const periodMs = (p: ChangeParams): number =>
  Math.max(0, p.checkEvery) * (p.checkEveryUnit === 'hours' ? 3_600_000 : 60_000);

export const changeProperties: INodeProperties[] = [
  {
    displayName: 'Accounts',
    name: 'accounts',
    type: 'string',
    required: true,
    default: '',
    placeholder: 'e.g. nasa, natgeo, @nike',
    description: 'The accounts to watch: handles (or profile links) separated by commas or new lines',
    displayOptions: { show },
  },
  {
    displayName: 'Measure',
    name: 'measure',
    type: 'options',
    default: 'followers',
    options: measureNames.map((m) => ({
      name: MEASURES[m].words.replace(/^./, (c) => c.toUpperCase()),
      value: m,
      description: `${MEASURES[m].field} of ${MEASURES[m].endpoint} (${credits(checkCost([m], 1))} an account a check)`,
    })),
    displayOptions: { show },
  },
  {
    displayName: 'Comparison',
    name: 'comparison',
    type: 'options',
    default: 'down',
    options: [
      { name: 'Down by at Least (%)', value: 'down', description: 'Falls by the threshold in % against the baseline' },
      { name: 'Up by at Least (%)', value: 'up', description: 'Rises by the threshold in % against the baseline' },
      { name: 'Under', value: 'under', description: 'The value itself is under the threshold' },
      { name: 'Over', value: 'over', description: 'The value itself is over the threshold' },
    ],
    displayOptions: { show },
  },
  {
    displayName: 'Threshold',
    name: 'threshold',
    type: 'number',
    default: 5,
    typeOptions: { minValue: 0, numberPrecision: 2 },
    description:
      'Down/Up: the change in % (5 = 5 %). ' +
      "Under/Over: the value, in the measure's unit (engagement rate in %: 1 = 1 %).",
    displayOptions: { show },
  },
  {
    displayName: 'Baseline',
    name: 'baseline',
    type: 'options',
    default: 'previous',
    options: [
      { name: 'Since the Previous Check', value: 'previous' },
      { name: 'Over a Number of Days', value: 'days' },
    ],
    description: 'What a change is measured against',
    displayOptions: { show: { ...show, comparison: ['down', 'up'] } },
  },
  {
    displayName: 'Days',
    name: 'days',
    type: 'number',
    default: 7,
    typeOptions: { minValue: 1, maxValue: 365 },
    description: 'Compare with the value this many days ago (before the watch is that old: its first check)',
    displayOptions: { show: { ...show, comparison: ['down', 'up'], baseline: ['days'] } },
  },
  {
    displayName: 'Check at Most Every',
    name: 'checkEvery',
    type: 'number',
    default: 1,
    typeOptions: { minValue: 0, numberPrecision: 0 },
    description:
      'At most one check in each period this long, whatever the Poll Times (n8n polls every minute by default, ' +
      'and every check costs credits). 0: every poll checks.',
    displayOptions: { show },
  },
  {
    displayName: 'Check Every Unit',
    name: 'checkEveryUnit',
    type: 'options',
    default: 'hours',
    options: [
      { name: 'Minutes', value: 'minutes' },
      { name: 'Hours', value: 'hours' },
    ],
    displayOptions: { show },
  },
  {
    displayName: CHANGE_COST,
    name: 'changeCostNotice',
    type: 'notice',
    default: '',
    displayOptions: { show },
  },
];
