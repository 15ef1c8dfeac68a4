/**
 * Alerts on a tracker from the built sidebar in headless Chromium (google.script.run wired to the
 * built add-on in the Apps Script stand-in): a tracker's Alerts section adds a rule from its parts
 * and says it back in words, refuses a rule on a number the tracker does not fetch with what fetching
 * it would cost, and deletes a rule.
 */
import { go, openLoaded, poll, sidebarSuite, text } from './sidebar-page';

const env = sidebarSuite();

test("a tracker's Alerts: add a rule (said back in words), a refused one with its cost, delete", async () => {
  const { rt } = env;
  const sheet = rt.spreadsheet.sheet('Sheet1');
  ['account', 'nasa', 'natgeo'].forEach((h, i) => sheet.set(i + 1, 1, h));
  rt.spreadsheet.select('Sheet1!A2:A3');
  const { tracker } = rt.call('igTrackerCreate', {
    fields: 'followers',
    every: 'daily',
    hour: 7,
    cap: 10,
    name: 'Pair',
  });
  let r = rt.call('igTrackerStep', tracker.id);
  while (!r.done) r = rt.call('igTrackerStep', tracker.id);
  const page = await openLoaded(rt, env.pages);
  await go(page, 'tracker');
  const alerts = '#tracker-list details';
  await poll(() => text(page, '#tracker-list')).toMatch(/Pair: 2 accounts, followers/);
  await page.click(`${alerts} summary`);
  await poll(() => text(page, alerts)).toMatch(/No alert rules yet\./);
  const selects = page.locator(`${alerts} select`);
  await selects.nth(0).selectOption('followers');
  await selects.nth(1).selectOption('down');
  await page.fill(`${alerts} input[type=number]`, '5');
  await selects.nth(2).selectOption('previous');
  await page.fill(`${alerts} input[placeholder]`, 'ops@example.com, lead@example.com');
  await page.click(`${alerts} button:text("Add rule")`);
  await poll(() => text(page, alerts)).toMatch(
    /followers down 5% since the previous run → ops@example\.com, lead@example\.com/,
  );
  // A number the tracker does not fetch: refused, with what a run would cost to fetch it.
  await selects.nth(0).selectOption('engagement_rate');
  await selects.nth(1).selectOption('under');
  await page.fill(`${alerts} input[type=number]`, '1');
  await page.click(`${alerts} button:text("Add rule")`);
  await poll(() => text(page, `${alerts} .msg`)).toMatch(
    /"engagement rate under 1%": this tracker does not fetch engagement rate \(engagement_rate_pct\); fetching it would cost \d+ credits a run for its 2 accounts\./,
  );
  expect(rt.call('igAlerts', tracker.id).rules).toHaveLength(1);
  await page.click(`${alerts} button.delete`);
  await page.click(`${alerts} button.delete`); // the question, then yes
  await poll(() => text(page, alerts)).toMatch(/No alert rules yet\./);
  expect(rt.call('igAlerts', tracker.id).rules).toEqual([]);
}, 120_000);
