// Schedule rows of `npm run bench:sheets` (issue 10, point 2): a weekly refresh of the 1,000-row
// column (600 distinct accounts) by a scheduled lookup into a history sheet, run by the hourly
// trigger with the sheet closed, next to the obvious alternative: the same lookup run by hand from
// the sidebar (start + steps until done). Credits must equal the distinct accounts for each weekly
// run; the wall time of a scheduled run is the trigger execution that did it.
import { columnRuntime } from './addon-runtime.mjs';

const HOUR = 3600000;

const runtime = (opts) => columnRuntime(opts, opts.column);

const line = (label, ms, credits, extra = '') =>
  console.log(`${label.padEnd(34)} ${String(ms).padStart(6)} ms  ${String(credits).padStart(5)} credits${extra}`);

export async function scheduleRows(opts) {
  const { sb } = opts;
  const req = { endpoint: 'profile', fields: 'followers', output: 'history' };

  // The alternative: the same lookup from the sidebar, by hand.
  await sb.reset();
  const byHand = runtime(opts);
  const t0 = performance.now();
  let job = byHand.call('igBulkStart', req);
  while (job.status === 'running') job = byHand.call('igBulkStep', job.id);
  const handMs = Math.round(performance.now() - t0);
  const handCredits = (await sb.stats()).creditsBilled;
  line('(e) sidebar run by hand', handMs, handCredits);
  await byHand.close();

  // The schedule: weekly, two runs; each is one hourly trigger execution.
  const rt = runtime(opts);
  const [s] = rt.call('igScheduleSave', req, { every: 'weekly', weekday: 1, hour: 7 }, 1000);
  const weekly = [];
  for (let week = 0; week < 2; week++) {
    await sb.reset();
    const next = Date.parse(rt.call('igSchedules')[0].nextAt);
    const before = rt.executions.length;
    rt.advance(next - rt.now() + HOUR);
    const runs = rt.executions.slice(before).filter((e) => e.fnName === 'igKeepAnswers');
    const worked = runs.reduce((a, e) => (e.ms > a.ms ? e : a), { ms: 0 });
    const credits = (await sb.stats()).creditsBilled;
    const view = rt.call('igSchedules')[0];
    weekly.push({
      ms: Math.round(worked.ms),
      credits,
      status: view.run.status,
      written: view.run.written,
      triggerRuns: runs.length,
    });
    line(
      `(e) scheduled weekly run ${week + 1}`,
      Math.round(worked.ms),
      credits,
      `  (${view.run.written} snapshots, ${view.run.status})`,
    );
  }
  const history = rt.spreadsheet
    .findSheet('IG Data history IGPROFILE')
    .getValues()
    .slice(1)
    .filter((r) => r[1] !== '');
  await rt.close();
  void s;

  const unique = handCredits;
  const rows = {
    byHand: { ms: handMs, credits: handCredits },
    weekly,
    snapshots: history.length,
    ratio: Number((weekly[0].ms / handMs).toFixed(2)),
  };
  console.log(
    `    scheduled / by hand wall time: ${rows.ratio}x (the scheduled run is one trigger execution; the sidebar's is many steps)`,
  );
  const checks = [
    [
      '(e) weekly refresh: credits = distinct accounts, each run',
      weekly.every((w) => w.credits === unique && w.status === 'done'),
      weekly.map((w) => w.credits).join(', '),
    ],
    [
      '(e) two weekly runs: two snapshots per account',
      history.length === 2 * unique,
      `${history.length} rows for ${unique} accounts`,
    ],
    [
      '(e) a scheduled run fits one trigger execution (< 270 s)',
      weekly.every((w) => w.ms < 270000),
      weekly.map((w) => `${w.ms} ms`).join(', '),
    ],
  ];
  return { rows, checks };
}
