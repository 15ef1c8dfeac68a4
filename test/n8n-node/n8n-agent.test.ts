/**
 * The node as an AI agent's tool, end to end in a real n8n (2.8.4, and 2.41.1 in the jest project
 * n8n-newest): n8n's AI Agent with its OpenAI Chat Model, the credential's Base URL at our model
 * stub (test/support/model-stub.ts, which plays a scripted model), the `IG Data Tool` attached,
 * against the sandbox. Each tool call is one run of the node inside the agent's execution; one
 * that throws would end the whole execution, so every per-call outcome must come back to the
 * model as the tool's answer (n8n-node/nodes/IgData/outcome.ts, failuresAsItems).
 *
 * One execution holds the five agents (each n8n CLI call costs seconds), each with its own tool
 * node (its own Credit Cap) and its own sandbox key (what each was billed).
 */
import type { AnyIgError } from '@igdata/core';
import { findEndpoint, prepare } from '@igdata/core';
import { errorJson } from '../../n8n-node/nodes/IgData/output';
import type { ChatMessage, ModelStub } from '../support/model-stub';
import { startModelStub, textOf } from '../support/model-stub';
import type { N8nWorld } from './setup';
import { rt, setupN8n, teardownN8n } from './setup';

jest.setTimeout(300_000);

const FIVE = ['nasa', 'natgeo', 'nike', 'bbcnews', 'starbucks'];
// AI Agent 3.1 (the version n8n's editor adds) runs tool calls as the engine's requests: each a
// run of the tool node in the workflow's own execution. 2.2 (saved workflows of n8n 1.x) calls
// the tool inside its own run, through n8n-core's sub-node context: both must hold.
const CASES = {
  successive: { turns: FIVE.map((handle) => [{ handle }]), cap: 3, balance: 100, agent: 3.1 },
  parallel: { turns: [FIVE.map((handle) => ({ handle }))], cap: 3, balance: 100, agent: 3.1 },
  badInput: { turns: [[{ handle: '' }], [{ handle: 'https://twitter.com/nasa' }]], cap: 3, balance: 100, agent: 3.1 },
  // A private account (a billed 404), then a balance that is empty.
  notFoundThenEmpty: { turns: [[{ handle: 'locked_acc' }], [{ handle: 'nasa' }]], cap: 3, balance: 1, agent: 3.1 },
  olderAgent: { turns: FIVE.map((handle) => [{ handle }]), cap: 3, balance: 100, agent: 2.2 },
};
type Case = keyof typeof CASES;

let world: N8nWorld;
let model: ModelStub;
const keys = {} as Record<Case, string>;
let r: Awaited<ReturnType<typeof rt.runWorkflow>>;

/** Start -> one AI Agent per case, each with the stub as its model and its own IG Data Tool. */
function workflow(credentials: Record<Case, { id: string; name: string }>) {
  const nodes: Record<string, unknown>[] = [
    {
      id: 'start',
      name: 'Start',
      type: 'n8n-nodes-base.manualTrigger',
      typeVersion: 1,
      position: [0, 0],
      parameters: {},
    },
  ];
  const connections: Record<string, any> = { Start: { main: [[]] } };
  (Object.keys(CASES) as Case[]).forEach((c, k) => {
    const agent = `Agent ${c}`;
    nodes.push(
      {
        id: `agent-${c}`,
        name: agent,
        type: '@n8n/n8n-nodes-langchain.agent',
        typeVersion: CASES[c].agent,
        position: [300, 300 * k],
        parameters: {
          promptType: 'define',
          text: `Case ${c}: look these accounts up. SCRIPT: ${JSON.stringify({ turns: CASES[c].turns })}`,
          options: {},
        },
      },
      {
        id: `model-${c}`,
        name: `Model ${c}`,
        type: '@n8n/n8n-nodes-langchain.lmChatOpenAi',
        // 1.2: Chat Completions (1.3 defaults to the Responses API, which the stub does not serve).
        typeVersion: 1.2,
        position: [200, 300 * k + 200],
        parameters: { model: { __rl: true, mode: 'id', value: 'stub-model' }, options: {} },
        credentials: { openAiApi: { id: 'stubModelCred01', name: 'model stub' } },
      },
      {
        id: `tool-${c}`,
        name: `IG ${c}`,
        type: 'n8n-nodes-igdata.igDataTool',
        typeVersion: 1,
        position: [400, 300 * k + 200],
        // Handle left out: the tool variant's default lets the model define it ($fromAI, fields.ts).
        parameters: { resource: 'profile', operation: 'profile', options: { creditCap: CASES[c].cap } },
        credentials: { igDataApi: credentials[c] },
      },
    );
    connections.Start.main[0].push({ node: agent, type: 'main', index: 0 });
    connections[`Model ${c}`] = { ai_languageModel: [[{ node: agent, type: 'ai_languageModel', index: 0 }]] };
    connections[`IG ${c}`] = { ai_tool: [[{ node: agent, type: 'ai_tool', index: 0 }]] };
  });
  return { name: 'igdata agent', nodes, connections, settings: { executionOrder: 'v1' } };
}

beforeAll(async () => {
  world = await setupN8n();
  model = await startModelStub();
  const credentials = {} as Record<Case, { id: string; name: string }>;
  const list = (Object.keys(CASES) as Case[]).map((c, k) => {
    keys[c] = world.sb.createKey(CASES[c].balance);
    credentials[c] = { id: `igAgentCase0${k}`, name: `IG Data ${c}` };
    return { ...credentials[c], type: 'igDataApi', data: { apiKey: keys[c], baseUrl: world.sb.url } };
  });
  await rt.importCredentials(world.home, [
    ...list,
    // The stub takes any key; this one is not a secret of ours.
    { id: 'stubModelCred01', name: 'model stub', type: 'openAiApi', data: { apiKey: 'sk-stub', url: model.url } },
  ]);
  r = await rt.runWorkflow(world.home, workflow(credentials));
});
afterAll(async () => {
  await model?.close();
  await teardownN8n(world);
});

/** The model's requests of one agent (its script names its case), in order. */
const requestsOf = (c: Case) =>
  model.requests.filter((q) =>
    textOf(q.body.messages.find((m) => m.role === 'user')?.content).startsWith(`Case ${c}:`),
  );
/** What each tool call answered, as the model received it (the last request holds them all). */
const toolAnswers = (c: Case): Record<string, any>[][] =>
  (requestsOf(c).at(-1)?.body.messages ?? [])
    .filter((m: ChatMessage) => m.role === 'tool')
    .map((m) => JSON.parse(textOf(m.content)));
const billed = (c: Case) => CASES[c].balance - world.sb.balance(keys[c]);
const agentAnswer = (c: Case) => String(rt.nodeOutput(r.run, `Agent ${c}`)?.[0]?.output ?? '');

test('the execution ends normally and every agent answers with what its tools returned', () => {
  expect(r.error).toBeUndefined();
  expect(r.ok).toBe(true);
  for (const c of Object.keys(CASES) as Case[]) {
    expect(agentAnswer(c)).toMatch(/^TOOL RESULTS: /);
    expect(JSON.parse(agentAnswer(c).replace('TOOL RESULTS: ', ''))).toHaveLength(CASES[c].turns.flat().length);
  }
});

test.each(['successive', 'parallel', 'olderAgent'] as Case[])(
  'Credit Cap 3, the model asks for 5 profiles (%s tool calls): 3 answers and 2 refusals reach the model, 3 credits billed',
  (c) => {
    const answers = toolAnswers(c);
    expect(answers).toHaveLength(5);
    expect(answers.every((a) => a.length === 1)).toBe(true);
    // Each tool call is one item: the profile asked for, or the refusal with its code and what it cost.
    const outcomes = answers.map(([item], i) =>
      item.error ? 'refused' : item.username === FIVE[i] ? 'answered' : `another profile: ${item.username}`,
    );
    // Successive calls: the first three. One turn's parallel calls run one after another in an order
    // that is n8n's (2.8.4 runs them last first, 2.41.1 first first): any three.
    if (c === 'parallel')
      expect([...outcomes].sort()).toEqual(['answered', 'answered', 'answered', 'refused', 'refused']);
    else expect(outcomes).toEqual(['answered', 'answered', 'answered', 'refused', 'refused']);
    const refused = answers.filter(([item]) => item.error).map(([item]) => item);
    for (const refusal of refused) {
      expect(refusal).toEqual({ error: expect.any(String), code: 'credit_cap', credits_charged: 0 });
      expect(refusal.error).toMatch(/spent 3 credits of its credit cap of 3\. Raise Options > Credit Cap/);
      expect(refusal.error).toMatch(/Nothing was sent\. \(Not charged\.\)$/);
    }
    expect(billed(c)).toBe(3);
    // The model saw each answer in the turn after the call (parallel: all five at once).
    expect(requestsOf(c)).toHaveLength(CASES[c].turns.length + 1);
  },
);

test("an empty handle and another site's URL reach the model as error texts (the same sentences), nothing billed", () => {
  // The item the node gives for it under Continue On Fail: core's sentence and code (output.ts).
  const sentence = (handle: string) => {
    try {
      prepare(findEndpoint('profile')!, { handle });
    } catch (e) {
      return errorJson(e as AnyIgError);
    }
    throw new Error(`${handle} was accepted`);
  };
  const [empty, otherSite] = toolAnswers('badInput');
  expect(empty).toEqual([sentence('')]);
  expect(otherSite).toEqual([sentence('https://twitter.com/nasa')]);
  expect(otherSite[0].error).toMatch(/\(Not charged\.\)$/);
  expect(billed('badInput')).toBe(0);
});

test('a private account and an empty balance reach the model as answers: what the API said and what it cost', () => {
  const [locked, broke] = toolAnswers('notFoundThenEmpty');
  expect(locked).toEqual([
    expect.objectContaining({ found: false, handle: 'locked_acc', code: 'not_found', credits_charged: 1 }),
  ]);
  expect(locked[0].message).toMatch(/no public data.*\(Charged 1 credit\.\)$/);
  expect(broke).toEqual([expect.objectContaining({ code: expect.any(String), credits_charged: 0 })]);
  expect(broke[0].error).toMatch(/^Out of credits: 0 left\. Top up to continue\. \(Not charged\.\)$/);
  expect(billed('notFoundThenEmpty')).toBe(1);
});

test("the model's schema says what a handle may be; the API key is in no message the model receives", () => {
  const first = requestsOf('successive')[0].body;
  const handle = first.tools?.[0].function.parameters?.properties?.handle;
  expect(handle).toMatchObject({ type: 'string' });
  expect(handle.description).toMatch(/@username/);
  expect(handle.description).toMatch(/profile URL/);
  expect(handle.description).toMatch(/numeric user id/);
  // The tool's description: what the operation does, returns and costs (operations.ts).
  expect(first.tools?.[0].function.description).toMatch(/Cost: 1 credit/);
  const everything = JSON.stringify(model.requests);
  for (const key of [world.apiKey, ...Object.values(keys)]) expect(everything).not.toContain(key);
});
