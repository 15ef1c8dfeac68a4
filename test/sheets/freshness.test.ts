/**
 * Reusing answers for the document's freshness setting (issue 10, point 1), with the *built* add-on
 * in the Apps Script stand-in against the sandbox: requests and credits are counted at the sandbox,
 * time moves with `rt.advance` (the hourly keep trigger fires on the way, as Apps Script would).
 */
import type { GasRuntime } from '../../scripts/gas-standin/runtime';
import { column, sandboxedAddon } from './harness';

const HOUR = 3600000;
const DAY = 24 * HOUR;
const KEPT_SHEET = 'IG Data answers';
const env = sandboxedAddon();
const runtime = env.runtime;

const TARGETS = column(['nasa', 'natgeo', 'locked_acc']);
/** Sheets recalculating the formula in Sheet1!B1 (a custom-function execution). */
const recalc = (rt: GasRuntime, fields = 'followers', cell = 'Sheet1!B1', ...more: unknown[]) =>
  rt.run('IGPROFILE', [TARGETS, fields, ...more], { kind: 'custom', cell });

/** The sheet is opened once (the sidebar installs the hourly trigger), then the formula is calculated. */
function openAndCalculate(rt: GasRuntime) {
  rt.call('igSidebarState');
  expect(rt.triggers.installed).toMatchObject([{ handler: 'igKeepAnswers', everyMs: HOUR }]);
  return recalc(rt);
}

describe('reusing answers past the 6-hour cache', () => {
  test('the next-day recalculation of a formula costs 0 credits (the hourly trigger kept its answers, billing nothing)', async () => {
    const rt = runtime();
    const first = openAndCalculate(rt);
    await expect(env.sandbox.stats()).resolves.toMatchObject({ total: 3, creditsBilled: 3 });
    rt.advance(DAY);
    expect(rt.triggers.installed[0].runs).toHaveLength(24);
    expect(rt.triggers.installed[0].runs.every((r) => r.ok)).toBe(true);
    await expect(env.sandbox.stats()).resolves.toMatchObject({ total: 3, creditsBilled: 3 }); // the trigger fetched nothing
    expect(rt.caches.document.dump().filter((e) => e.key.startsWith('igd1:b:'))).toEqual([]); // the cache's 6 hours are over
    expect(rt.spreadsheet.findSheet(KEPT_SHEET)?.hidden).toBe(true);
    // The same values; the billed "no public data" served again says it is free now.
    expect(recalc(rt)).toEqual([
      first[0],
      first[1],
      ['@locked_acc is private: no public data. ' + '(Charged 1 credit when first looked up on 25 Nov; free now.)'],
    ]);
    expect(first[2]).toEqual(['@locked_acc is private: no public data. (Charged 1 credit.)']);
    await expect(env.sandbox.stats()).resolves.toMatchObject({ total: 3, creditsBilled: 3 });
  });

  test('an 8-day-old answer is fetched again at the default (7 days); at 30 days it is still reused', async () => {
    const rt = runtime();
    openAndCalculate(rt);
    rt.advance(8 * DAY);
    recalc(rt);
    await expect(env.sandbox.stats()).resolves.toMatchObject({ total: 6, creditsBilled: 6 });
    const rt30 = runtime();
    rt30.call('igSetFreshness', 720);
    expect(rt30.call('igSidebarState').settings.freshHours).toBe(720);
    openAndCalculate(rt30);
    rt30.advance(8 * DAY);
    recalc(rt30);
    await expect(env.sandbox.stats()).resolves.toMatchObject({ total: 9, creditsBilled: 9 });
  });

  test('a bulk run the next week spends nothing on targets a formula asked within the setting', async () => {
    const rt = runtime();
    openAndCalculate(rt);
    rt.advance(6 * DAY);
    const sheet = rt.spreadsheet.sheet('Sheet1');
    ['nasa', 'natgeo', 'locked_acc', 'nike'].forEach((h, i) => sheet.set(i + 1, 1, h));
    rt.spreadsheet.select('Sheet1!A1:A4');
    expect(rt.call('igBulkPreview', { endpoint: 'profile', fields: 'followers', output: 'sheet' })).toMatchObject({
      cached: 3,
      toFetch: 1,
      credits: 1,
    });
    let job = rt.call('igBulkStart', { endpoint: 'profile', fields: 'followers', output: 'sheet' });
    while (job.status === 'running') job = rt.call('igBulkStep', job.id);
    expect(job).toMatchObject({ status: 'done', credits: 1 });
    // 3 + 1 billed; one more request is the preview's balance (free).
    await expect(env.sandbox.stats()).resolves.toMatchObject({ total: 5, creditsBilled: 4 });
    // locked_acc's row is its kept "no public data", served again: free now, as its first charge says.
    const out = rt.spreadsheet.sheet(job.outSheet).getValues();
    expect(out.find((r) => r[0] === 'locked_acc')).toEqual([
      'locked_acc',
      '@locked_acc is private: no public data. ' + '(Charged 1 credit when first looked up on 25 Nov; free now.)',
    ]);
    // The usage log: the formula's 3 credits on the first day, the run's 1 (nike) on the day it ran; the 3 answers it
    // reused add nothing.
    const day = (t: number) => new Date(t).toISOString().slice(0, 10);
    expect(rt.call('igUsage')).toEqual({
      [day(rt.now() - 6 * DAY)]: { 'IGPROFILE B1': 3 },
      [day(rt.now())]: { [`Run ${job.startedAt.slice(0, 16)} IGPROFILE`]: 1 },
    });
  });

  test('refresh TRUE fetches again on purpose', async () => {
    const rt = runtime();
    openAndCalculate(rt);
    rt.advance(2 * DAY);
    recalc(rt, 'followers', 'Sheet1!B1', false, true);
    await expect(env.sandbox.stats()).resolves.toMatchObject({ total: 6, creditsBilled: 6 });
  });

  test('_fetched_at shows when each answer was fetched, also from kept answers days later', () => {
    const rt = runtime();
    rt.call('igSidebarState');
    const t0 = rt.now();
    const first = recalc(rt, 'followers,_fetched_at') as unknown[][];
    const [a, b] = [first[0][1] as Date, first[1][1] as Date];
    for (const at of [a, b]) {
      expect(at).toBeInstanceOf(Date);
      expect(at.getTime()).toBeGreaterThanOrEqual(t0);
      expect(at.getTime()).toBeLessThan(t0 + 30000);
    }
    // locked_acc's row is its message (a billed 404), whatever the fields.
    expect(first[2][1]).toBe('');
    rt.advance(3 * DAY);
    expect((recalc(rt, '_fetched_at') as unknown[][]).map((r) => r[0])).toEqual([
      a,
      b,
      expect.stringMatching(/no public data/),
    ]);
  });
});

describe("each function's own limit (the registry's maxReuseHours) caps the freshness setting", () => {
  const stories = (rt: GasRuntime) => rt.run('IGSTORIES', ['nasa', 'id'], { kind: 'custom', cell: 'Sheet1!D1' });
  const recent = (rt: GasRuntime) =>
    rt.run('IGHASHTAGRECENT', ['veganrecipes', 'shortcode'], { kind: 'custom', cell: 'Sheet1!E1' });

  test('stories (a 24-hour life; reused 1 hour at most) are fetched again 25 and 50 hours later, whatever the setting', async () => {
    const rt = runtime();
    rt.call('igSetFreshness', 720); // 30 days: the longest setting does not stretch a story's life
    openAndCalculate(rt);
    const before = (await env.sandbox.stats()).creditsBilled;
    stories(rt);
    rt.advance(30 * 60000);
    stories(rt); // within its hour: reused
    await expect(env.sandbox.stats()).resolves.toMatchObject({
      creditsBilled: before + 2,
      byEndpoint: { 'profile/stories': 1 },
    });
    rt.advance(25 * HOUR);
    stories(rt);
    rt.advance(25 * HOUR);
    stories(rt);
    await expect(env.sandbox.stats()).resolves.toMatchObject({
      creditsBilled: before + 6,
      byEndpoint: { 'profile/stories': 3 },
    });
    // The profile answers of the same hours are still reused (the setting alone decides for them).
    recalc(rt);
    await expect(env.sandbox.stats()).resolves.toMatchObject({ byEndpoint: { profile: 3 } });
  });

  test("a hashtag's recent posts 6 days later are fetched again at the default setting; a profile is not", async () => {
    const rt = runtime();
    openAndCalculate(rt);
    recent(rt);
    rt.advance(6 * DAY);
    recent(rt);
    recalc(rt);
    await expect(env.sandbox.stats()).resolves.toMatchObject({ byEndpoint: { 'hashtag/recent': 2, profile: 3 } });
  });
});

describe('Refresh selected cells', () => {
  function sheetWithFormula(rt: GasRuntime, handles: string[]) {
    const sheet = rt.spreadsheet.sheet('Sheet1');
    handles.forEach((h, i) => sheet.set(i + 1, 1, h));
    sheet.setFormula('B1', `=IGPROFILE(A1:A${handles.length},"followers")`);
    rt.spreadsheet.select('Sheet1!B1');
  }

  test('the menu offers it (a NONE-mode onOpen), its handler is a top-level function of the built add-on', () => {
    const rt = runtime();
    rt.trigger('onOpen', { authMode: 'NONE' });
    expect(rt.ui.menus[0].items).toContainEqual({
      type: 'item',
      caption: 'Refresh selected cells',
      functionName: 'igRefreshSelection',
    });
    expect(rt.globalFunctionNames()).toEqual(expect.arrayContaining(['igRefreshSelection', 'igKeepAnswers']));
  });

  test('the selected formulas fetch again once (each question once), later recalculations are free again', async () => {
    const rt = runtime();
    sheetWithFormula(rt, ['nasa', 'natgeo', 'locked_acc']);
    openAndCalculate(rt);
    rt.advance(2 * DAY);
    expect(rt.call('igRefreshSelection')).toEqual({ cells: 1, estimate: 3 });
    expect(rt.ui.alerts).toEqual([]); // small: no question asked
    expect(rt.spreadsheet.formulaWrites).toEqual([
      { sheet: 'Sheet1', a1: 'B1', formula: '=IGPROFILE(A1:A3,"followers")' },
    ]);
    // Sheets recalculates the formula it was given again: fetched again, once.
    recalc(rt);
    await expect(env.sandbox.stats()).resolves.toMatchObject({ total: 6, creditsBilled: 6 });
    recalc(rt);
    // Another formula asking the same questions (not selected) reads the fresh answers.
    recalc(rt, 'followers', 'Sheet1!D1');
    await expect(env.sandbox.stats()).resolves.toMatchObject({ total: 6, creditsBilled: 6 });
  });

  test('a large selection shows its cost first; "No" changes nothing', async () => {
    const rt = runtime();
    sheetWithFormula(
      rt,
      Array.from({ length: 30 }, (_, i) => `creator_${i}`),
    );
    rt.ui.alertResponses.push('NO');
    expect(rt.call('igRefreshSelection')).toEqual({ cells: 0, estimate: 30 });
    expect(rt.ui.alerts).toEqual([
      { title: 'Refresh selected cells', prompt: '1 formula fetches again: up to 30 credits.', buttons: 'YES_NO' },
    ]);
    expect(rt.spreadsheet.formulaWrites).toEqual([]);
    expect(rt.properties.document.get('IGDATA_REFRESH')).toBeNull();
    await expect(env.sandbox.stats()).resolves.toMatchObject({ total: 0 });
  });
});

describe('Refresh selected cells prices what the formulas will ask', () => {
  /** The formula in Sheet1!B1, selected; "No" to the question, so nothing is spent. */
  function ask(rt: GasRuntime, formula: string) {
    rt.spreadsheet.sheet('Sheet1').setFormula('B1', formula);
    rt.spreadsheet.select('Sheet1!B1');
    rt.ui.alertResponses.push('NO');
    return rt.call('igRefreshSelection');
  }
  const handles = (n: number, from = 0) => Array.from({ length: n }, (_, i) => [`creator_${from + i}`]);
  const prompt = (credits: number) => [
    {
      title: 'Refresh selected cells',
      prompt: `1 formula fetches again: up to ${credits} credits.`,
      buttons: 'YES_NO',
    },
  ];

  test('an open range (A2:A) over 900 handles: asks first and names 900 credits', async () => {
    const rt = runtime();
    rt.spreadsheet.sheet('Sheet1').setValues('A1', [['handle'], ...handles(900)]);
    expect(ask(rt, '=IGPROFILE(A2:A,"followers")')).toEqual({ cells: 0, estimate: 900 });
    expect(rt.ui.alerts).toEqual(prompt(900));
    expect(rt.spreadsheet.formulaWrites).toEqual([]);
    await expect(env.sandbox.stats()).resolves.toMatchObject({ total: 0 });
  });

  test("another sheet's range at the formula's own posts: 30 accounts x 6 credits (1 + ceil(50 / 12)); repeats and blanks are not asked", () => {
    const rt = runtime();
    rt.spreadsheet.addSheet('Sheet2').setValues('A2', [...handles(30), [''], ...handles(5)]);
    expect(ask(rt, '=IGENGAGEMENT(Sheet2!A2:A900, 50)')).toEqual({ cells: 0, estimate: 180 });
    expect(rt.ui.alerts).toEqual(prompt(180));
  });

  test('a named range, a quoted sheet name, and a list whose limit needs pages', () => {
    const rt = runtime();
    rt.spreadsheet.addSheet('My list').setValues('A1', handles(25));
    rt.spreadsheet.defineNamedRange('Handles', "'My list'!A1:A25");
    expect(ask(rt, '=IGPROFILE(Handles, "followers")')).toEqual({ cells: 0, estimate: 25 });
    expect(ask(rt, '=IGPROFILE(\'My list\'!A:A; "followers")')).toEqual({ cells: 0, estimate: 25 });
    // 240 posts of one account: 20 pages of 12 at 2 credits a page.
    expect(ask(rt, '=IGPOSTS("nasa", "", TRUE, 240)')).toEqual({ cells: 0, estimate: 40 });
    // Its posts from a cell: read there.
    rt.spreadsheet.sheet('Sheet1').set(1, 4, 12);
    expect(ask(rt, '=IGENGAGEMENT(Handles, D1)')).toEqual({ cells: 0, estimate: 50 });
  });

  test("a target only Sheets computes is one target, at the formula's own posts", () => {
    const rt = runtime();
    rt.spreadsheet.sheet('Sheet1').setFormula('B1', '=IGENGAGEMENT(INDEX(A1:A9, 2), 50)');
    rt.spreadsheet.select('Sheet1!B1');
    expect(rt.call('igRefreshSelection')).toEqual({ cells: 1, estimate: 6 });
  });
});

describe("Apps Script's rules", () => {
  test('a custom function may not write the kept answers (the trigger handler fails there), the trigger may', () => {
    const rt = runtime();
    recalc(rt);
    expect(() => rt.custom('igKeepAnswers')).toThrow(/permission/);
    expect(rt.run('igKeepAnswers', [], { kind: 'script' })).toBe(3);
    expect(rt.run('igKeepAnswers', [], { kind: 'script' })).toBe(0); // nothing newer: nothing written
  });

  test('opening the sidebar again, or as another user, never exceeds one trigger per user per document', () => {
    const rt = runtime();
    rt.call('igSidebarState');
    rt.call('igSidebarState');
    rt.run('igSidebarState', [], { user: 'editor@example.com' });
    expect(rt.triggers.installed.map((t) => t.user)).toEqual(['owner@example.com', 'editor@example.com']);
  });
});
