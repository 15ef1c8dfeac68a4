/**
 * What the execute() suites (execute*.test.ts) share: the sandbox (one per suite, its stats reset
 * before each test), the node run in-process with the context n8n gives a node, and the inputs and
 * sentences they use.
 */
import type { IExecuteFunctions, INodeExecutionData, NodeExecutionHint } from 'n8n-workflow';
import type { Sandbox } from '../../scripts/sandbox/server';
import { startSandbox } from '../../scripts/sandbox/server';
import { TEST_START } from '../support/clock';
import { IgData } from '../../n8n-node/nodes/IgData/IgData.node';

/** The suite's sandbox, set in its beforeAll (a live binding: read it inside tests). */
export let sb: Sandbox;
/** Call once at the top of a suite: starts the sandbox before it, resets its stats before each test. */
export function useSandbox() {
  beforeAll(async () => {
    sb = await startSandbox({ startAt: TEST_START, port: 0, seed: 42 });
  });
  afterAll(async () => sb?.close());
  beforeEach(() => sb.resetStats());
}

export interface Setup {
  /** One input item per value, each the node's main field (`handle` or `post`). */
  inputs: string[];
  parameters: Record<string, unknown>;
  key: string;
  continueOnFail: boolean;
  /** Called as the n-th answer comes back: another consumer of the same key. */
  after?: (answers: number) => void;
  /** Per item, what overrides `parameters` (as an expression evaluated per item would). */
  perItem?: (i: number) => Record<string, unknown>;
  /**
   * The execution's context store (n8n's `getContext`): pass the same object to several calls for
   * several runs of the node in one execution (Loop Over Items, an agent's tool calls).
   */
  execution?: Record<string, Record<string, unknown>>;
  /** Rewrites an answer's body on its way back, as a proxy between n8n and the service would. */
  tamper?: (url: string, body: string) => string;
  /** The node's type: `n8n-nodes-igdata.igDataTool` is the node as an AI agent's tool. */
  type?: string;
}

/** Runs the node as n8n does; the key goes on as one header, as n8n does for the credential. */
export async function execute(setup: Setup) {
  const hints: NodeExecutionHint[] = [];
  let answers = 0;
  const ctx = {
    getInputData: () => setup.inputs.map(() => ({ json: {} })),
    getNodeParameter: (name: string, i: number, dflt?: unknown) =>
      ({ ...setup.parameters, ...fieldOf(setup, i), ...setup.perItem?.(i) })[name] ?? dflt,
    getContext: (type: string) => ((setup.execution ??= {})[type === 'node' ? 'node:IG Data' : type] ??= {}),
    getCredentials: async () => ({ apiKey: setup.key, baseUrl: sb.url }),
    getNode: () => ({ name: 'IG Data', type: setup.type ?? 'n8n-nodes-igdata.igData', parameters: setup.parameters }),
    continueOnFail: () => setup.continueOnFail,
    addExecutionHints: (...h: NodeExecutionHint[]) => hints.push(...h),
    helpers: {
      httpRequestWithAuthentication: async (
        _credential: string,
        o: { url: string; method: string; headers: Record<string, string> },
      ) => {
        const res = await fetch(o.url, {
          method: o.method,
          headers: { ...o.headers, authorization: `Bearer ${setup.key}` },
        });
        const headers: Record<string, string> = {};
        res.headers.forEach((v, k) => (headers[k] = v));
        const text = await res.text();
        const body = setup.tamper ? setup.tamper(o.url, text) : text;
        setup.after?.(++answers);
        return { statusCode: res.status, headers, body };
      },
    },
  } as unknown as IExecuteFunctions;
  const [out] = (await new IgData().execute.call(ctx)) as INodeExecutionData[][];
  return { out, hints };
}

export function fieldOf(setup: Setup, i: number): Record<string, unknown> {
  return setup.parameters.operation === 'post' ? { post: setup.inputs[i] } : { handle: setup.inputs[i] };
}

export const lookups = { resource: 'profile', operation: 'profile', options: {} };
export const someone = (n: number) => Array.from({ length: n }, (_, i) => `someone_${i}`);
export const posts = (n: number) => [...sb.world.postsByShortcode.keys()].slice(0, n);
export const postLookups = { resource: 'post', operation: 'post', options: { concurrency: 1 } };

export const REFUSED_1500 =
  'Not started: 1,500 distinct lookups would cost ~1,500 credits, over the credit cap of 1,000. Raise Options > Credit Cap to at least 1,500 (0 for no cap). ' +
  'Nothing was sent. (Not charged.)';
export const STOPPED_300 =
  'Stopped after 300 of 500 lookups: your credit balance is empty. 300 credits spent; 300 items delivered, 200 not looked up. Top up, then run again for the items not looked up.';

export const privateAccount = () => [...sb.world.byUsername.values()].find((a) => a.is_private)!.username;
export const publicAccounts = (n: number) =>
  [...sb.world.byUsername.values()]
    .filter((a) => !a.is_private)
    .map((a) => a.username)
    .slice(0, n);
