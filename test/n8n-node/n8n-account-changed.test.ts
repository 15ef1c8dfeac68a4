/**
 * The trigger's "Account Changed" event in real n8n (2.8.4; 2.41.1 in the n8n-newest project):
 * a simulated week of the moving sandbox, one poll (scripts/n8n-harness pollOnce: an activation of
 * the published workflow, its state in the home's database between polls) every 12 hours of the
 * sandbox's world, steps placed by the sandbox's control. "Check at Most Every" is 0 for the week
 * (every poll checks: the polls are the checks the setting allows, as n8n's Poll Times would make
 * them every 12 hours); n8n's own clock cannot be moved from here, so the period's arithmetic over
 * a week is change-trigger.test.ts's (in-process, clock simulated), and here a period of a year
 * after a check sends nothing. It fires once per crossing, with before, after and the change, and
 * the credits billed are the checks x accounts x the price its description says.
 */
import type { N8nWorld } from './setup';
import { CRED, rt, setupN8n, teardownN8n } from './setup';
import { IgDataTrigger } from '../../n8n-node/nodes/IgData/IgDataTrigger.node';
import { TEST_START } from '../support/clock';

jest.setTimeout(300_000);

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = Date.parse(TEST_START);
const NODE = 'Followers fell';

let world: N8nWorld;
beforeAll(async () => {
  world = await setupN8n();
});
afterAll(() => teardownN8n(world));

type Item = Record<string, any>;
const workflow = (checkEvery: number) => ({
  id: 'wfAccountChanged01',
  name: 'igdata account changed test',
  nodes: [
    {
      id: 'c1',
      name: NODE,
      type: 'n8n-nodes-igdata.igDataTrigger',
      typeVersion: 1,
      position: [0, 0],
      parameters: {
        event: 'change',
        accounts: 'nasa, natgeo, nike',
        measure: 'followers',
        comparison: 'down',
        threshold: 5,
        baseline: 'previous',
        checkEvery,
        checkEveryUnit: 'hours',
      },
      credentials: { igDataApi: CRED },
    },
  ],
  connections: {},
});
const emitted = (r: { executions: { items?: Item[] }[] }): Item[] => r.executions.flatMap((e) => e.items ?? []);

function describedProfilePrice(): number {
  const event = new IgDataTrigger().description.properties.find((p) => p.name === 'event')!;
  const change = event.options!.find((o) => 'value' in o && o.value === 'change') as { description: string };
  return Number(/\(profile\): (\d+) credits?/.exec(change.description)![1]);
}

test('a simulated week, a check every 12 hours: one item per crossing the steps made, billed as described; a check within the period sends nothing', async () => {
  const { sb, home, apiKey } = world;
  const steps = [
    { handle: 'nasa', change: -0.1, at: T0 + DAY + 3 * HOUR },
    { handle: 'nasa', change: 0.15, at: T0 + 2 * DAY },
    { handle: 'nike', change: -0.03, at: T0 + 3 * DAY },
    { handle: 'nasa', change: -0.08, at: T0 + 4 * DAY + 7 * HOUR },
    { handle: 'natgeo', change: -0.2, at: T0 + 5 * DAY + 13 * HOUR },
  ];
  for (const s of steps) sb.step({ ...s, measure: 'followers' });
  sb.resetStats();
  const items: Item[] = [];
  let id: string | undefined;
  let polls = 0;
  for (let t = T0; t <= T0 + 7 * DAY; t += 12 * HOUR) {
    sb.clock.moveTo(t);
    const r = await rt.pollOnce(home, id ?? workflow(0));
    id = r.id;
    polls++;
    expect(r.activationError).toBeUndefined();
    expect(r.executions.every((e: { status: string }) => e.status === 'success')).toBe(true);
    for (const item of emitted(r)) items.push({ ...item, polledAt: new Date(t).toISOString() });
    expect(JSON.stringify(r.executions) + r.output).not.toContain(apiKey);
  }
  expect(polls).toBe(15);
  const firstPollAfter = (at: number) => new Date(T0 + Math.ceil((at - T0) / (12 * HOUR)) * 12 * HOUR).toISOString();
  expect(items.map((i) => [i.account, i.polledAt])).toEqual([
    ['nasa', firstPollAfter(steps[0].at)],
    ['nasa', firstPollAfter(steps[3].at)],
    ['natgeo', firstPollAfter(steps[4].at)],
  ]);
  for (const i of items) {
    expect(i).toMatchObject({ rule: 'followers down 5% since the previous check', measure: 'followers' });
    expect(i.change).toBe(i.after - i.before);
    expect(i.change_pct).toBeLessThan(-5);
  }
  const price = describedProfilePrice();
  expect(sb.stats().creditsBilled).toBe(polls * 3 * price);

  // At most one check a year: the check just made is in this period, so the next poll sends nothing.
  const state = (await rt.getStaticData(home, id!))[`node:${NODE}`]?.change;
  expect(state?.rule).toBe('followers down 5% since the previous check');
  sb.resetStats();
  sb.clock.moveTo(T0 + 7 * DAY + 12 * HOUR);
  const gated = await rt.pollOnce(home, workflow(24 * 365));
  expect(gated.id).toBe(id);
  expect(emitted(gated)).toEqual([]);
  expect(sb.stats().total).toBe(0);
  expect((await rt.getStaticData(home, id!))[`node:${NODE}`]?.change).toEqual(state);
});
