/**
 * A tracker's alerts, checked once its run is over on the values that run wrote to its history
 * sheets (no request of their own). Each rule (core's change rule, with the addresses it emails) is
 * replayed with checkRule over the history rows since it was added, one check per run, so it fires
 * when it becomes true for an account (at its first run, one already true fires once) and again
 * only after it was false; no rule state is stored, whatever the column's size. What fired in the
 * new run is marked in the view sheet (an "alerts" column) and summed up in one plain-text email to
 * the addresses of the rules that fired, within Google's daily email quota; an email that cannot go
 * leaves the marks, and the sidebar says why. Kept in `IGDATA_ALERTS:<tracker id>`.
 */
import { MEASURES, checkRule, plural } from '@igdata/core';
import type { ChangeRule, Crossing, RuleState } from '@igdata/core';
import { historyTime } from '../engine/growth';
import { readJson } from '../engine/json';
import type { Context, PropertyStore } from '../context/context';
import { PROP } from '../context/property-names';

export interface AlertRule {
  id: string;
  rule: ChangeRule;
  /** describeRule(rule, 'run'): "followers down 5% since the previous run". */
  words: string;
  emails: string[];
  /** When it was added (ms): the runs after it are its checks. */
  since: number;
}

/** A check's outcome: the run (as the spreadsheet shows its time), how many fired, the email's fate. */
interface AlertRun {
  run: string;
  fired: number;
  sent: boolean;
  mail: string;
}

export interface TrackerAlerts {
  rules: AlertRule[];
  /** The newest history row (ms) checked: later rows are the next run's. */
  checkedTo: number;
  last?: AlertRun;
}

/** What the check needs of a tracker (trackers.ts passes its Tracker). */
interface AlertedTracker {
  id: string;
  name: string;
  view: string;
  parts: { fields: string[]; history: string }[];
}

export const alertsKey = (trackerId: string): string => `${PROP.alerts}:${trackerId}`;

export const loadAlerts = (props: PropertyStore, trackerId: string): TrackerAlerts => ({
  rules: [],
  checkedTo: 0,
  ...(readJson(props.get(alertsKey(trackerId))) as TrackerAlerts | undefined),
});

export const saveAlerts = (props: PropertyStore, trackerId: string, a: TrackerAlerts): void =>
  props.set(alertsKey(trackerId), JSON.stringify(a));

interface Firing {
  rule: AlertRule;
  c: Crossing;
}

const show = (rule: AlertRule, v: number): string =>
  (Math.round(v * 100) / 100).toLocaleString('en-US') + (MEASURES[rule.rule.measure].percent ? '%' : '');

/** "followers down 5% since the previous run: 1,200 → 1,080 (-10%)"; at a first run, the value alone. */
const inWords = ({ rule, c }: Firing): string =>
  `${rule.words}: ` +
  (c.before === null
    ? show(rule, c.after)
    : `${show(rule, c.before)} → ${show(rule, c.after)}` +
      (c.changePct === null ? '' : ` (${Math.round(c.changePct * 10) / 10}%)`));

/**
 * The rules' firings at the runs after `checkedTo`; each run is checked for every account of the
 * column (one without a value there keeps its state).
 */
function firings(ctx: Context, t: AlertedTracker, rules: AlertRule[], accounts: string[], checkedTo: number) {
  const fired: Firing[] = [];
  let newest = checkedTo;
  for (const rule of rules) {
    const field = MEASURES[rule.rule.measure].field;
    const part = t.parts.find((p) => p.fields.includes(field));
    const sheet = part && ctx.book.sheet(part.history);
    const n = sheet ? sheet.lastRow() : 0;
    // Each run's values by account, runs oldest first (a history row: date, account, fields).
    const runs = new Map<number, Map<string, unknown>>();
    for (const r of sheet && n > 1 ? sheet.read(2, 1, n - 1, part.fields.length + 2) : []) {
      const at = historyTime(r[0]);
      if (at >= rule.since)
        runs.set(at, (runs.get(at) ?? new Map()).set(String(r[1]), r[2 + part!.fields.indexOf(field)]));
    }
    let state: RuleState | undefined;
    for (const [at, values] of [...runs].sort((a, b) => a[0] - b[0])) {
      const v = (a: string) => values.get(a);
      const r = checkRule(
        rule.rule,
        state,
        at,
        Object.fromEntries(accounts.map((a) => [a, typeof v(a) === 'number' ? (v(a) as number) : undefined])),
      );
      state = r.state;
      if (at > checkedTo) fired.push(...r.crossings.map((c) => ({ rule, c })));
      newest = Math.max(newest, at);
    }
  }
  return { fired, newest };
}

/** The view's "alerts" column after its last one: each account's firings of this run (the view was just rewritten). */
function mark(ctx: Context, t: AlertedTracker, fired: Firing[]): void {
  const sheet = ctx.book.sheet(t.view);
  const rows = sheet ? sheet.lastRow() : 0;
  if (!sheet || !rows) return;
  const col = sheet.read(1, 1, 1, sheet.maxColumns())[0].filter((h) => h !== '').length + 1;
  if (sheet.maxColumns() < col) sheet.insertColumnsAfter(sheet.maxColumns(), 1);
  const names = sheet.read(1, 1, rows, 1);
  sheet.write(
    1,
    col,
    names.map((r, i) => [
      i
        ? fired
            .filter((f) => f.c.account === String(r[0]))
            .map(inWords)
            .join('; ')
        : 'alerts',
    ]),
  );
}

/** Sends the email if the day's quota has room for all its recipients; says what happened. */
function send(ctx: Context, to: string[], subject: string, body: string): Pick<AlertRun, 'sent' | 'mail'> {
  const left = ctx.mail ? ctx.mail.remaining() : 0;
  if (left < to.length)
    return {
      sent: false,
      mail:
        "Not sent: Google's daily email quota (100 recipients for a Google account, 1,500 for Workspace) " +
        `has ${left} left; it needed ${to.length}.`,
    };
  try {
    ctx.mail!.send(to, subject, body);
    return { sent: true, mail: `Sent to ${to.join(', ')}.` };
  } catch (e) {
    return { sent: false, mail: `Not sent: ${(e as Error).message}` };
  }
}

/** Checks the tracker's rules on its new run, marks and emails what fired: once per run (under the document lock). */
export function checkAlerts(ctx: Context, t: AlertedTracker, accounts: string[]): void {
  ctx.lock.withLock(() => {
    const a = loadAlerts(ctx.props, t.id);
    const { fired, newest } = firings(ctx, t, a.rules, accounts, a.checkedTo);
    if (newest === a.checkedTo) return; // no rule, or no run since the last check
    if (fired.length) mark(ctx, t, fired);
    const run = ctx.book.formatTime(newest);
    const save = (r: Pick<AlertRun, 'sent' | 'mail'>) =>
      saveAlerts(ctx.props, t.id, { ...a, checkedTo: newest, last: { run, fired: fired.length, ...r } });
    if (!fired.length) return save({ sent: true, mail: 'Nothing fired.' });
    const name = t.name.replace(/\s+/g, ' ');
    const body = [
      `The tracker "${name}", run of ${run}:`,
      ...fired.map((f) => `- ${f.c.account}: ${inWords(f)}`),
      `Marked in the sheet "${t.view}" (its "alerts" column).`,
    ].join('\n');
    const to = [...new Set(fired.flatMap((f) => f.rule.emails))];
    save(send(ctx, to, `IG Data: ${plural(fired.length, 'alert')} on "${name}"`, body));
  });
}
