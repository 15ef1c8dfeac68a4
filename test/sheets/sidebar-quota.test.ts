/**
 * The built sidebar in headless Chromium (stand-in + sandbox) over a bulk run that met Google's daily URL Fetch quota:
 * it names the limit, the rows that wait (not sent, not charged) and when the run goes on, as news rather than an
 * error; and once the day has freed up the hourly trigger finishes the run.
 */
import { openLoaded, poll, sidebarSuite, text } from './sidebar-page';

const HOUR = 3600000;
const env = sidebarSuite();

test('a run waiting for the quota: the sidebar says which limit, what waits and when it goes on; the trigger finishes it after the day', async () => {
  const { rt, sb } = env;
  const grid = rt.spreadsheet.sheet('Sheet1');
  ['nasa', 'natgeo', 'nike'].forEach((h, i) => grid.set(i + 2, 1, h));
  rt.spreadsheet.select('Sheet1!A2:A4');
  rt.call('igSidebarState'); // installs the hourly trigger
  // The user's other scripts spent the day's URL Fetch calls (Google counts them per user).
  rt.quotas.urlfetch.add(rt.now(), rt.limits.urlFetchDailyCalls);
  let job = rt.call('igBulkStart', { endpoint: 'profile', fields: 'followers', output: 'beside' });
  while (job.status === 'running') job = rt.call('igBulkStep', job.id);
  expect(job).toMatchObject({ status: 'paused', next: 0 });
  const page = await openLoaded(rt, env.pages);
  await poll(() => text(page, '#progress-text')).toMatch(/^Paused at 0 of 3 rows/);
  const message = await text(page, '#bulk-message');
  expect(message).toMatch(
    /^Google's daily limit of URL Fetch calls for this account is reached \(.+\): rows 2-4 wait, not sent and not charged\. The run goes on by itself at the first hourly run after .+, when the limit has freed up\.$/,
  );
  expect(await page.getAttribute('#bulk-message', 'class')).not.toMatch(/error/);
  expect(grid.getValues('B2:B4').flat()).toEqual(['', '', '']);
  await expect(sb.stats()).resolves.toMatchObject({ creditsBilled: 0 });
  rt.advance(25 * HOUR);
  expect(rt.call('igBulkStatus')).toMatchObject({ status: 'done', next: 3, credits: 3 });
  expect(grid.getValues('B2:B4').every((r) => typeof r[0] === 'number')).toBe(true);
}, 60000);
