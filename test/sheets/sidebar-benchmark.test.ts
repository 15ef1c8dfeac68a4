/**
 * "Benchmark these accounts" from the built sidebar in headless Chromium (google.script.run wired to the built
 * add-on in the Apps Script stand-in, over the sandbox): pick the accounts, preview (the sentence is the server's
 * numbers, said by the sidebar's own words), choose our account among those the preview read, create (the first run
 * stepped by the page), then the report sheet holds the sandbox's numbers with ours first; the benchmark is listed
 * with its next refresh, and deleted after a confirmation, its sheets kept.
 */
import type { GasRuntime } from '../../scripts/gas-standin/runtime';
import { getWorld } from '../../scripts/sandbox/world/build';
import { benchmarkCostText } from '../../sheets-addon/src/sidebar/counts';
import { addonRuntime } from './harness';
import { go, openLoaded, poll, sidebarSuite, text } from './sidebar-page';

const env = sidebarSuite();
const runtimes: GasRuntime[] = [];
afterAll(async () => {
  for (const rt of runtimes) await rt.close();
});

/** 4 public seeded accounts of the sandbox's world (seed 42) with posts. */
const ACCOUNTS = [...getWorld(42).byUsername.values()]
  .filter((a) => !a.is_private && a.followers > 1000)
  .slice(0, 4)
  .map((a) => a.username);

/** What the sandbox answers now, asked with a key of the test's own (the add-on's balance stays its own). */
async function ask(path: string): Promise<Record<string, any>> {
  const key = await env.sb.createKey(100);
  const res = await fetch(`${env.sb.url}/v1/${path}`, { headers: { authorization: `Bearer ${key}` } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Record<string, any> }).data;
}

test('select accounts, preview (the server numbers), choose ours, create: the report sheet; listed, then deleted with its sheets kept', async () => {
  // The stand-in's clock is the sandbox's world time: the report's dates are the answers'.
  const { world } = (await (await fetch(`${env.sb.url}/_sandbox/clock`)).json()) as { world: string };
  const rt = addonRuntime(env.sb.url, { startAt: world });
  runtimes.push(rt);
  rt.spreadsheet.sheet('Sheet1').setValues('A1', [['account'], ...ACCOUNTS.map((h) => [h])]);
  rt.spreadsheet.select('Sheet1!A2:A5');
  const page = await openLoaded(rt, env.pages);
  await go(page, 'benchmark');
  await page.click('#bench-use-selection');
  await poll(() => text(page, '#bench-selection')).toBe('Sheet1!A2:A5 (4 rows)');
  // The measures offered, the defaults ticked, each with its function and price.
  await poll(() => page.locator('#bench-measures input').count()).toBe(10);
  expect(await page.locator('#bench-measures label', { hasText: 'Average likes' }).textContent()).toBe(
    ' Average likes (IGENGAGEMENT, 2 credits)',
  );
  const ticked = () =>
    page.locator('#bench-measures input:checked').evaluateAll((bs) => bs.map((b) => (b as HTMLInputElement).value));
  expect(await ticked()).toEqual([
    'followers',
    'growth',
    'engagement',
    'cadence',
    'best_format',
    'formats',
    'best_time',
  ]);
  // Best time off: two functions remain, engagement and stats.
  await page.locator('#bench-measures input[value="best_time"]').uncheck();
  await page.fill('#bench-name', 'Rivals');
  expect(await page.isDisabled('#bench-create')).toBe(true);

  await page.click('#bench-preview');
  await poll(() => text(page, '#bench-text')).toMatch(/^Now: /);
  const req = { measures: await ticked(), every: 'weekly', weekday: 1, hour: 7, cap: 500, name: 'Rivals' };
  const server = rt.call('igBenchmarkPreview', req);
  expect(server).toMatchObject({ accounts: 4, creditsEach: 7, now: 28, kept: 0, enough: true, handles: ACCOUNTS });
  expect(await text(page, '#bench-text')).toBe(benchmarkCostText(server));
  expect(await text(page, '#bench-text')).toMatch(
    /^Now: 28 credits\. Then weekly on Monday at 07:00: 4 accounts × 7 credits \(IGENGAGEMENT 2 \+ IGSTATS 5\) = 28 credits a run, about \d+ credits a month; next .+\. You have [\d,]+ credits\.$/,
  );
  // Our account: any of those the preview read, the first by default.
  expect(
    await page.locator('#bench-ours option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value)),
  ).toEqual(ACCOUNTS);
  expect(await page.inputValue('#bench-ours')).toBe(ACCOUNTS[0]);
  const ours = ACCOUNTS[2];
  await page.selectOption('#bench-ours', ours);
  expect(await page.isEnabled('#bench-create')).toBe(true);

  const billed = (await env.sb.stats()).creditsBilled;
  await page.click('#bench-create');
  await poll(() => text(page, '#bench-text'), { timeout: 30000 }).toMatch(/^Benchmarked: /);
  const view = 'IG Data benchmark Rivals';
  expect(await text(page, '#bench-text')).toBe(`Benchmarked: 28 credits. The report is the sheet “${view}”.`);
  expect((await env.sb.stats()).creditsBilled - billed).toBe(server.now);

  // The report: ours first, every measure asked for, the sandbox's numbers.
  const values = rt.spreadsheet.sheet(view).getValues();
  expect(values[0].slice(0, 5)).toEqual(['measure', `${ours} (ours)`, ...ACCOUNTS.filter((a) => a !== ours)]);
  expect(values.map((l) => l[0]).filter((l) => l !== '')).toEqual([
    'measure',
    'Followers',
    'Follower growth since the previous run',
    'Engagement rate %',
    'Posts per week',
    'Best format',
    'Formats posted',
    'fetched',
    'note',
  ]);
  const row = (label: string) => values.find((l) => l[0] === label)!;
  for (const [i, a] of [ours, ...ACCOUNTS.filter((x) => x !== ours)].entries()) {
    const e = await ask(`insights/profile/engagement?handle=${a}&posts=12`);
    const s = await ask(`insights/profile/stats?handle=${a}&posts=30`);
    expect([a, row('Followers')[i + 1], row('Engagement rate %')[i + 1], row('Posts per week')[i + 1]]).toEqual([
      a,
      e.followers,
      e.engagement_rate_pct,
      s.posts_per_week,
    ]);
  }
  expect(rt.spreadsheet.sheet(view).charts).toHaveLength(2);

  // Listed with its next refresh; deleted after the question, its report and history sheets kept.
  const [listed] = rt.call('igBenchmarks');
  await poll(() => text(page, '#bench-list')).toMatch(
    new RegExp(`^Rivals: 4 accounts, ours @${ours}weekly on Monday at 07:00, at most 500 credits a run\\. Next: `),
  );
  expect(await text(page, '#bench-list')).toContain(`Next: ${listed.nextLabel}.Report: “${view}”.`);
  const sheets = rt.spreadsheet.sheets.map((x) => x.name);
  expect(sheets.filter((n) => n.includes('Rivals'))).toHaveLength(3); // the report and a history per function
  await page.click('#bench-list button.delete');
  expect(await text(page, '#bench-list button.delete')).toMatch(/^Delete this benchmark\?/);
  expect(rt.call('igBenchmarks')).toHaveLength(1);
  await page.click('#bench-list button.delete');
  await poll(() => text(page, '#benchmarks-message')).toBe('Deleted. Its report and history sheets stay.');
  expect(await text(page, '#bench-list')).toBe('');
  expect(rt.call('igBenchmarks')).toEqual([]);
  expect(rt.spreadsheet.sheets.map((x) => x.name)).toEqual(sheets);

  // With 5 credits left: the stats and engagement answers are still fresh (free), the best time is not: said plainly.
  rt.properties.document.set('IGDATA_API_KEY', await env.sb.createKey(5));
  await page.locator('#bench-measures input[value="best_time"]').check();
  await page.click('#bench-preview');
  await poll(() => text(page, '#bench-text')).toMatch(/Not enough credits/);
  expect(await text(page, '#bench-text')).toMatch(
    /^Now: 20 credits \(8 answers still fresh, free\)\. .* You have 5 credits\. Not enough credits: the first run needs 20 credits; add credits or untick measures\.$/,
  );
  expect(await page.getAttribute('#bench-text', 'class')).toBe('msg error');
  expect(await page.isDisabled('#bench-create')).toBe(true);

  // Made once: no day or hour to choose, growth (a change between two runs) unticked and off, the preview says so.
  await page.selectOption('#bench-repeat', 'never');
  expect([await page.isHidden('#bench-weekday'), await page.isHidden('#bench-hour')]).toEqual([true, true]);
  const growth = page.locator('#bench-measures input[value="growth"]');
  expect([await growth.isChecked(), await growth.isDisabled()]).toEqual([false, true]);
  await page.click('#bench-preview');
  await poll(() => text(page, '#bench-text')).toMatch(/Not refreshed: the report stays as this run leaves it\./);
  await page.selectOption('#bench-repeat', 'weekly');
  expect([await page.isHidden('#bench-weekday'), await growth.isDisabled()]).toEqual([false, false]);
}, 120_000);
