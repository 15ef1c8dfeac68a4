// Scenes of the Sheets preview for pictures (the README's, the Marketplace listing's), played as a
// user does on the page (click a cell, type a formula, press Enter) or, for what the sidebar would
// take several screens to do, through the preview's own HTTP calls (its google.script.run: the
// add-on's server functions). Each scene waits on the page's own state, never on a pause.
import { NEXT_STEPS, PREVIEW_RANGE } from '../start/next-steps.mjs';

/** The formula the README tells a newcomer to type, as typed. */
export const FIRST_FORMULA = NEXT_STEPS.preview.todo.match(/`(=[^`]+)`/)[1];

const cell = (page, a1) => page.locator(`td[data-a1="${a1}"]`);

/** Waits until `check()` (in Node) holds, polling the page's state. */
async function until(check, what, timeoutMs = 120_000) {
  for (const deadline = Date.now() + timeoutMs; ;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`screenshots: ${what} did not happen in ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The preview's grid as the page gets it (values, formulas, sheets). */
const grid = (page) => page.evaluate(() => fetch('/grid').then((r) => r.json()));

/** A call of an add-on server function, as the sidebar makes it; its value, or a thrown error. */
async function run(page, fn, ...args) {
  const r = await page.evaluate(
    ([f, a]) =>
      fetch('/run', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ fn: f, args: a }),
      }).then((x) => x.json()),
    [fn, args],
  );
  if (!r.ok) throw new Error(`${fn}: ${r.error.message}`);
  return r.value;
}

/** POSTs `body` to the preview's `path` (/paste, /select, /sheet), as the page does. */
const post = (page, path, body) =>
  page.evaluate(
    ([p, b]) =>
      fetch(p, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b) }).then((r) =>
        r.json(),
      ),
    [path, body],
  );

/** Types `input` into cell `a1` through the formula bar, as a user does; done when the cursor moved down. */
async function typeInto(page, a1, input) {
  const [, col, row] = /^([A-Z]+)(\d+)$/.exec(a1);
  await cell(page, a1).click();
  await until(async () => (await page.textContent('#name')) === a1, `the cursor on ${a1}`);
  await page.fill('#fx', input);
  await page.press('#fx', 'Enter');
  await until(async () => (await page.textContent('#name')) === `${col}${Number(row) + 1}`, `${a1} typed`);
}

/** Opens the page and waits for the grid and the sidebar to be drawn. */
export async function openPreview(page, url) {
  await page.goto(url);
  await until(async () => (await cell(page, 'A2').textContent()) !== '', 'the grid');
  await page.frameLocator('#sidebar').locator('body').waitFor();
}

/**
 * The first thing to do in the preview: the README's formula in B2 (followers of every handle of
 * the column in one formula), engagement beside it; B2 selected, so the bar shows the formula.
 */
export async function formulasScene(page, url) {
  await openPreview(page, url);
  await typeInto(page, 'B1', 'followers');
  await typeInto(page, 'C1', 'engagement rate %');
  await typeInto(page, 'C2', `=IGENGAGEMENT(${PREVIEW_RANGE},12,"engagement_rate_pct")`);
  await typeInto(page, 'B2', FIRST_FORMULA);
  await until(async () => /\d/.test((await cell(page, 'B3').textContent()) ?? ''), 'the formula answer');
  await until(async () => /\d/.test((await cell(page, 'C3').textContent()) ?? ''), 'the engagement answer');
  await cell(page, 'B2').click();
  await until(async () => (await page.inputValue('#fx')) === FIRST_FORMULA, 'the formula in the bar');
}

/**
 * A tracker of the column A2:A8 that has run three times: made as the sidebar's "Track these
 * accounts" makes it (select, create, step its first run), then the clock moved two weeks (its
 * weekly runs), then its sheet shown: per account the latest value, the change and a trend.
 */
export async function trackerScene(page, url) {
  await openPreview(page, url);
  await post(page, '/select', { a1: PREVIEW_RANGE });
  const { tracker } = await run(page, 'igTrackerCreate', { name: 'Creators', cap: 500 });
  for (let done = false; !done;) ({ done } = await run(page, 'igTrackerStep', tracker.id));
  for (let week = 0; week < 2; week++) {
    await page.click('#clockbar button:text("+1 week")');
    await until(async () => /^Moved 1 week/.test((await page.textContent('#advanced')) ?? ''), 'a week');
  }
  await page.click(`#tabs button:text("${tracker.view}")`);
  await until(async () => (await grid(page)).sheet === tracker.view, 'the tracker sheet');
  await until(async () => (await page.locator('td.spark svg[data-points="3"]').count()) > 0, 'the trends');
  await cell(page, 'A1').click();
}

/** The accounts of the benchmark picture: ours first, three competitors (creators of the sandbox's world). */
export const BENCHMARK_ACCOUNTS = ['veganfoodie', 'plantbasedpaula', 'trailrunner.leo', 'small.cafe'];

/**
 * A benchmark of four creators that has run twice: pasted into column D, selected, made as the sidebar's "Benchmark
 * these accounts" makes it (default measures, weekly), its first run stepped, the clock moved a week (its weekly
 * refresh: the growth row), then its report shown: a column per account, the leaders marked, the two charts below.
 */
export async function benchmarkScene(page, url) {
  await openPreview(page, url);
  await post(page, '/paste', { a1: 'D1', rows: [['account'], ...BENCHMARK_ACCOUNTS.map((a) => [a])] });
  await post(page, '/select', { a1: `D2:D${BENCHMARK_ACCOUNTS.length + 1}` });
  const { tracker } = await run(page, 'igBenchmarkCreate', {
    name: 'Competitors',
    every: 'weekly',
    weekday: 1,
    hour: 7,
    cap: 500,
  });
  for (let done = false; !done;) ({ done } = await run(page, 'igBenchmarkStep', tracker.id));
  await page.click('#clockbar button:text("+1 week")');
  await until(async () => /^Moved 1 week/.test((await page.textContent('#advanced')) ?? ''), 'a week');
  await page.click(`#tabs button:text("${tracker.view}")`);
  await until(async () => (await grid(page)).sheet === tracker.view, 'the report sheet');
  await until(
    async () => (await page.locator('svg.column rect.bar').count()) >= 2 * BENCHMARK_ACCOUNTS.length,
    'the charts',
  );
  await cell(page, 'A1').click();
}
