/**
 * zapier/README.md's recipe "Tell me when a competitor loses 5% of followers in a week", run as
 * written: its trigger settings read from the README and matched to the built trigger's fields and
 * choices, its Slack message's `{{labels}}` matched to the trigger's output fields, and the Zap run
 * as Zapier's servers run it (zapier-server: the lambda handler, z.cache over RPC, the poller with
 * its populating poll and per-Zap deduplication) over a simulated week of the moving sandbox with
 * steps placed by its control: one message per crossing the steps make, each rendered from the
 * recipe's template, none for the account left to drift; the credits a day the recipe states are
 * what the sandbox billed a day for the checks its setting allowed.
 */
import { describeRule } from '@igdata/core';
import type { Connection } from './zapier-server/lambda';
import { Zap, simulate } from './zapier-server/poller';
import type { World } from './zapier-server/world';
import { leaked, smallRss, startWorld } from './zapier-server/world';
import { describedPrice } from './change-week';
import { keysByLabel, mappedInTemplate, readmeRecipes, render, stepLabelled, stepsOf } from './recipe-support';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const DAYS = 7;
const BALANCE = 10_000;

const recipe = readmeRecipes('## Two jobs as Zaps: an alert, a weekly benchmark').find((r) =>
  r.title.startsWith('Tell me when a competitor loses 5% of followers'),
)!;
const steps = stepsOf(recipe.text);
const trigger = stepLabelled('triggers', /^1\. Trigger: \*IG Data\*, \*([^*]+)\*/.exec(steps[0])![1]);
type Field = { key: string; label: string; type?: string; choices?: { value: string; label: string }[] };
const fields = (trigger.step.operation as unknown as { inputFields: Field[] }).inputFields;

/** The settings step 1 names ("*Measure*: `Followers`"), as the trigger's input: each label a field, each value one of its choices. */
function settings(): Record<string, string> {
  const input: Record<string, string> = {};
  for (const [, label, value] of steps[0].matchAll(/\*([^*]+)\*: `([^`]+)`/g)) {
    const field = fields.find((f) => f.label === label);
    expect([label, field !== undefined]).toEqual([label, true]);
    const choice = field!.choices ? field!.choices.find((c) => c.label === value) : { value };
    expect([label, value, choice !== undefined]).toEqual([label, value, true]);
    if (field!.type === 'number' || field!.type === 'integer') expect(Number.isFinite(Number(value))).toBe(true);
    input[field!.key] = choice!.value;
  }
  return input;
}

/** The message the recipe's Slack step sends: "Message Text: "..."". */
const template = /Send Channel Message\*; Message Text: "([^"]+)"/.exec(steps[2])![1];

let w: World;
beforeAll(smallRss);
beforeEach(async () => {
  w = await startWorld();
});
afterEach(() => w.close());

test('the recipe names the built trigger, settings it has with values it takes, and maps labels it outputs', () => {
  expect(trigger.key).toBe('new_account_change');
  expect(settings()).toEqual({
    accounts: 'nasa, natgeo, nike',
    measure: 'followers',
    comparison: 'down',
    threshold: '5',
    baseline: 'days',
    days: '7',
    every_minutes: '360',
  });
  const labels = mappedInTemplate(template);
  expect(labels.length).toBeGreaterThanOrEqual(5);
  const outputs = keysByLabel(trigger.step);
  for (const l of labels) expect([l, outputs.has(l)]).toEqual([l, true]);
});

test("over a simulated week of steps, one message per crossing from the recipe's template; billed a day = the credits a day it states", async () => {
  const input = settings();
  const accounts = input.accounts.split(',').map((a) => a.trim());
  const every = Number(input.every_minutes);
  const key = w.sandbox.createKey(BALANCE);
  const c: Connection = { id: 'conn', user: 'user', authData: { apiKey: key, baseUrl: w.sandbox.url } };
  const zap = new Zap(
    {
      trigger: trigger.key,
      inputData: input,
      interval: 15,
      id: 'zap-alert',
      connection: c,
      sendsZapId: true,
      offset: 2,
    },
    w.run,
  );
  // nasa falls 10 %, recovers (up 15 %: 3.5 % above where the week began, so the rule turns false),
  // falls 15 % (12 % under it: true again); natgeo falls 10 %; nike drifts (under 5 % a week by itself).
  const t0 = w.start;
  const placed = [
    { handle: 'nasa', change: -0.1, at: t0 + DAY + 3 * HOUR, after: 0.9 },
    { handle: 'nasa', change: 0.15, at: t0 + 2 * DAY + HOUR, after: 1.035 },
    { handle: 'nasa', change: -0.15, at: t0 + 4 * DAY + 7 * HOUR, after: 0.88 },
    { handle: 'natgeo', change: -0.1, at: t0 + 5 * DAY + 13 * HOUR, after: 0.9 },
  ];
  for (const s of placed) w.sandbox.step({ handle: s.handle, measure: 'followers', change: s.change, at: s.at });
  const crossings = placed.filter((s) => s.after < 0.95);
  expect(crossings.map((s) => s.handle)).toEqual(['nasa', 'nasa', 'natgeo']);

  await zap.turnOn();
  expect(zap.seen.size).toBe(0); // the first check, the baseline, hands out nothing
  const atTurnOn = BALANCE - w.sandbox.balance(key);
  expect(atTurnOn).toBe(accounts.length * describedPrice('profile'));
  await simulate([zap], [w.sandbox], t0, DAYS * 24 * 60);

  const outputs = keysByLabel(trigger.step);
  const messages = zap.items.map((item) => render(template, item, outputs));
  const rule = describeRule({ measure: 'followers', comparison: 'down', threshold: 5, baseline: 7 });
  expect(messages.map((m) => m.slice(0, m.indexOf('.') + 1))).toEqual(crossings.map((s) => `${s.handle}: ${rule}.`));
  zap.items.forEach((item, i) => {
    const { before, after, checked_at: checkedAt } = item as { before: number; after: number; checked_at: string };
    // the first check after its step, the fall it made since the week began (drift aside), said in the message
    expect(Date.parse(checkedAt)).toBeGreaterThan(crossings[i].at);
    expect(Date.parse(checkedAt)).toBeLessThanOrEqual(crossings[i].at + every * MIN);
    expect(after / before).toBeCloseTo(crossings[i].after, 1);
    expect(messages[i]).toContain(`Followers ${before} on ${item.before_at}, ${after} on ${checkedAt} (`);
    expect(messages[i]).not.toMatch(/\{\{|undefined|null/);
  });

  // What the recipe says a day costs, and what the sandbox billed a day for the checks after the turn-on's.
  const stated = Number(/(\d+) credits a day/.exec(steps[0])![1]);
  const perDay = (BALANCE - w.sandbox.balance(key) - atTurnOn) / DAYS;
  expect([stated, perDay]).toEqual([perDay, ((24 * 60) / every) * accounts.length * describedPrice('profile')]);
  expect(Number(/(\d+) checks a day/.exec(steps[0])![1])).toBe((24 * 60) / every);
  expect(leaked(w.server, key)).toEqual([]);
}, 600_000);
