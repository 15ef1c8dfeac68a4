/**
 * Executions refused or stopped, in a real n8n (2.8.4, and 2.41.1 in the jest project n8n-newest)
 * against the sandbox, as n8n-real.test.ts runs them: an invalid item stops the execution before
 * the first request; Loop Over Items shares one credit cap; the default cap refuses 1,500 lookups;
 * a balance that runs out mid-run keeps every paid answer.
 */
import type { N8nWorld } from './setup';
import { rt, setupN8n, teardownN8n } from './setup';
import { chain, code, ig, manual, out } from './workflows';

jest.setTimeout(300_000);

let world: N8nWorld;
let sb: N8nWorld['sb'];
let home: N8nWorld['home'];
let apiKey: string;

beforeAll(async () => {
  world = await setupN8n();
  ({ sb, home, apiKey } = world);
});
afterAll(() => teardownN8n(world));

test('one blank handle among 100, no Continue On Fail: the execution stops before the first request, naming the item and the field', async () => {
  const handles = Array.from({ length: 100 }, (_, i) => (i === 63 ? ' ' : `someone_${i}`));
  sb.resetStats();
  const r = await rt.runWorkflow(
    home,
    chain([
      code(`return ${JSON.stringify(handles)}.map((who) => ({ json: { who } }));`),
      ig('Lookup', { resource: 'profile', operation: 'profile', handle: '={{ $json.who }}' }),
    ]),
  );
  expect(r.ok).toBe(false);
  const error = r.run?.data?.resultData?.error;
  expect(error.message).toBe(
    'Item 63 of 100: handle must be a username, @username, numeric id or profile URL; got an empty value. (Not charged.)',
  );
  expect(error.context?.itemIndex).toBe(63);
  expect(sb.stats()).toMatchObject({ total: 0, creditsBilled: 0 });

  const bad = await rt.runWorkflow(
    home,
    chain([
      ig('Lookup', { resource: 'profileInsight', operation: 'insights/profile/engagement', handle: 'nasa', posts: 99 }),
    ]),
  );
  expect(bad.run?.data?.resultData?.error?.message).toBe(
    'posts must be a whole number from 1 to 50; got 99. (Not charged.)',
  );
});

test('Loop Over Items: 300 distinct lookups in batches of 100 under a Credit Cap of 150 spend 100 credits; the second batch is refused, saying where it stopped', async () => {
  sb.resetStats();
  const loop = {
    id: 'l1',
    name: 'Loop',
    type: 'n8n-nodes-base.splitInBatches',
    typeVersion: 3,
    position: [400, 0],
    parameters: { batchSize: 100, options: {} },
  };
  const lookup = ig('Lookup', {
    resource: 'profile',
    operation: 'profile',
    handle: '={{ $json.who }}',
    options: { creditCap: 150 },
  });
  const r = await rt.runWorkflow(home, {
    name: 'igdata loop test',
    nodes: [
      manual,
      code(`return Array.from({ length: 300 }, (_, i) => ({ json: { who: 'someone_' + i } }));`),
      loop,
      lookup,
    ],
    connections: {
      Start: { main: [[{ node: 'Input', type: 'main', index: 0 }]] },
      Input: { main: [[{ node: 'Loop', type: 'main', index: 0 }]] },
      Loop: { main: [[], [{ node: 'Lookup', type: 'main', index: 0 }]] },
      Lookup: { main: [[{ node: 'Loop', type: 'main', index: 0 }]] },
    },
  });
  expect(r.ok).toBe(false);
  expect(r.run?.data?.resultData?.error?.message).toBe(
    "Not started at this node's run 2: 100 distinct lookups would cost ~100 credits, and 1 earlier run of this node in this execution spent 100 credits of its credit cap of 150. " +
      'Raise Options > Credit Cap to at least 200 (0 for no cap). Nothing was sent. (Not charged.)',
  );
  expect(sb.stats()).toMatchObject({ byEndpoint: { profile: 100 }, creditsBilled: 100 });
  // The first batch's answers went on through the loop (n8n keeps them in the node's first run).
  expect(rt.nodeOutput(r.run, 'Lookup', { full: true, runIndex: 0 })).toHaveLength(100);
});

test('1,500 distinct lookups at the default Credit Cap: the execution fails with the refusal before any request, nothing billed', async () => {
  sb.resetStats();
  const r = await rt.runWorkflow(
    home,
    chain([
      code(`return Array.from({ length: 1500 }, (_, i) => ({ json: { who: 'someone_' + i } }));`),
      ig('Lookup', { resource: 'profile', operation: 'profile', handle: '={{ $json.who }}' }),
    ]),
  );
  expect(r.ok).toBe(false);
  expect(r.run?.data?.resultData?.error?.message).toBe(
    'Not started: 1,500 distinct lookups would cost ~1,500 credits, over the credit cap of 1,000. Raise Options > Credit Cap to at least 1,500 (0 for no cap). ' +
      'Nothing was sent. (Not charged.)',
  );
  expect(sb.stats()).toMatchObject({ total: 0, creditsBilled: 0 });
  expect(JSON.stringify(r.run)).not.toContain(apiKey);
});

test('a balance that runs out mid-run: the execution succeeds with every paid answer, a warning hint and _notice on the last item', async () => {
  const poorKey = sb.createKey(8);
  await rt.importCredentials(home, [
    {
      id: 'igPoorKeyCred01',
      name: 'IG Data (8 credits)',
      type: 'igDataApi',
      data: { apiKey: poorKey, baseUrl: sb.url },
    },
  ]);
  const names = [...sb.world.byUsername.values()]
    .filter((a) => !a.is_private)
    .map((a) => a.username)
    .slice(0, 10);
  sb.resetStats();
  const r = await rt.runWorkflow(
    home,
    chain([
      code(`return ${JSON.stringify(names)}.map((who) => ({ json: { who } }));`),
      ig(
        'Lookup',
        { resource: 'profile', operation: 'profile', handle: '={{ $json.who }}' },
        { credentials: { igDataApi: { id: 'igPoorKeyCred01', name: 'IG Data (8 credits)' } } },
      ),
    ]),
  );
  expect(r.error).toBeUndefined();
  const items = out(r, 'Lookup');
  expect(sb.stats()).toMatchObject({ creditsBilled: 8, byStatus: { 200: 8, 402: 2 } }); // 10 lookups: below the balance check
  expect(items).toHaveLength(8);
  const notice =
    'Stopped after 8 of 10 lookups: your credit balance is empty. 8 credits spent; 8 items delivered, 2 not looked up. Top up, then run again for the items not looked up.';
  expect(items.at(-1)!.json._notice).toBe(notice);
  expect(r.run?.data?.resultData?.runData?.Lookup?.[0]?.hints).toEqual([
    { message: notice, type: 'warning', location: 'outputPane' },
  ]);
  expect(JSON.stringify(r.run)).not.toContain(poorKey);
});
