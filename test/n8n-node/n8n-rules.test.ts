/**
 * n8n's execution rules around the node, in a real n8n (2.8.4, and 2.41.1 in the jest project
 * n8n-newest), headless, against the sandbox: Execute Once, Always Output Data, Retry On Fail,
 * sub-workflows, and the editor's "Execute step" with and without pinned data (the inventory in test/README.md says what n8n documents for each and what the
 * node does). Each node has its own sandbox key, so what each was billed is read from its balance.
 */
import type { N8nWorld } from './setup';
import { rt, setupN8n, teardownN8n } from './setup';

jest.setTimeout(300_000);

const BALANCE = 100;
const NAMES = ['once', 'always', 'retry', 'sub', 'click'] as const;
type Name = (typeof NAMES)[number];

let world: N8nWorld;
const keys = {} as Record<Name, string>;
const creds = {} as Record<Name, { id: string; name: string }>;

beforeAll(async () => {
  world = await setupN8n();
  const list = NAMES.map((n, k) => {
    keys[n] = world.sb.createKey(BALANCE);
    creds[n] = { id: `igRulesCase0${k}`, name: `IG Data ${n}` };
    return { ...creds[n], type: 'igDataApi', data: { apiKey: keys[n], baseUrl: world.sb.url } };
  });
  await rt.importCredentials(world.home, list);
});
afterAll(() => teardownN8n(world));

const billed = (n: Name) => BALANCE - world.sb.balance(keys[n]);
const start = {
  id: 'start',
  name: 'Start',
  type: 'n8n-nodes-base.manualTrigger',
  typeVersion: 1,
  position: [0, 0],
  parameters: {},
};
const input = (name: string, handles: string[]) => ({
  id: `in-${name}`,
  name,
  type: 'n8n-nodes-base.code',
  typeVersion: 2,
  position: [200, 0],
  parameters: { jsCode: `return ${JSON.stringify(handles)}.map((who) => ({ json: { who } }));` },
});
const ig = (name: string, cred: Name, options: Record<string, unknown>, settings: Record<string, unknown> = {}) => ({
  id: `ig-${name}`,
  name,
  type: 'n8n-nodes-igdata.igData',
  typeVersion: 1,
  position: [400, 0],
  parameters: { resource: 'profile', operation: 'profile', handle: '={{ $json.who }}', options },
  credentials: { igDataApi: creds[cred] },
  ...settings,
});
const link = (from: string, to: string) => ({ [from]: { main: [[{ node: to, type: 'main', index: 0 }]] } });
const out = (r: { run: unknown }, node: string) => rt.nodeOutput(r.run, node) as Record<string, any>[];

test('Execute Once: one lookup with the first item, one credit; Always Output Data: an empty item where nothing came out', async () => {
  const r = await rt.runWorkflow(world.home, {
    name: 'rules',
    nodes: [
      start,
      input('Five', ['nasa', 'natgeo', 'nike', 'bbcnews', 'starbucks']),
      ig('Once', 'once', {}, { executeOnce: true }),
      input('Locked', ['locked_acc']),
      ig('Always', 'always', { onNotFound: 'skip' }, { alwaysOutputData: true }),
    ],
    connections: {
      Start: {
        main: [
          [
            { node: 'Five', type: 'main', index: 0 },
            { node: 'Locked', type: 'main', index: 0 },
          ],
        ],
      },
      ...link('Five', 'Once'),
      ...link('Locked', 'Always'),
    },
    settings: { executionOrder: 'v1' },
  });
  expect(r.error).toBeUndefined();
  expect(out(r, 'Once').map((j) => j.username)).toEqual(['nasa']);
  expect(billed('once')).toBe(1);
  // On Not Found: Skip left the private account out (billed: the API answered 404); n8n then adds
  // one empty item, which carries nothing of ours: the notice is the run's warning hint.
  expect(out(r, 'Always')).toEqual([{}]);
  expect(billed('always')).toBe(1);
});

test('Retry On Fail: a run that throws after it was paid (On Not Found: Error) is run again with all its items, and nothing is paid twice', async () => {
  // On Not Found: Error fails the run after it was paid: n8n runs the node again (Max Tries 2).
  const r = await rt.runWorkflow(world.home, {
    name: 'retry',
    nodes: [
      start,
      input('Two', ['nasa', 'locked_acc']),
      ig('Retry', 'retry', { onNotFound: 'error' }, { retryOnFail: true, maxTries: 2, waitBetweenTries: 0 }),
    ],
    connections: { ...link('Start', 'Two'), ...link('Two', 'Retry') },
  });
  expect(r.ok).toBe(false);
  expect(String(r.error?.message)).toMatch(/locked_acc is private: no public data/);
  // n8n keeps no output of a failed try: the second try uses the answers the first paid for
  // (n8n-node/nodes/IgData/retry.ts), so 2 credits, not 2 a try.
  expect(billed('retry')).toBe(2);
});

// 2.41.1 serves a sub-workflow from its publication service, which takes up a publication made by
// the CLI only at `n8n start` ("Workflow is not active and cannot be executed" under `n8n execute`;
// a sub-workflow given as JSON is refused its credential there): this runs on 2.8.4 only.
const publishedByCli = rt.runtime().activation !== 'publication-status';
(publishedByCli ? test : test.skip)(
  "sub-workflows: each execution of a sub-workflow has its own credit cap (the caller's does not span it)",
  async () => {
    const sub = {
      id: 'igRulesSubWf01',
      name: 'rules sub',
      nodes: [
        {
          id: 'trigger',
          name: 'When called',
          type: 'n8n-nodes-base.executeWorkflowTrigger',
          typeVersion: 1.1,
          position: [0, 0],
          parameters: { inputSource: 'passthrough' },
        },
        ig('Sub lookup', 'sub', { creditCap: 1 }),
      ],
      connections: link('When called', 'Sub lookup'),
    };
    // Outside the editor n8n runs a sub-workflow's published version: publish it.
    await rt.publishWorkflow(world.home, sub);
    const r = await rt.runWorkflow(world.home, {
      name: 'rules caller',
      nodes: [
        start,
        input('Three', ['nasa', 'natgeo', 'nike']),
        {
          id: 'call',
          name: 'Call',
          type: 'n8n-nodes-base.executeWorkflow',
          typeVersion: 1.2,
          position: [400, 0],
          parameters: {
            source: 'database',
            workflowId: { __rl: true, mode: 'id', value: sub.id },
            mode: 'each',
            options: { waitForSubWorkflow: true },
          },
        },
      ],
      connections: { ...link('Start', 'Three'), ...link('Three', 'Call') },
    });
    expect(r.error).toBeUndefined();
    // One sub-workflow execution per item, each under its own cap of 1: three credits in all.
    expect(out(r, 'Call').map((j) => j.username)).toEqual(['nasa', 'natgeo', 'nike']);
    expect(billed('sub')).toBe(3);
  },
);

test('the editor: each "Execute step" is an execution of its own that pays again for every lookup and says what it cost (Include Meta); pinned data is used instead of the node (0 credits)', async () => {
  const clicked = {
    id: 'igRulesEditor01',
    name: 'rules editor',
    nodes: [start, input('Two', ['nasa', 'natgeo']), ig('Click', 'click', { includeMeta: true })],
    connections: { ...link('Start', 'Two'), ...link('Two', 'Click') },
  };
  // The same with the node's output pinned, as saved (2.41.1 runs the saved workflow; 2.8.4 the
  // one the editor sends: both carry it).
  const pinned = { ...clicked, id: 'igRulesEditor02', pinData: { Click: [{ json: { username: 'pinned' } }] } };
  await rt.importWorkflow(world.home, [clicked, pinned]);
  const before = await rt.maxExecutionId(world.home);
  const editor = await rt.editorOf(world.home);
  const runs: { id: number; status: string; mode: string; items?: Record<string, any>[] }[] = [];
  try {
    // The owner's session the harness holds (n8n allows an account 5 logins a minute, shared by the run).
    const headers = { 'content-type': 'application/json', ...editor.headers };
    const saved = async (id: string) =>
      (await (await fetch(`${editor.url}/rest/workflows/${id}`, { headers })).json()).data;
    // What the editor sends for "Execute step" on the node: a manual execution up to it.
    const click = async (id: string) => {
      const res = await fetch(`${editor.url}/rest/workflows/${id}/run`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          workflowData: await saved(id),
          triggerToStartFrom: { name: 'Start' },
          destinationNode: { nodeName: 'Click', mode: 'inclusive' },
        }),
      });
      expect(res.status).toBe(200);
      const after = runs.length ? Math.max(...runs.map((r) => r.id)) : before;
      for (const until = Date.now() + 30_000; Date.now() < until;) {
        const done = (await rt.getExecutions(world.home, id, { afterId: after })).find(
          (e: { mode: string; status: string }) => e.mode === 'manual' && e.status !== 'running' && e.status !== 'new',
        );
        if (done) return runs.push(done);
        await new Promise((r) => setTimeout(r, 250));
      }
      throw new Error('no manual execution finished within 30 s');
    };
    await click(clicked.id);
    await click(clicked.id);
    await click(pinned.id);
  } finally {
    await editor.stop();
  }
  expect(runs.map((r) => [r.mode, r.status])).toEqual([
    ['manual', 'success'],
    ['manual', 'success'],
    ['manual', 'success'],
  ]);
  // Each click: both lookups again (no answers kept between executions, a cap of its own), and
  // each item's meta says what it cost.
  for (const r of runs.slice(0, 2)) {
    expect(r.items?.map((i) => [i.username, i.meta?.credits_charged])).toEqual([
      ['nasa', 1],
      ['natgeo', 1],
    ]);
  }
  // Pinned: the node did not run.
  expect(runs[2].items).toEqual([{ username: 'pinned' }]);
  expect(billed('click')).toBe(4);
});

test("logins: n8n allows one account 5 a minute, then answers 429 (2.8.4 and 2.41.1 alike); the harness's one session per server stays signed in", async () => {
  const editor = await rt.editorOf(world.home);
  // Another account's key (a name nobody has: each try is refused 401), so the owner's own minute is not spent.
  const tryLogin = () =>
    fetch(`${editor.url}/rest/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'browser-id': 'igdata-rules-logins' },
      body: JSON.stringify({ emailOrLdapLoginId: 'nobody-rules@example.com', password: 'not-a-password-1' }),
    }).then((r) => r.status);
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) statuses.push(await tryLogin());
  expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  // The harness's session (what every suite of the run uses) still answers: it never logs in again.
  const me = await fetch(`${editor.url}/rest/login`, { headers: editor.headers });
  expect(me.status).toBe(200);
});
