/**
 * What the Download Media suites (media.test.ts, media-addresses.test.ts) share: the sandbox (one
 * per suite), the node's execute() run in-process with n8n's helpers stood in for as n8n implements
 * them (see media.test.ts), and the checks of the downloaded bytes.
 */
import dns from 'node:dns';
import http from 'node:http';
import type { IBinaryData, IExecuteFunctions, INodeExecutionData, NodeExecutionHint } from 'n8n-workflow';
import { getEndpoint } from '@igdata/core';
import type { Sandbox } from '../../scripts/sandbox/server';
import { startSandbox } from '../../scripts/sandbox/server';
import { TEST_START } from '../support/clock';
import { IgData } from '../../n8n-node/nodes/IgData/IgData.node';

/** The suite's sandbox, set in its beforeAll (a live binding: read it inside tests). */
export let sb: Sandbox;
/** Call once at the top of a suite: starts the sandbox before it; before each test, fresh stats and week-long links. */
export function useSandbox() {
  beforeAll(async () => {
    sb = await startSandbox({ startAt: TEST_START, port: 0, seed: 42 });
  });
  afterAll(async () => sb?.close());
  beforeEach(() => {
    sb.resetStats();
    sb.setFaults({ mediaTtlSeconds: 7 * 24 * 3600 });
  });
}

export const PNG = '89504e470d0a1a0a';
export const isPng = (b: IBinaryData) => Buffer.from(b.data, 'base64').subarray(0, 8).toString('hex') === PNG;
export const isMp4 = (b: IBinaryData) => Buffer.from(b.data, 'base64').subarray(4, 8).toString() === 'ftyp';

interface MediaRequest {
  url: string;
  headers: Record<string, unknown>;
}

/** Names ending in `.test` resolve to 127.0.0.1 here, as a public-looking name may resolve to a private address. */
const lookup = (host: string, options: object, done: (...a: unknown[]) => void) =>
  host.endsWith('.test')
    ? (options as { all?: boolean }).all
      ? done(null, [{ address: '127.0.0.1', family: 4 }])
      : done(null, '127.0.0.1', 4)
    : dns.lookup(host, options, done);

/**
 * n8n's httpRequest for `encoding: 'stream'`: the status, headers and the body as a stream (Node's
 * IncomingMessage); redirects followed unless `disableFollowRedirect`, as n8n's axios does.
 */
export async function streamRequest(
  o: { url: string; method?: string; headers?: Record<string, string>; disableFollowRedirect?: boolean },
  hops = 0,
): Promise<{ statusCode: number; headers: http.IncomingHttpHeaders; body: http.IncomingMessage }> {
  const res = await new Promise<{ statusCode: number; headers: http.IncomingHttpHeaders; body: http.IncomingMessage }>(
    (resolve, reject) => {
      const req = http.request(
        o.url,
        { method: o.method ?? 'GET', headers: o.headers ?? {}, lookup: lookup as never },
        (r) => resolve({ statusCode: r.statusCode ?? 0, headers: r.headers, body: r }),
      );
      req.on('error', reject);
      req.end();
    },
  );
  if (o.disableFollowRedirect || res.statusCode < 300 || res.statusCode >= 400 || !res.headers.location || hops >= 5)
    return res;
  res.body.resume();
  return await streamRequest({ ...o, url: new URL(res.headers.location, o.url).href }, hops + 1);
}

interface Run {
  parameters: Record<string, unknown>;
  /** One input item per value, each the operation's target field. */
  inputs: string[];
  continueOnFail?: boolean;
  key?: string;
  /**
   * The credential's Base URL, when a test's own server is to be the Base URL's address (its media
   * links then allowed): the API's answers still come from the sandbox, as from a gateway there.
   */
  baseUrl?: string;
  /** Runs after each API answer, before the node goes on (e.g. wait for links to expire). */
  afterAnswer?: () => Promise<void>;
  /** Edits each API answer on its way to the node (e.g. to link to another host). */
  rewrite?: (answer: { data: Record<string, unknown> }) => void;
  /** Added before each media answer is handed back (to see how many are in flight). */
  mediaDelayMs?: number;
}

/** Runs the action node as n8n does, recording every request to a media link. */
export async function execute(run: Run) {
  const hints: NodeExecutionHint[] = [];
  const media: MediaRequest[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const key = run.key ?? sb.demoKey;
  const field = getEndpoint(String(run.parameters.operation)).params[0].name;
  const ctx = {
    getInputData: () => run.inputs.map(() => ({ json: {} })),
    getNodeParameter: (name: string, i: number, dflt?: unknown) =>
      (({ ...run.parameters, [field]: run.inputs[i] }) as Record<string, unknown>)[name] ?? dflt,
    getCredentials: async () => ({ apiKey: key, baseUrl: run.baseUrl ?? sb.url }),
    getNode: () => ({ name: 'IG Data', type: 'n8n-nodes-igdata.igData' }),
    continueOnFail: () => run.continueOnFail ?? false,
    // n8n's per-execution context store (the credit cap of the execution lives there): one execution per call here.
    getContext: () => ({}),
    addExecutionHints: (...h: NodeExecutionHint[]) => hints.push(...h),
    helpers: {
      // As n8n does for the credential's `authenticate`: the key goes on as one header.
      httpRequestWithAuthentication: async (
        _credential: string,
        o: { url: string; method: string; headers: Record<string, string> },
      ) => {
        const url = run.baseUrl ? `${sb.url}${o.url.slice(run.baseUrl.length)}` : o.url;
        const res = await fetch(url, { method: o.method, headers: { ...o.headers, authorization: `Bearer ${key}` } });
        const headers: Record<string, string> = {};
        res.headers.forEach((v, k) => (headers[k] = v));
        let body = await res.text();
        if (run.rewrite) {
          const answer = JSON.parse(body);
          run.rewrite(answer);
          body = JSON.stringify(answer);
        }
        await run.afterAnswer?.();
        return { statusCode: res.status, headers, body };
      },
      httpRequest: async (o: {
        url: string;
        method: string;
        headers?: Record<string, string>;
        encoding?: string;
        returnFullResponse?: boolean;
        ignoreHttpStatusErrors?: boolean;
        disableFollowRedirect?: boolean;
      }) => {
        expect(o).toMatchObject({ encoding: 'stream', returnFullResponse: true, ignoreHttpStatusErrors: true });
        media.push({ url: o.url, headers: { ...(o.headers ?? {}) } });
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        try {
          if (run.mediaDelayMs) await new Promise((r) => setTimeout(r, run.mediaDelayMs));
          return await streamRequest(o);
        } finally {
          inFlight--;
        }
      },
      // n8n's default binary mode: the bytes as base64, with name, type and size.
      prepareBinaryData: async (data: Buffer, fileName?: string, mimeType?: string): Promise<IBinaryData> => ({
        data: data.toString('base64'),
        mimeType: mimeType ?? 'application/octet-stream',
        fileName,
        fileExtension: fileName?.split('.').pop(),
        fileSize: `${data.length} B`,
      }),
    },
  } as unknown as IExecuteFunctions;
  const [out] = (await new IgData().execute.call(ctx)) as INodeExecutionData[][];
  return { out, hints, media, maxInFlight };
}

export const ALL_POST_MEDIA = ['image_url', 'video_url', 'author.profile_pic_url'];
export const postsOf = { resource: 'profile', operation: 'profile/posts', limit: 12 };
