/**
 * Smoke test of the real-n8n plumbing (scripts/n8n-harness/index.cjs): built-in nodes, an HTTP
 * Request to a local server, a community package with an imported credential, a failing
 * run, and a polling trigger whose static data survives between polls. Uses the test-only
 * package in scripts/n8n-harness/fixture-package, not n8n-node/, so it checks the runtime alone.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const rt = require('../../scripts/n8n-harness/index.cjs');

const FIXTURE = path.resolve(__dirname, '../../scripts/n8n-harness/fixture-package');
let server: http.Server;
let base = '';
const seen: { url?: string; key?: string }[] = [];
let home: { home: string; env: Record<string, string> };

const manual = {
  id: 'n-start',
  name: 'Start',
  type: 'n8n-nodes-base.manualTrigger',
  typeVersion: 1,
  position: [0, 0],
  parameters: {},
};
type Node = { name: string; type: string; parameters: Record<string, unknown>; [k: string]: unknown };
function chain(...nodes: Node[]) {
  const all: Node[] = [
    manual,
    ...nodes.map((n, i) => ({ id: `n-${i}`, typeVersion: 1, position: [200 * (i + 1), 0], ...n })),
  ];
  const connections: Record<string, unknown> = {};
  for (let i = 0; i < all.length - 1; i++)
    connections[all[i].name] = { main: [[{ node: all[i + 1].name, type: 'main', index: 0 }]] };
  return { name: 'smoke', nodes: all, connections, settings: {} };
}

// On n8n 2.41.1 the first `execute` after an import has twice (in full `npm test` runs under load,
// never alone in 6 runs of this file) come back not ok with no error in the run; the assertion in
// 'Manual Trigger + Set node' prints exit code, status and n8n's last lines. One retry there,
// logged, so the cause stays visible in the output without failing a run on it.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS file with no types, read where it is needed
if (process.env.IGDATA_N8N_VERSION === require('../../scripts/n8n-harness/versions.cjs').NEWEST) {
  jest.retryTimes(1, { logErrorsBeforeRetry: true });
}

beforeAll(async () => {
  await rt.ensureN8n(); // cold: ~4.5 min; CI should run `node scripts/n8n-harness/install.mjs` first
  server = http.createServer((req, res) => {
    seen.push({ url: req.url, key: req.headers['x-api-key'] as string | undefined });
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ path: req.url, key: req.headers['x-api-key'] ?? null, items: [1, 2, 3] }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  home = await rt.createN8nHome({
    packageDir: FIXTURE,
    credentials: [
      { id: 'credSmoke1', name: 'Smoke', type: 'fixtureApi', data: { baseUrl: base, apiKey: 'smoke-key' } },
    ],
  });
}, 900_000);

afterAll(async () => {
  if (home) rt.removeN8nHome(home);
  await new Promise((r) => server?.close(r));
});

// One import for all manual workflows (each n8n CLI call costs ~3 s), then one execute per test.
const workflows = () => ({
  set: chain({
    name: 'Set',
    type: 'n8n-nodes-base.set',
    typeVersion: 3.4,
    parameters: {
      assignments: { assignments: [{ id: 'a1', name: 'greeting', value: 'hello', type: 'string' }] },
      options: {},
    },
  }),
  code: chain({
    name: 'Code',
    type: 'n8n-nodes-base.code',
    typeVersion: 2,
    parameters: { jsCode: 'return [1, 2].map((n) => ({ json: { n } }));' },
  }),
  http: chain({
    name: 'HTTP',
    type: 'n8n-nodes-base.httpRequest',
    typeVersion: 4.2,
    parameters: { method: 'GET', url: `${base}/plain?x=1`, options: {} },
  }),
  fixture: chain({
    name: 'Fixture',
    type: 'n8n-nodes-igdata-fixture.fixtureHttp',
    parameters: { path: '/with-key' },
    credentials: { fixtureApi: { id: 'credSmoke1', name: 'Smoke' } },
  }),
  boom: chain({
    name: 'Boom',
    type: 'n8n-nodes-base.code',
    typeVersion: 2,
    parameters: { jsCode: 'throw new Error("boom")' },
  }),
});
const ids: Record<string, string> = {};

test('import several workflows in one call', async () => {
  const wfs = Object.entries(workflows()).map(([k, wf]) => ({ ...wf, id: `wfSmoke_${k}`, name: `smoke ${k}` }));
  expect(await rt.importWorkflow(home, wfs)).toEqual(wfs.map((w) => w.id));
  for (const w of wfs) ids[w.id.slice('wfSmoke_'.length)] = w.id;
}, 120_000);

test('Manual Trigger + Set node', async () => {
  const r = await rt.runWorkflow(home, ids.set);
  expect(r.error).toBeUndefined();
  // what went wrong, if anything, is in the failure message: exit code, status, n8n's last lines
  expect({
    ok: r.ok,
    exitCode: r.exitCode,
    status: r.run?.status,
    tail: r.ok ? '' : (r.stdout + r.stderr).split('\n').slice(-12).join('\n'),
  }).toEqual({ ok: true, exitCode: 0, status: 'success', tail: '' });
  expect(r.data).toEqual([{ greeting: 'hello' }]);
  expect(r.run.status).toBe('success');
  // The editor's manual run on the live server (scripts/n8n-harness/runs.cjs), not `n8n execute`'s 'cli'.
  expect(r.run.mode).toBe('manual');
}, 120_000);

test('Manual Trigger + Code node (runs in n8n task runner)', async () => {
  const r = await rt.runWorkflow(home, ids.code);
  expect(r.ok).toBe(true);
  expect(r.data).toEqual([{ n: 1 }, { n: 2 }]);
  expect(rt.nodeOutput(r.run, 'Start')).toEqual([{}]);
}, 120_000);

test('HTTP Request node against a local server', async () => {
  const r = await rt.runWorkflow(home, ids.http);
  expect(r.ok).toBe(true);
  expect(r.data).toEqual([{ path: '/plain?x=1', key: null, items: [1, 2, 3] }]);
}, 120_000);

test('community package node with an imported credential', async () => {
  const r = await rt.runWorkflow(home, ids.fixture);
  expect(r.ok).toBe(true);
  expect(r.data).toEqual([{ path: '/with-key', key: 'smoke-key', items: [1, 2, 3] }]);
  expect(seen.at(-1)).toEqual({ url: '/with-key', key: 'smoke-key' });
}, 120_000);

test('a failing node gives ok=false with the error and the partial run', async () => {
  const r = await rt.runWorkflow(home, ids.boom);
  expect(r.ok).toBe(false);
  expect(r.exitCode).toBe(1);
  expect(r.run.status).toBe('error');
  expect(r.error.message).toMatch(/boom/);
}, 120_000);

test('a workflow object is imported then run (one call)', async () => {
  const r = await rt.runWorkflow(
    home,
    chain({
      name: 'Code',
      type: 'n8n-nodes-base.code',
      typeVersion: 2,
      parameters: { jsCode: 'return [{ json: { one: 1 } }];' },
    }),
  );
  expect(r.ok).toBe(true);
  expect(r.data).toEqual([{ one: 1 }]);
  expect(r.importMs).toBeGreaterThan(0);
}, 120_000);

test('polling trigger: one real poll per activation; static data persists between polls', async () => {
  const wf = {
    id: 'wfSmokePoll',
    name: 'poll',
    nodes: [
      {
        id: 'p',
        name: 'Poll',
        type: 'n8n-nodes-igdata-fixture.fixtureTrigger',
        typeVersion: 1,
        position: [0, 0],
        parameters: {},
      },
    ],
    connections: {},
  };
  const first = await rt.pollOnce(home, wf); // first poll only records where the feed stands
  expect(first.activated).toBe(true);
  expect(first.executions).toEqual([]);
  expect(first.staticData).toEqual({ 'node:Poll': { polls: 1 } });
  const second = await rt.pollOnce(home, 'wfSmokePoll');
  expect(second.executions.map((e: { status: string; items: unknown }) => [e.status, e.items])).toEqual([
    // An activation on the running server ('init' is a fresh `n8n start`'s).
    ['success', [{ poll: 2, mode: 'trigger', activation: 'activate' }]],
  ]);
  expect(second.staticData).toEqual({ 'node:Poll': { polls: 2 } });
}, 180_000);

// Versions differ here: 2.8.4 runs a polling trigger on a cron below a minute (so one n8n start
// can poll every 2 s); 2.41.1 refuses to activate it, and tests drive its polls one n8n start each.
const subMinute = rt.runtime().subMinutePolls ? test : test.skip;
const noSubMinute = rt.runtime().subMinutePolls ? test.skip : test;

subMinute(
  'polling trigger on a 2 s cron inside one n8n start (runActive)',
  async () => {
    const wf = {
      id: 'wfSmokeCron',
      name: 'cron',
      nodes: [
        {
          id: 'p',
          name: 'Poll',
          type: 'n8n-nodes-igdata-fixture.fixtureTrigger',
          typeVersion: 1,
          position: [0, 0],
          parameters: {},
        },
      ],
      connections: {},
    };
    const id = await rt.publishWorkflow(home, wf, { pollTimes: rt.pollTimesEverySeconds(2) });
    const r = await rt.runActive(home, id, { until: (s: { executions: unknown[] }) => s.executions.length >= 2 });
    expect(r.activationError).toBeUndefined();
    // activation poll (records, no execution), then two cron polls that emit
    expect(r.executions.slice(0, 2).map((e: { items: { poll: number }[] }) => e.items[0].poll)).toEqual([2, 3]);
    expect(r.staticData['node:Poll'].polls).toBeGreaterThanOrEqual(3);
  },
  180_000,
);

noSubMinute(
  "a cron below a minute is refused at activation, with n8n's reason",
  async () => {
    const wf = {
      id: 'wfSmokeCron',
      name: 'cron',
      nodes: [
        {
          id: 'p',
          name: 'Poll',
          type: 'n8n-nodes-igdata-fixture.fixtureTrigger',
          typeVersion: 1,
          position: [0, 0],
          parameters: {},
        },
      ],
      connections: {},
    };
    const id = await rt.publishWorkflow(home, wf, { pollTimes: rt.pollTimesEverySeconds(2) });
    const r = await rt.runActive(home, id);
    expect(r.activated).toBe(false);
    expect(r.activationError).toMatch(/polling interval is too short/);
    expect(r.executions).toEqual([]);
  },
  180_000,
);
