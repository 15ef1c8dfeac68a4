/**
 * Concurrent recalculation (issue 8): Sheets runs several custom-function cells at once, each its
 * own execution, sharing the document cache and lock. Credits counted at the sandbox must equal
 * the unique requests, every cell must hold its own account's value, and no cell may wait past
 * Apps Script's 30 s. Runs the built add-on in the concurrent stand-in against the sandbox with
 * latency, so executions really overlap.
 *
 * Without claims (IGDATA_TEST_CLAIMS=off) these fail: 600 credits for 200 side by side, about 120
 * for 60 filled down by columns, about 240 by rows.
 */
import type { ConcurrentRuntime, RunSummary } from '../../scripts/gas-standin/concurrent/pool';
import { startSandbox, SandboxProcess } from './harness';
import { concurrentAddon, filledDown, publicAccounts, sideBySide, spellings } from './concurrent-harness';

const LATENCY_MS = 120;
let sb: SandboxProcess;
let pool: ConcurrentRuntime | null = null;

beforeAll(async () => {
  sb = await startSandbox({ latencyMs: LATENCY_MS });
});
afterEach(async () => {
  await pool?.close();
  pool = null;
});
afterAll(async () => {
  await sb?.close();
});

function expectInTime(run: RunSummary) {
  for (const o of run.outcomes) {
    expect(o.timedOut ?? false).toBe(false);
    expect(o.error).toBeUndefined();
  }
  expect(run.longestExecutionMs).toBeLessThan(30000);
}

test('three range formulas side by side over 200 accounts, recalculated together: 200 credits', async () => {
  const accounts = publicAccounts(200);
  const key = await sb.createKey(10000);
  await sb.reset();
  const before = await sb.stats();
  pool = await concurrentAddon(sb.url, key, 3);
  const fields = ['followers', 'biography', 'following'] as const;
  const run = await pool.runAll(
    sideBySide(
      accounts.map((a) => a.username),
      [...fields],
    ),
  );
  const after = await sb.stats();
  console.log(
    `side by side: ${after.creditsBilled - before.creditsBilled} credits, ${run.wallMs} ms, longest execution ${run.longestExecutionMs} ms`,
  );
  expectInTime(run);
  run.outcomes.forEach((o, c) => {
    const cells = (o.value as unknown[][]).map((row) => row[0]);
    expect(cells).toEqual(accounts.map((a) => a[fields[c]]));
  });
  expect(after.creditsBilled - before.creditsBilled).toBe(200);
});

describe.each(['columns', 'rows'] as const)('filled-down single-cell formulas recalculated by %s', (order) => {
  test('60 accounts each typed twice differently (nasa, @NASA, profile URL), 240 cells, 8 at once: 60 credits', async () => {
    const accounts = publicAccounts(60);
    const column = accounts.flatMap((a, i) => {
      const s = spellings(a.username);
      return [s[i % 3], s[(i + 1) % 3]];
    });
    const key = await sb.createKey(10000);
    await sb.reset();
    const before = await sb.stats();
    pool = await concurrentAddon(sb.url, key, 8);
    const specs = filledDown(column, ['followers', 'following'], order);
    const run = await pool.runAll(specs);
    const after = await sb.stats();
    console.log(
      `filled down by ${order}: ${after.creditsBilled - before.creditsBilled} credits, ${run.wallMs} ms, longest execution ${run.longestExecutionMs} ms, longest cell wait ${run.longestCellWaitMs} ms, mean execution ${Math.round(run.outcomes.reduce((n, o) => n + o.endedAt - o.startedAt, 0) / run.outcomes.length)} ms, requests ${run.outcomes.reduce((n, o) => n + o.requests, 0)}`,
    );
    expectInTime(run);
    run.outcomes.forEach((o) => {
      const a = accounts[column.indexOf(o.spec.args[0] as string) >> 1];
      expect(o.value).toBe(o.spec.args[1] === 'followers' ? a.followers : a.following);
    });
    expect(after.creditsBilled - before.creditsBilled).toBe(60);
  });
});
