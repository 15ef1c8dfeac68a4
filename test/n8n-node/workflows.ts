/**
 * The workflows the real-n8n suites import and run (n8n-real.test.ts, n8n-stops.test.ts): a manual
 * start, a Code node of inputs, the IG Data node with the sandbox credential, wired in one branch or
 * several; and a node's full output read back from the run.
 */
import { CRED, rt } from './setup';

export const manual = {
  id: 'm1',
  name: 'Start',
  type: 'n8n-nodes-base.manualTrigger',
  typeVersion: 1,
  position: [0, 0],
  parameters: {},
};
export const code = (js: string) => ({
  id: 'c1',
  name: 'Input',
  type: 'n8n-nodes-base.code',
  typeVersion: 2,
  position: [200, 0],
  parameters: { jsCode: js },
});
export const ig = (name: string, parameters: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  id: `n-${name.replace(/\W/g, '')}`,
  name,
  type: 'n8n-nodes-igdata.igData',
  typeVersion: 1,
  position: [400, 0],
  parameters,
  credentials: { igDataApi: CRED },
  ...extra,
});
/** Start -> a, Start -> b, ...: independent branches, one run. */
export const fanOut = (nodes: Record<string, unknown>[]) => ({
  name: 'igdata test',
  nodes: [manual, ...nodes],
  connections: { Start: { main: [nodes.map((n) => ({ node: n.name as string, type: 'main', index: 0 }))] } },
});
export const chain = (nodes: Record<string, unknown>[]) => ({
  name: 'igdata test',
  nodes: [manual, ...nodes],
  connections: Object.fromEntries(
    [manual, ...nodes]
      .slice(0, -1)
      .map((n, i) => [n.name, { main: [[{ node: nodes[i].name, type: 'main', index: 0 }]] }]),
  ),
});
export const out = (r: { run: unknown }, node: string) =>
  rt.nodeOutput(r.run, node, { full: true }) as { json: Record<string, any>; pairedItem?: { item: number } }[];
