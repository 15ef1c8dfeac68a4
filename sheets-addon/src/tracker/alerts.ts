/**
 * Alerts on a tracker, as the sidebar sees them: its rules in words with what the last run's check
 * found; add a rule (core's change rule: a measure, down/up/under/over, a threshold, a baseline for a
 * change) with the addresses it emails; delete one. A rule on a number the tracker does not fetch is
 * refused with what fetching it would cost a run (alerts make no requests of their own). The check
 * runs after each run of the tracker (alert-check.ts).
 */
import { MEASURES, checkCost, checkRuleShape, describeRule, plural } from '@igdata/core';
import type { ChangeRule } from '@igdata/core';
import type { Context } from '../context/context';
import { loadAlerts, saveAlerts } from './alert-check';
import { accountsIn, loadTrackers } from './trackers';

function trackerOf(ctx: Context, id: string) {
  // A benchmark is no tracker here: it has no alert rules.
  const t = loadTrackers(ctx).find((x) => x.id === id && !x.report);
  if (!t) throw new Error('This tracker was deleted; reopen the sidebar.');
  return t;
}

/** The tracker's rules, its last check, and the measures a rule can watch (`tracked`: the tracker fetches it). */
export function alertViews(ctx: Context, trackerId: string) {
  const t = trackerOf(ctx, trackerId);
  const { rules, last } = loadAlerts(ctx.props, t.id);
  return {
    rules: rules.map(({ id, words, emails }) => ({ id, words, emails })),
    last,
    measures: Object.entries(MEASURES).map(([key, m]) => ({
      key,
      words: m.words,
      tracked: t.fields.includes(m.field),
    })),
  };
}

/** Adds a rule, checked from the next run on; a sentence naming what is wrong otherwise. */
export function addAlert(ctx: Context, trackerId: string, rule: ChangeRule, emailsText: string) {
  const t = trackerOf(ctx, trackerId);
  const words = describeRule(checkRuleShape(rule), 'run');
  const m = MEASURES[rule.measure];
  const n = accountsIn(ctx, t.source).length;
  if (!t.fields.includes(m.field))
    throw new Error(
      `"${words}": this tracker does not fetch ${m.words} (${m.field}); fetching it would cost ` +
        `${plural(checkCost([rule.measure], n), 'credit')} a run for its ${plural(n, 'account')}. ` +
        `Make a tracker with ${m.field} for it.`,
    );
  const emails = [
    ...new Set(
      String(emailsText ?? '')
        .split(/[\s,;]+/)
        .filter(Boolean),
    ),
  ];
  const bad = emails.find((e) => !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(e));
  if (!emails.length || bad || emails.length > 10)
    throw new Error(`Email to: 1 to 10 addresses like you@example.com${bad ? `; "${bad}" is not one` : ''}.`);
  ctx.lock.withLock(() => {
    const a = loadAlerts(ctx.props, t.id);
    if (a.rules.length > 9 || a.rules.some((r) => r.words === words))
      throw new Error(`A tracker has at most 10 rules, each once: "${words}" cannot be added.`);
    a.rules.push({ id: ctx.newId(), rule, words, emails, since: ctx.now() });
    saveAlerts(ctx.props, t.id, a);
  });
  return alertViews(ctx, t.id);
}

export function deleteAlert(ctx: Context, trackerId: string, ruleId: string) {
  ctx.lock.withLock(() => {
    const a = loadAlerts(ctx.props, trackerId);
    saveAlerts(ctx.props, trackerId, { ...a, rules: a.rules.filter((r) => r.id !== ruleId) });
  });
  return alertViews(ctx, trackerId);
}
