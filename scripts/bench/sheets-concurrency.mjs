// Concurrency rows of `npm run bench:sheets` (issue 8): cells recalculating at the same time, each
// its own execution, sharing the document cache and lock, in the concurrent Apps Script stand-in
// (scripts/gas-standin/concurrent) against the sandbox. Both ways side by side in the same run,
// chosen by the document property IGDATA_CLAIMS: "off" (before issue 8: no coordination) and
// claims (what ships). A third way, a lock held around the whole fetch, was measured with commit
// "bench:sheets: concurrent recalculation rows" and dropped (see sheets-addon/README.md).
//   side by side: =IGPROFILE(A2:A201,"followers"|"biography"|"following"), 3 executions at once;
//                 baseline: one of them alone
//   filled down:  =IGPROFILE(A2,"followers") and =IGPROFILE(A2,"following") over 120 rows holding
//                 60 accounts typed twice (nasa, @NASA, profile URL), 8 executions at once, in
//                 column order and in row order; baseline: the same cells without claims
// Each row is the median wall time of REPEATS runs (credits must be the same in every run).
import { join } from 'node:path';

const REPEATS = Number(process.env.BENCH_REPEATS ?? 3);
const MODES = [
  ['off', 'off (before)'],
  ['', 'claims'],
];

const spellings = (h) => [h, `@${h.toUpperCase()}`, `https://www.instagram.com/${h}/`];

export async function concurrencyRows({ createConcurrentRuntime, sb, key, dist, prod, accounts }) {
  const handles = accounts.filter((a) => !a.is_private).map((a) => a.username);
  const side = handles.slice(0, 200);
  const fields = ['followers', 'biography', 'following'];
  const sideSpecs = fields.map((f) => ({ fn: 'IGPROFILE', args: [side.map((h) => [h]), f] }));
  const column = handles.slice(200, 260).flatMap((h, i) => {
    const s = spellings(h);
    return [s[i % 3], s[(i + 1) % 3]];
  });
  const cell = (r, c) => ({ fn: 'IGPROFILE', args: [column[r], ['followers', 'following'][c]] });
  const byColumns = [0, 1].flatMap((c) => column.map((_, r) => cell(r, c)));
  const byRows = column.flatMap((_, r) => [cell(r, 0), cell(r, 1)]);

  async function measure(specs, threads, mode) {
    const runs = [];
    for (let i = 0; i < REPEATS; i++) {
      await sb.reset();
      const pool = await createConcurrentRuntime({
        threads,
        files: [join(dist, 'bundle.js'), join(dist, 'Code.js')],
        dir: dist,
        enforceUrlFetchWhitelist: true,
        rewrite: { from: prod, to: sb.url },
        documentProperties: { IGDATA_API_KEY: key, ...(mode ? { IGDATA_CLAIMS: mode } : {}) },
      });
      try {
        const run = await pool.runAll(specs);
        const s = await sb.stats();
        const failed = run.outcomes.filter((o) => !o.ok).length;
        const late = run.outcomes.filter((o) => JSON.stringify(o.value ?? '').includes('Not reached')).length;
        runs.push({
          wallMs: run.wallMs,
          longestCellWaitMs: run.longestCellWaitMs,
          longestExecutionMs: run.longestExecutionMs,
          credits: s.creditsBilled,
          failed,
          late,
        });
      } finally {
        await pool.close();
      }
    }
    runs.sort((x, y) => x.wallMs - y.wallMs);
    const mid = runs[Math.floor(runs.length / 2)];
    return {
      ...mid,
      creditsEveryRun: runs.map((r) => r.credits),
      longestExecutionMs: Math.max(...runs.map((r) => r.longestExecutionMs)),
    };
  }

  const rows = [];
  const show = (scenario, label, r, base) => {
    const ratio = base ? ` ${(r.wallMs / base.wallMs).toFixed(2)}x` : '';
    console.log(
      `${scenario.padEnd(24)} ${label.padEnd(18)} ${String(r.credits).padStart(4)} credits ${String(r.wallMs).padStart(6)} ms${ratio.padEnd(7)}` +
        `  longest cell wait ${r.longestCellWaitMs} ms, longest execution ${r.longestExecutionMs} ms${r.failed ? `, ${r.failed} failed` : ''}${r.late ? `, ${r.late} late` : ''}`,
    );
    rows.push({ scenario, label, ...r });
  };

  console.log(`\nconcurrent recalculation (median of ${REPEATS}; ratio: wall time / baseline)`);
  const alone = await measure([sideSpecs[0]], 1, '');
  show('side by side x3 (200)', 'one alone', alone);
  const side3 = {};
  for (const [mode, label] of MODES)
    show('side by side x3 (200)', label, (side3[mode] = await measure(sideSpecs, 3, mode)), alone);
  const filled = {};
  for (const [order, specs] of [
    ['columns', byColumns],
    ['rows', byRows],
  ]) {
    filled[order] = {};
    for (const [mode, label] of MODES)
      show(
        `filled down by ${order} (60)`,
        label,
        (filled[order][mode] = await measure(specs, 8, mode)),
        filled[order].off,
      );
  }

  const checks = [
    [
      'side by side: claims cost 200 credits',
      side3[''].creditsEveryRun.every((c) => c === 200),
      side3[''].creditsEveryRun.join('/'),
    ],
    [
      'side by side: claims within 1.3x of one execution alone',
      side3[''].wallMs <= 1.3 * alone.wallMs,
      `${(side3[''].wallMs / alone.wallMs).toFixed(2)}x`,
    ],
  ];
  for (const order of ['columns', 'rows']) {
    const f = filled[order];
    checks.push([
      `filled down by ${order}: claims cost 60 credits`,
      f[''].creditsEveryRun.every((c) => c === 60),
      f[''].creditsEveryRun.join('/'),
    ]);
    checks.push([
      `filled down by ${order}: claims within 1.3x of the same cells without claims`,
      f[''].wallMs <= 1.3 * f.off.wallMs,
      `${(f[''].wallMs / f.off.wallMs).toFixed(2)}x`,
    ]);
  }
  const all = [side3, filled.columns, filled.rows];
  checks.push([
    'no execution near the 30 s limit (claims)',
    all.every((s) => s[''].longestExecutionMs < 30000 && !s[''].failed),
    `${Math.max(...all.map((s) => s[''].longestExecutionMs))} ms`,
  ]);
  return { rows, checks };
}
