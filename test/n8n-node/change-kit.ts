/**
 * The trigger's "Account Changed" event run in-process as n8n runs a poll (its context: parameters,
 * mode, the workflow's static data, the credential's requests), with n8n's clock simulated by
 * jest's (the node reads Date.now) and the sandbox's world moved to the same instant.
 */
import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import type { Sandbox } from '../../scripts/sandbox/server';
import { IgDataTrigger } from '../../n8n-node/nodes/IgData/IgDataTrigger.node';

export interface Watch {
  sb: Sandbox;
  key: string;
  parameters: Record<string, unknown>;
  /** The workflow's static data, kept across polls as n8n keeps it. */
  staticData: IDataObject;
  mode?: 'trigger' | 'manual';
}

/** n8n's clock (the node's Date.now) and the sandbox's world, to the same instant. */
export function moveTo(sb: Sandbox, at: number) {
  jest.setSystemTime(at);
  sb.clock.moveTo(at);
}

export async function poll(w: Watch): Promise<IDataObject[]> {
  const ctx = {
    getNodeParameter: (name: string, fallback?: unknown) => w.parameters[name] ?? fallback,
    getMode: () => w.mode ?? 'trigger',
    getWorkflowStaticData: () => w.staticData,
    getCredentials: async () => ({ apiKey: w.key, baseUrl: w.sb.url }),
    getNode: () => ({ name: 'Account changed', type: 'n8n-nodes-igdata.igDataTrigger', parameters: w.parameters }),
    helpers: {
      httpRequestWithAuthentication: async (
        _credential: string,
        o: { url: string; method: string; headers: Record<string, string> },
      ) => {
        const res = await fetch(o.url, {
          method: o.method,
          headers: { ...o.headers, authorization: `Bearer ${w.key}` },
        });
        const headers: Record<string, string> = {};
        res.headers.forEach((v, k) => (headers[k] = v));
        return { statusCode: res.status, headers, body: await res.text() };
      },
    },
  } as unknown as IPollFunctions;
  const out = (await new IgDataTrigger().poll.call(ctx)) as INodeExecutionData[][] | null;
  return out ? out[0].map((i) => i.json) : [];
}
