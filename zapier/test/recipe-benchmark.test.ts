/**
 * zapier/README.md's recipe "Weekly competitor benchmark", run as written: the searches its steps
 * name found by their labels in the built definition, each label it maps into the sheet (and into
 * the Slack digest) an output field of the search it names; a run of the loop (its handles read from
 * the README) through Zapier's lambda handler against the sandbox, billed what each step, the
 * account and the run are stated to cost, and what the registry's prices make them; and accounts
 * whose names a spreadsheet would run, their rows as Google Sheets enters the mapped values (the
 * Apps Script stand-in's cellInput): the name arrives as the text it is, no cell is a formula.
 */
import { endpoints, estimateCost } from '@igdata/core';
import type { Connection } from './zapier-server/lambda';
import type { World } from './zapier-server/world';
import { leaked, startWorld } from './zapier-server/world';
import {
  HOSTILE,
  asTyped,
  enteredRow,
  keysByLabel,
  mappedInTemplate,
  readmeRecipes,
  stepLabelled,
  stepsOf,
  valueAt,
} from './recipe-support';

const BALANCE = 10_000;
const NUMBER_WORDS = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
const section = readmeRecipes('## Two jobs as Zaps: an alert, a weekly benchmark');
const recipe = section.find((r) => r.title === 'Weekly competitor benchmark.')!;
/** The paragraph after the recipe: "**What it costs**: 8 credits an account a run ...". */
const costs = section.find((r) => r.title === 'What it costs')!.text.replace(/\s+/g, ' ');
const steps = stepsOf(recipe.text);

/** The searches of the loop, in order: "Search: *IG Data*, *Find Profile*; ... 1 credit." */
const searches = steps.flatMap((s) => {
  const m = /^\d+\. Search: \*IG Data\*, \*([^*]+)\*;.*? (\d+) credits?\.$/.exec(s);
  return m ? [{ label: m[1], stated: Number(m[2]), ...stepLabelled('searches', m[1]) }] : [];
});
const searchOf = (label: string) => {
  const s = searches.find((x) => x.label === label);
  if (!s) throw new Error(`the recipe maps from "${label}", which is not one of its searches`);
  return s;
};

/** The loop's values: "Values to Loop: `handle` as the key, and `a, b, c`". */
const handles = /Values to Loop: `handle` as the key, and `([^`]+)`/
  .exec(steps.join('\n'))![1]
  .split(',')
  .map((h) => h.trim());

/** The sheet's columns the recipe maps, each with the search it comes from: "from *Find Profile* `Username`, ...". */
const sheetStep = steps.find((s) => s.includes('*Google Sheets*, *Create Spreadsheet Row*'))!;
const columns = [
  ...sheetStep.split(' Map the ')[0].matchAll(/from \*([^*]+)\* ((?:`[^`]+`(?:; |, | |\.)?)+)/g),
].flatMap(([, search, labels]) => [...labels.matchAll(/`([^`]+)`/g)].map((l) => ({ search, label: l[1] })));

/** What Zapier sends a search when its fields are left at their defaults: the handle and each default. */
function inputOf(step: { operation: unknown }, handle: string): Record<string, string> {
  const fields = (step.operation as { inputFields: { key: string; default?: string }[] }).inputFields;
  const input: Record<string, string> = {};
  for (const f of fields) if (f.default !== undefined) input[f.key] = f.default;
  return { ...input, handle };
}

let w: World;
beforeEach(async () => {
  w = await startWorld();
});
afterEach(() => w.close());

const connection = (key: string): Connection => ({
  id: 'conn-bench',
  user: 'user',
  authData: { apiKey: key, baseUrl: w.sandbox.url },
});

/** One run of the loop's steps for `handle` through the handler: each search's answer and what it was billed. */
async function runFor(c: Connection, handle: string) {
  const out: { label: string; item: Record<string, unknown>; billed: number }[] = [];
  for (const s of searches) {
    const before = w.sandbox.balance(c.authData.apiKey);
    const [item] = await w.run(`searches.${s.key}.operation.perform`, c, {
      inputData: inputOf(s.step, handle),
      meta: { zap: { id: 'zap-benchmark' } },
    });
    out.push({ label: s.label, item, billed: before - w.sandbox.balance(c.authData.apiKey) });
  }
  return out;
}

test('the recipe names built searches, and every label it maps is an output field of the search it names', () => {
  expect(searches.map((s) => s.key)).toEqual(['profile', 'insights_profile_engagement', 'insights_profile_stats']);
  expect(handles).toHaveLength(6);
  expect(columns.length).toBeGreaterThanOrEqual(8);
  for (const { search, label } of columns)
    expect([search, label, keysByLabel(searchOf(search).step).has(label)]).toEqual([search, label, true]);
  // The stranger's text is mapped through its twin only.
  const labels = columns.map((c) => c.label);
  expect(labels).toContain('Full Name (safe for spreadsheets)');
  expect(labels).not.toContain('Full Name');
  // The digest's entry: each {{Label}} an output field of one of the searches.
  const entry = mappedInTemplate(steps.join(' '));
  expect(entry.length).toBeGreaterThanOrEqual(4);
  for (const l of entry) expect([l, searches.some((s) => keysByLabel(s.step).has(l))]).toEqual([l, true]);
});

test("a run for the recipe's accounts through the handler bills what each step, the account and the run are stated to cost, the registry's prices", async () => {
  const key = w.sandbox.createKey(BALANCE);
  const c = connection(key);
  const perStep = searches.map(() => [] as number[]);
  for (const h of handles) {
    const results = await runFor(c, h);
    results.forEach((r, i) => perStep[i].push(r.billed));
    for (const r of results) expect([h, r.label, typeof r.item]).toEqual([h, r.label, 'object']);
  }
  const billed = BALANCE - w.sandbox.balance(key);
  // Each step as stated, for every account; the registry's price of its endpoint at the defaults sent.
  searches.forEach((s, i) => {
    const endpoint = endpoints.find((e) => e.id.replace(/\//g, '_') === s.key)!;
    const registry = estimateCost(endpoint, inputOf(s.step, handles[0])).credits;
    expect([s.label, perStep[i]]).toEqual([s.label, handles.map(() => s.stated)]);
    expect([s.label, registry]).toEqual([s.label, s.stated]);
  });
  const perAccount = Number(/(\d+) credits an account a run/.exec(costs)![1]);
  const perRun = Number(/(\d+) credits a run, once a week, for the \w+ accounts/.exec(costs)![1]);
  expect(perAccount).toBe(searches.reduce((sum, s) => sum + s.stated, 0));
  expect([perRun, billed]).toEqual([billed, perAccount * handles.length]);
  expect(/for the (\w+) accounts/.exec(costs)![1]).toBe(NUMBER_WORDS[handles.length]);
  expect(leaked(w.server, key)).toEqual([]);
});

test('accounts whose names a spreadsheet would run: the mapped row holds each name as its text, no cell is a formula', async () => {
  const c = connection(w.sandbox.createKey(BALANCE));
  const named = HOSTILE.map((fullName, i) => ({ username: `rival.hostile${i}`, fullName }));
  for (const a of named) {
    const r = await fetch(`${w.sandbox.url}/_sandbox/accounts`, {
      method: 'POST',
      body: JSON.stringify({ username: a.username, full_name: a.fullName }),
    });
    expect(r.status).toBe(200);
  }
  const nameColumn = columns.findIndex((col) => col.label === 'Full Name (safe for spreadsheets)');
  for (const a of named) {
    const results = await runFor(c, a.username);
    const answerOf = (label: string) => results.find((r) => r.label === label)!.item;
    const values = columns.map((col) =>
      valueAt(answerOf(col.search), keysByLabel(searchOf(col.search).step).get(col.label)!),
    );
    const row = enteredRow(values);
    expect([a.username, row[nameColumn]]).toEqual([a.username, { value: asTyped(a.fullName) }]);
    expect(row.filter((cell) => cell.formula !== undefined)).toEqual([]);
    expect(row[columns.findIndex((col) => col.label === 'Username')]).toEqual({ value: a.username });
  }
  // What the plain Full Name would have done: a live formula in the user's sheet.
  const [first] = await runFor(c, named[0].username);
  expect(enteredRow([first.item.full_name])[0]).toEqual({ value: '', formula: HOSTILE[0] });
});
