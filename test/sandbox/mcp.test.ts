/**
 * The sandbox's MCP server (/mcp, spec §5 item 5) through the official MCP TypeScript SDK's client
 * over Streamable HTTP: one tool per registry endpoint, inputs = query parameters, the REST
 * envelope as the result, errors with the §7 codes, billing identical to REST.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { buildOpenApi, costSentence, endpoints, estimateCost, normalizeParams, pathOf } from '@igdata/core';
import { startSandbox, type Sandbox } from '../../scripts/sandbox/server';
import { TEST_START } from '../support/clock';
import { validInput } from '../support/testkit';

let sb: Sandbox;
const open: Client[] = [];
beforeAll(async () => {
  sb = await startSandbox({ startAt: TEST_START, seed: 42 });
});
afterAll(async () => {
  for (const c of open) await c.close();
  await sb.close();
});

async function mcp(headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'igdata-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(sb.mcpUrl), { requestInit: { headers } }));
  open.push(client);
  return client;
}
const bearer = (key: string) => mcp({ Authorization: `Bearer ${key}` });

interface Envelope {
  data?: Record<string, unknown> & { items?: Record<string, unknown>[]; next_cursor?: string | null };
  error?: { code: string; message: string; parameter?: string; reason?: string };
  meta: Record<string, unknown>;
}
async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const env = r.structuredContent as unknown as Envelope;
  // The text block is the same envelope, for clients that read text only.
  expect(r.content).toHaveLength(1);
  expect(JSON.parse((r.content[0] as { text: string }).text)).toEqual(env);
  return { isError: r.isError === true, env };
}

test('tools/list: exactly one tool per registry endpoint, named after its path, inputs = its query parameters', async () => {
  const { tools } = await (await mcp()).listTools();
  const operations = buildOpenApi(sb.url).paths as Record<
    string,
    {
      get: {
        summary: string;
        description: string;
        parameters: { name: string; description: string; schema: object }[];
      };
    }
  >;
  expect(tools).toHaveLength(endpoints.length);
  expect(tools.map((t) => t.name)).toEqual(endpoints.map((e) => e.id.replace(/\//g, '_')));
  expect(tools.find((t) => t.name === 'profile_posts')).toBeDefined();
  for (const e of endpoints) {
    const tool = tools.find((t) => t.name === e.id.replace(/\//g, '_'))!;
    const props = tool.inputSchema.properties as Record<
      string,
      { type: string; minimum?: number; maximum?: number; default?: unknown }
    >;
    expect([e.id, Object.keys(props ?? {})]).toEqual([e.id, e.params.map((p) => p.name)]);
    expect([e.id, tool.inputSchema.required ?? []]).toEqual([
      e.id,
      e.params.filter((p) => p.required).map((p) => p.name),
    ]);
    for (const p of e.params) {
      if (p.kind === 'integer')
        expect(props[p.name]).toMatchObject({ type: 'integer', minimum: p.min, maximum: p.max, default: p.default });
      else expect(props[p.name].type).toBe('string');
    }
    // The tool says what the REST operation of /openapi.json says (the registry's text), with the price.
    const op = operations[pathOf(e)].get;
    expect(tool.title).toBe(op.summary);
    expect(tool.description).toBe(op.description);
    expect(tool.description).toContain(costSentence(e));
    for (const p of op.parameters) expect(props[p.name]).toMatchObject({ ...p.schema, description: p.description });
  }
  const engagement = tools.find((t) => t.name === 'insights_profile_engagement')!;
  expect(engagement.inputSchema.properties).toMatchObject({
    posts: { type: 'integer', minimum: 1, maximum: 50, default: 12 },
  });
  expect(sb.stats().total).toBe(0); // listing is no API request
});

test('a tool call answers the REST envelope {data, meta} with meta.credits_remaining, billed at the endpoint price', async () => {
  const key = sb.createKey(100);
  const client = await bearer(key);
  const profile = await call(client, 'profile', { handle: '@NASA' });
  expect(profile.isError).toBe(false);
  expect(profile.env.data).toMatchObject({ username: 'nasa', is_verified: true });
  expect(profile.env.meta).toMatchObject({ endpoint: 'profile', credits_charged: 1, credits_remaining: 99 });
  const engagement = await call(client, 'insights_profile_engagement', { handle: 'nasa', posts: 50 });
  expect(engagement.env.meta).toMatchObject({
    endpoint: 'insights/profile/engagement',
    credits_charged: 6,
    credits_remaining: 93,
  });
  expect(engagement.env.data).toMatchObject({ username: 'nasa', posts_analyzed: 50 });
  const credits = await call(client, 'credits');
  expect(credits.env).toMatchObject({ data: { credits_remaining: 93 }, meta: { credits_charged: 0 } });
  expect(sb.balance(key)).toBe(93);
  // x-api-key is the other form of the same key (§5 item 1)
  const viaHeader = await call(await mcp({ 'x-api-key': key }), 'profile', { handle: 'natgeo' });
  expect(viaHeader.env.meta.credits_remaining).toBe(92);
});

test('a paged list: next_cursor out, cursor in, the same pages as REST', async () => {
  const client = await bearer(sb.demoKey);
  const p1 = await call(client, 'profile_posts', { handle: 'nasa' });
  const cursor = p1.env.data!.next_cursor;
  expect(typeof cursor).toBe('string');
  expect(cursor).toMatch(/[+/=]/); // opaque, with characters a client must carry unchanged
  const p2 = await call(client, 'profile_posts', { handle: 'nasa', cursor });
  const rest = await (
    await fetch(`${sb.url}/v1/profile/posts?handle=nasa&cursor=${encodeURIComponent(cursor!)}`, {
      headers: { 'x-api-key': sb.demoKey },
    })
  ).json();
  expect(p2.env.data!.items!.map((p) => p.id)).toEqual(rest.data.items.map((p: { id: string }) => p.id));
  expect(p2.env.data!.items![0].id).not.toBe(p1.env.data!.items![0].id);
  const bad = await call(client, 'profile_posts', { handle: 'nasa', cursor: 'v1+bm9wZQ==' });
  expect(bad).toMatchObject({ isError: true, env: { error: { code: 'missing_parameter', parameter: 'cursor' } } });
});

test('failures are tool errors carrying the §7 code, billed as REST bills them', async () => {
  const key = sb.createKey(10);
  const client = await bearer(key);
  const missing = await call(client, 'profile', {});
  expect(missing).toMatchObject({
    isError: true,
    env: { error: { code: 'missing_parameter', parameter: 'handle' }, meta: { credits_charged: 0 } },
  });
  const range = await call(client, 'insights_profile_engagement', { handle: 'nasa', posts: 99 });
  expect(range).toMatchObject({ isError: true, env: { error: { code: 'missing_parameter', parameter: 'posts' } } });
  expect(range.env.error!.message).toMatch(/posts must be a whole number from 1 to 50/);
  expect(sb.balance(key)).toBe(10);
  const notFound = await call(client, 'profile', { handle: 'locked_acc' });
  expect(notFound).toMatchObject({
    isError: true,
    env: {
      error: { code: 'not_found', reason: 'private_account' },
      meta: { credits_charged: 1, credits_remaining: 9 },
    },
  });
  expect(sb.balance(key)).toBe(9);

  const stranger = await call(await bearer('sk_sandbox_notakey123'), 'profile', { handle: 'nasa' });
  expect(stranger).toMatchObject({
    isError: true,
    env: { error: { code: 'invalid_api_key' }, meta: { credits_charged: 0 } },
  });
  const anonymous = await call(await mcp(), 'profile', { handle: 'nasa' });
  expect(anonymous.env.error).toMatchObject({
    code: 'invalid_api_key',
    message: expect.stringContaining('No API key'),
  });
  expect(JSON.stringify(stranger.env)).not.toContain('sk_sandbox_notakey123'); // the key is never echoed

  const poor = sb.createKey(3);
  const broke = await call(await bearer(poor), 'insights_profile_engagement', { handle: 'nasa', posts: 50 });
  expect(broke).toMatchObject({
    isError: true,
    env: { error: { code: 'insufficient_credits' }, meta: { credits_charged: 0, credits_remaining: 3 } },
  });
  expect(sb.balance(poor)).toBe(3);
});

test('fault injection applies to tool calls as to REST: x-sandbox-fault, sandbox-wide faults; never billed', async () => {
  const key = sb.createKey(10);
  const faulted = await call(await mcp({ Authorization: `Bearer ${key}`, 'x-sandbox-fault': '502' }), 'profile', {
    handle: 'nasa',
  });
  expect(faulted).toMatchObject({
    isError: true,
    env: { error: { code: 'upstream_error' }, meta: { credits_charged: 0 } },
  });
  const client = await bearer(key);
  sb.setFaults({ faultRate: 1, faultStatus: 504 });
  try {
    expect((await call(client, 'profile', { handle: 'nasa' })).env.error!.code).toBe('upstream_timeout');
  } finally {
    sb.setFaults({ faultRate: 0 });
  }
  expect(sb.balance(key)).toBe(10);
  expect((await call(client, 'profile', { handle: 'nasa' })).env.meta.credits_remaining).toBe(9);
});

test('an unknown tool is a protocol error that names the closest tool', async () => {
  const client = await bearer(sb.demoKey);
  await expect(client.callTool({ name: 'profile_post', arguments: { handle: 'nasa' } })).rejects.toThrow(
    /Unknown tool "profile_post"\. Did you mean "profile_posts"\?/,
  );
});

test('billing, stats and envelope identical to REST for every endpoint (but request_id and ms)', async () => {
  const restKey = sb.createKey(1000);
  const mcpKey = sb.createKey(1000);
  const client = await bearer(mcpKey);
  const strip = (body: Envelope) => {
    const { request_id, ms, ...meta } = body.meta;
    expect(typeof request_id).toBe('string');
    expect(typeof ms).toBe('number');
    return { ...body, meta };
  };
  for (const e of endpoints) {
    const input = validInput(e, sb.world);
    sb.resetStats();
    const rest = await fetch(`${sb.url}/v1/${e.id}?${new URLSearchParams(input)}`, {
      headers: { authorization: `Bearer ${restKey}` },
    });
    expect([e.id, rest.status]).toEqual([e.id, 200]);
    const restBody = (await rest.json()) as Envelope;
    const restStats = sb.stats();
    sb.resetStats();
    const viaMcp = await call(client, e.id.replace(/\//g, '_'), input);
    const mcpStats = sb.stats();
    expect([e.id, viaMcp.isError]).toEqual([e.id, false]);
    // Media links too: the same links, on the address this client reaches the sandbox at.
    expect(strip(viaMcp.env)).toEqual(strip(restBody));
    expect(viaMcp.env.meta.credits_charged).toBe(estimateCost(e, normalizeParams(e, input)).credits);
    expect(sb.balance(mcpKey)).toBe(sb.balance(restKey));
    expect({ ...mcpStats, mcpCalls: 0 }).toEqual(restStats);
    expect(mcpStats.mcpCalls).toBe(1);
  }
});

test('GET /mcp (no standalone stream: the server is stateless) answers 405; CORS preflight is allowed', async () => {
  const get = await fetch(sb.mcpUrl, { headers: { accept: 'text/event-stream' } });
  expect(get.status).toBe(405);
  expect(get.headers.get('allow')).toContain('POST');
  const pre = await fetch(sb.mcpUrl, { method: 'OPTIONS' });
  expect(pre.status).toBe(204);
  expect(pre.headers.get('access-control-allow-headers')).toContain('authorization');
});
