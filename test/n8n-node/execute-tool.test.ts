/**
 * The node as an AI agent's tool (the igDataTool type), in its execute() in-process against the
 * sandbox (execute-kit.ts): per-call outcomes are the tool's answer; the plain node still fails.
 */
import { execute, lookups, sb, useSandbox } from './execute-kit';

useSandbox();

describe("as an AI agent's tool (the igDataTool type; end to end in real n8n: n8n-agent.test.ts)", () => {
  const tool = 'n8n-nodes-igdata.igDataTool';
  test("a cap refusal, an input error and an empty balance are the tool's answer, with Continue On Fail's sentences and codes; earlier calls' answers stand", async () => {
    const execution = {};
    const call = (handle: string, key = sb.demoKey) =>
      execute({
        inputs: [handle],
        parameters: { ...lookups, options: { creditCap: 1 } },
        key,
        continueOnFail: false,
        execution,
        type: tool,
      });
    expect((await call('nasa')).out.map((o) => o.json.username)).toEqual(['nasa']);
    const refused = await call('natgeo');
    expect(refused.out.map((o) => o.json)).toEqual([
      {
        error:
          "Not started at this node's run 2: 1 distinct lookup would cost ~1 credit, and 1 earlier run of this node in this execution spent 1 credit of its credit cap of 1. " +
          'Raise Options > Credit Cap to at least 2 (0 for no cap). Nothing was sent. (Not charged.)',
        code: 'credit_cap',
        credits_charged: 0,
      },
    ]);
    expect((await call('')).out.map((o) => o.json)).toEqual([
      {
        error: 'handle must be a username, @username, numeric id or profile URL; got an empty value. (Not charged.)',
        code: 'invalid_input',
        credits_charged: 0,
      },
    ]);
    const empty = await execute({
      inputs: ['nasa'],
      parameters: lookups,
      key: sb.createKey(0),
      continueOnFail: false,
      type: tool,
    });
    expect(empty.out.map((o) => o.json)).toEqual([
      expect.objectContaining({
        error: 'Out of credits: 0 left. Top up to continue. (Not charged.)',
        credits_charged: 0,
      }),
    ]);
    expect(sb.stats().creditsBilled).toBe(1);
  });

  test('the same calls on the plain node (igData) still fail the execution', async () => {
    await expect(
      execute({ inputs: [''], parameters: lookups, key: sb.demoKey, continueOnFail: false }),
    ).rejects.toMatchObject({ name: 'NodeOperationError' });
  });
});
