/**
 * The node as an AI agent's tool in a real n8n (2.8.4, and 2.41.1 in the jest project n8n-newest),
 * headless, against the sandbox in this jest process, with no language model:
 * - the tool definitions n8n builds from the built node, with n8n's own code
 *   (NodeTypes.getByNameAndVersion of the "...Tool" type, the Workflow's defaults, n8n-core's
 *   createNodeAsTool, as an AI Agent's tools are made);
 * - n8n's MCP Client node calling a tool of the sandbox's MCP server at /mcp.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeCost, documentedEndpoints } from '@igdata/core';
import type { N8nWorld } from './setup';
import { root, rt, setupN8n, teardownN8n } from './setup';
import { chain, out } from './workflows';

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

describe('as an AI agent tool: the definitions n8n builds from the node', () => {
  // Runs inside the installed n8n (its own node binary and packages): n8n's NodeTypes gives the
  // "igDataTool" type as at execution, a Workflow fills the node's defaults (Tool Description:
  // "Set Automatically"), and n8n-core's createNodeAsTool makes the LangChain tool an AI Agent gets.
  const SCRIPT = `
    const path = require('node:path');
    const [runtimeDir, packageDir] = process.argv.slice(2);
    const nm = path.join(runtimeDir, 'node_modules');
    const { Workflow, NodeHelpers } = require(path.join(nm, 'n8n-workflow'));
    const { NodeTypes } = require(path.join(nm, 'n8n/dist/node-types.js'));
    const { createNodeAsTool } = require(path.join(nm, 'n8n-core/dist/execution-engine/node-execution-context/utils/create-node-as-tool.js'));
    const { IgData } = require(path.join(packageDir, 'dist/nodes/IgData/IgData.node.js'));
    const TYPE = 'n8n-nodes-igdata.igData';
    const base = new IgData();
    // What n8n's loader answers for our package's node (the rest of NodeTypes is n8n's own code).
    const loader = {
      recognizesNode: (name) => name === TYPE,
      getNode: (name) => { if (name !== TYPE) throw new Error('unknown node ' + name); return { type: base, sourcePath: '' }; },
      loadedNodes: {}, knownNodes: {},
    };
    const logger = { debug() {}, info() {}, warn() {}, error() {} };
    const nodeTypes = NodeTypes.length >= 2 ? new NodeTypes(logger, loader) : new NodeTypes(loader);
    const toolType = nodeTypes.getByNameAndVersion(TYPE + 'Tool', 1);
    const tools = [];
    for (const prop of base.description.properties.filter((p) => p.name === 'operation')) {
      const resource = prop.displayOptions.show.resource[0];
      for (const o of prop.options) {
        const node = { id: 'n1', name: 'IG Data', type: TYPE + 'Tool', typeVersion: 1, position: [0, 0], parameters: { resource, operation: o.value } };
        const wf = new Workflow({ id: 'w1', nodes: [node], connections: {}, active: false, nodeTypes });
        const filled = wf.getNode('IG Data');
        const { response: tool } = createNodeAsTool({ node: filled, nodeType: toolType, handleToolInvocation: async () => '' });
        const schema = Object.fromEntries(Object.entries(tool.schema.shape).map(([k, v]) => [k, v.description ?? '']));
        tools.push({ operation: o.value, name: tool.name, description: tool.description, descriptionType: filled.parameters.descriptionType, nodeName: NodeHelpers.makeNodeName(filled.parameters, toolType.description), schema });
      }
    }
    process.stdout.write(JSON.stringify({ type: toolType.description.name, outputs: toolType.description.outputs, tools }));
  `;

  test("each operation's tool description says what it does, what it returns and what it costs (the registry's docs and price)", () => {
    const runtime = rt.runtime();
    // A copy of the package outside this repository, so it loads this n8n's n8n-workflow (NODE_PATH), as installed.
    const work = mkdtempSync(join(tmpdir(), 'igdata-tools-'));
    try {
      cpSync(join(root, 'n8n-node/dist'), join(work, 'pkg/dist'), { recursive: true });
      writeFileSync(join(work, 'tools.cjs'), SCRIPT);
      const r = spawnSync(runtime.nodeBin, [join(work, 'tools.cjs'), runtime.dir, join(work, 'pkg')], {
        encoding: 'utf8',
        env: {
          ...process.env,
          PATH: runtime.pathEnv,
          NODE_PATH: join(runtime.dir, 'node_modules'),
          NODE_ENV: 'production',
        },
        maxBuffer: 16 * 1024 * 1024,
      });
      expect(r.stderr).toBe('');
      const built = JSON.parse(r.stdout) as {
        type: string;
        outputs: string[];
        tools: {
          operation: string;
          name: string;
          description: string;
          descriptionType: string;
          nodeName: string;
          /** The model's schema: each key the model must send, with its description. */
          schema: Record<string, string>;
        }[];
      };
      expect(built).toMatchObject({ type: 'igDataTool', outputs: ['ai_tool'] });
      expect(built.tools.map((t) => t.operation).sort()).toEqual(documentedEndpoints.map((e) => e.id).sort());
      for (const e of documentedEndpoints) {
        const tool = built.tools.find((t) => t.operation === e.id)!;
        const d = tool.description;
        expect(tool.descriptionType).toBe('auto');
        // The node keeps its name (skipNameGeneration), so the tool's name is the node's.
        expect([tool.nodeName, tool.name]).toEqual(['IG Data', 'IG_Data']);
        // What it does: the registry's description (docs.ts), its first clause word for word (price and paging get their own sentences).
        expect([e.id, d.startsWith(e.description.split(/[.,:;(]/)[0])]).toEqual([e.id, true]);
        // What it returns.
        expect([e.id, /\bReturns one item( per result(, page by page)?)?\./.test(d)]).toEqual([e.id, true]);
        expect(d.includes('per result')).toBe(e.shape === 'list');
        expect(d.includes('page by page')).toBe(e.paginated);
        // What it costs: the numbers of core's describeCost, per page when paged, said "free" when 0.
        const [numbers] = describeCost(e).replace(/^~/, '').split(' ');
        if (numbers === '0') expect(d).toMatch(/Cost: free \(no credits\) in IG Data$/);
        else
          expect([
            e.id,
            d.includes(`Cost: ${e.cost.type === 'flat' && !e.cost.exact ? 'about ' : ''}${numbers} credit`),
          ]).toEqual([e.id, true]);
        expect(d.includes(' per page')).toBe(describeCost(e).includes('per page'));
        expect(d.endsWith(' in IG Data')).toBe(true);
        // What the model must send, each with what it is (the registry's words) and, for a price
        // window, what it costs: the tool variant's $fromAI() defaults (fields.ts).
        const keys = Object.keys(tool.schema).sort();
        const wanted = e.params
          .filter((p) => p.required || (e.cost.type === 'window' && e.cost.param === p.name))
          .map((p) => p.name);
        if (e.shape === 'list' && e.paginated) wanted.push('limit');
        expect([e.id, keys]).toEqual([e.id, wanted.sort()]);
        for (const k of keys) expect([e.id, k, tool.schema[k].length > 20]).toEqual([e.id, k, true]);
        if (e.cost.type === 'window') expect(tool.schema[e.cost.param]).toMatch(/Cost: \d+ credits at \d+/);
      }
      expect(built.tools.find((t) => t.operation === 'profile')!.schema).toEqual({
        handle:
          'Account as username, @username, numeric user id or profile URL (e.g. nasa, @nasa or https://www.instagram.com/nasa/).',
      });
      const engagement = built.tools.find((t) => t.operation === 'insights/profile/engagement')!;
      expect(engagement.description).toBe(
        "Compute an account's engagement rate: average likes plus comments per recent post divided by followers (engagement_rate_pct is the percentage). Returns one item. Cost: 2-6 credits, depending on how many posts are analyzed in IG Data",
      );
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});

test("n8n's MCP Client node calls a tool of the sandbox's MCP server (/mcp) without any model: same answer and bill as the REST call", async () => {
  await rt.importCredentials(home, [
    { id: 'igMcpBearerCred1', name: 'IG Data sandbox MCP', type: 'httpBearerAuth', data: { token: apiKey } },
  ]);
  sb.resetStats();
  const mcp = {
    id: 'mcp1',
    name: 'MCP Client',
    type: '@n8n/n8n-nodes-langchain.mcpClient',
    typeVersion: 1,
    position: [200, 0],
    parameters: {
      serverTransport: 'httpStreamable',
      endpointUrl: sb.mcpUrl,
      authentication: 'bearerAuth',
      tool: { __rl: true, mode: 'id', value: 'profile' },
      inputMode: 'json',
      jsonInput: '{ "handle": "@NASA" }',
      options: {},
    },
    credentials: { httpBearerAuth: { id: 'igMcpBearerCred1', name: 'IG Data sandbox MCP' } },
  };
  const r = await rt.runWorkflow(home, chain([mcp]));
  expect(r.error).toBeUndefined();
  const [item] = out(r, 'MCP Client');
  const text = item.json.content?.[0];
  expect(text?.type).toBe('text');
  expect(text.text.data).toMatchObject({ username: 'nasa', full_name: 'NASA' });
  expect(text.text.meta).toMatchObject({ endpoint: 'profile', credits_charged: 1 });
  expect(sb.stats()).toMatchObject({ total: 1, mcpCalls: 1, creditsBilled: 1, byEndpoint: { profile: 1 } });
  expect(r.stdout + r.stderr).not.toContain(apiKey);
});
