/**
 * Where the credits went (issue 10, point 4), with the built add-on in the Apps Script stand-in
 * against the sandbox: credits by day and by what spent them (a formula: function and cell; a bulk
 * run), kept past the cache's 6 hours by the hourly trigger, exported to a sheet.
 */
import type { GasRuntime } from '../../scripts/gas-standin/runtime';
import { column, sandboxedAddon } from './harness';

const HOUR = 3600000;
const env = sandboxedAddon();
const runtime = env.runtime;

const day = (rt: GasRuntime) => new Date(rt.now()).toISOString().slice(0, 10);

test("a formula's credits by function and cell, a bulk run's by run; a free recalculation adds nothing", async () => {
  const rt = runtime();
  rt.call('igSidebarState');
  rt.run('IGPROFILE', [column(['nasa', 'natgeo', 'locked_acc']), 'followers'], { kind: 'custom', cell: 'Sheet1!B1' });
  rt.run('IGPROFILE', [column(['nasa', 'natgeo', 'locked_acc']), 'followers'], { kind: 'custom', cell: 'Sheet1!B1' }); // cached: free
  rt.run('IGABOUT', ['nasa', 'account_created'], { kind: 'custom', cell: 'Sheet1!D1' });
  const sheet = rt.spreadsheet.sheet('Sheet1');
  ['nasa', 'nike'].forEach((h, i) => sheet.set(i + 1, 6, h));
  rt.spreadsheet.select('Sheet1!F1:F2');
  let job = rt.call('igBulkStart', { endpoint: 'profile', fields: 'followers', output: 'sheet' });
  while (job.status === 'running') job = rt.call('igBulkStep', job.id);
  expect(job.credits).toBe(1);
  const usage = rt.call('igUsage');
  expect(usage).toEqual({
    [day(rt)]: { 'IGPROFILE B1': 3, 'IGABOUT D1': 2, [`Run ${job.startedAt.slice(0, 16)} IGPROFILE`]: 1 },
  });
  await expect(env.sandbox.stats()).resolves.toMatchObject({ creditsBilled: 6 });
});

test("the hourly trigger keeps the formulas' usage past the cache's 6 hours; export writes it to a sheet", () => {
  const rt = runtime();
  rt.call('igSidebarState');
  const first = day(rt);
  rt.run('IGPROFILE', ['nasa', 'followers'], { kind: 'custom', cell: 'Sheet1!B2' });
  rt.advance(7 * HOUR);
  expect(rt.caches.document.dump().filter((e) => e.key === 'igd1:usage')).toEqual([]);
  expect(JSON.parse(rt.properties.document.get('IGDATA_USAGE') as string)).toEqual({ [first]: { 'IGPROFILE B2': 1 } });
  rt.run('IGPROFILE', ['natgeo', 'followers'], { kind: 'custom', cell: 'Sheet1!B3' });
  const u = rt.call('igUsage');
  const rows = [
    ['Day', 'What', 'Credits'],
    ...Object.keys(u)
      .sort()
      .flatMap((d) => Object.entries(u[d]).map(([w, n]) => [d, w, n])),
  ];
  rt.call('igExportUsage', rows);
  // The day as a date (the spreadsheet's zone is UTC here), the label as its text, credits as numbers.
  expect(rt.spreadsheet.sheet('IG Data usage').getValues()).toEqual(
    rows.map((r, i) => (i ? [new Date(`${r[0]}T00:00:00Z`), r[1], r[2]] : r)),
  );
  expect(rows.slice(1).reduce((n, r) => n + (r[2] as number), 0)).toBe(2);
});
