/**
 * How the node's requests reach n8n's helper (nodes/IgData/transport.ts) and get their key (the
 * credential's `authenticate`), in-process against the sandbox with a context that does what n8n's
 * `httpRequestWithAuthentication` does: use the decrypted credential it is given (or read it), let
 * the credential's `authenticate` add the key, send. The core builds every request with no key
 * (`callerAuthenticates`), the credential is decrypted once per execution however many requests
 * it makes (n8n read it for each one, which held requests back: npm run bench:n8n), and the key
 * appears in no item, no error and no request n8n did not authenticate. In real n8n:
 * n8n-real.test.ts (the one auth header, recorded between n8n and the sandbox).
 */
import type {
  IAdditionalCredentialOptions,
  IAuthenticateGeneric,
  ICredentialDataDecryptedObject,
  IExecuteFunctions,
  IHttpRequestOptions,
  INodeExecutionData,
} from 'n8n-workflow';
import { prepare, send } from '@igdata/core';
import type { Sandbox } from '../../scripts/sandbox/server';
import { startSandbox } from '../../scripts/sandbox/server';
import { TEST_START } from '../support/clock';
import { IgDataApi } from '../../n8n-node/credentials/IgDataApi.credentials';
import { IgData } from '../../n8n-node/nodes/IgData/IgData.node';
import { n8nClient } from '../../n8n-node/nodes/IgData/transport';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ startAt: TEST_START, port: 0, seed: 42 });
});
afterAll(async () => sb?.close());
beforeEach(() => sb.resetStats());

const GENERIC = new IgDataApi().authenticate as IAuthenticateGeneric;
/**
 * What n8n 2.8.4 does with a generic `authenticate` (n8n's CredentialsHelper.authenticate): each
 * property's entries set on the request, names and values resolved as expressions over
 * `$credentials` (here only the `{{$credentials.field}}` parts this credential uses).
 */
async function authenticate(
  credentials: ICredentialDataDecryptedObject,
  o: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
  const resolve = (v: string) =>
    v.startsWith('=')
      ? v.slice(1).replace(/\{\{\s*\$credentials\.(\w+)\s*\}\}/g, (_m, k: string) => String(credentials[k]))
      : v;
  const out = { ...o, headers: { ...(o.headers ?? {}) } } as IHttpRequestOptions &
    Record<string, Record<string, unknown>>;
  for (const [outer, entries] of Object.entries(GENERIC.properties)) {
    for (const [k, v] of Object.entries(entries as Record<string, string>))
      out[outer] = { ...(out[outer] ?? {}), [resolve(k)]: resolve(v) };
  }
  return out;
}
const KEY_HEADER = /^(authorization|x-api-key)$/i;

interface Seen {
  credentialReads: number;
  /** What the node handed n8n's helper, before authentication. */
  requests: { options: IHttpRequestOptions; extra?: IAdditionalCredentialOptions }[];
  /** What went out after the credential's authenticate. */
  sent: Record<string, string>[];
}

/** A context as n8n gives the action node, its helper sending for real after the credential's authenticate. */
function context(key: string, inputs: string[], options: Record<string, unknown>, continueOnFail = false) {
  const seen: Seen = { credentialReads: 0, requests: [], sent: [] };
  const stored = { apiKey: key, baseUrl: sb.url };
  const getCredentials = async (): Promise<ICredentialDataDecryptedObject> => {
    seen.credentialReads++;
    return { ...stored };
  };
  const ctx = {
    getInputData: () => inputs.map(() => ({ json: {} })),
    getNodeParameter: (name: string, i: number, dflt?: unknown) =>
      ({ resource: 'profile', operation: 'profile', options, handle: inputs[i] })[name] ?? dflt,
    getCredentials,
    getNode: () => ({
      name: 'IG Data',
      type: 'n8n-nodes-igdata.igData',
      parameters: { resource: 'profile', operation: 'profile' },
      credentials: { igDataApi: { id: 'cred1', name: 'IG Data' } },
    }),
    continueOnFail: () => continueOnFail,
    // n8n's per-execution context store (the credit cap of the execution lives there): one execution per call here.
    getContext: () => ({}),
    addExecutionHints: () => undefined,
    helpers: {
      // n8n 2.8.4's httpRequestWithAuthentication: the decrypted credential given, or read again; then authenticate.
      async httpRequestWithAuthentication(type: string, o: IHttpRequestOptions, extra?: IAdditionalCredentialOptions) {
        expect(type).toBe('igDataApi');
        seen.requests.push({ options: structuredClone(o), extra });
        const credential = extra?.credentialsDecrypted?.data ?? (await getCredentials());
        const authed = await authenticate(credential, o);
        const headers = authed.headers as Record<string, string>;
        seen.sent.push(headers);
        const res = await fetch(authed.url, { method: authed.method, headers });
        const out: Record<string, string> = {};
        res.headers.forEach((v, k) => (out[k] = v));
        return { statusCode: res.status, headers: out, body: await res.text() };
      },
    },
  };
  return { ctx: ctx as unknown as IExecuteFunctions, seen };
}

const publicHandles = (n: number) =>
  [...sb.world.byUsername.values()]
    .filter((a) => !a.is_private)
    .map((a) => a.username)
    .slice(0, n);

test('one execution: the credential is decrypted once for all its requests, the core sends no key, the credential adds the one header', async () => {
  const key = sb.createKey(1000);
  const handles = publicHandles(30);
  const inputs = [...handles, ...handles.slice(0, 10).map((h) => `@${h}`)];
  const { ctx, seen } = context(key, inputs, { concurrency: 200 });
  const [out] = (await new IgData().execute.call(ctx)) as INodeExecutionData[][];

  expect(out.map((i) => i.json.username)).toEqual([...handles, ...handles.slice(0, 10)]);
  // 30 lookups over 10 credits: the free balance read first, then one request per distinct handle.
  expect(sb.stats().byEndpoint).toEqual({ credits: 1, profile: 30 });
  expect(seen.requests).toHaveLength(31);
  // One read for the execution: the config (the base URL) and every request share it.
  expect(seen.credentialReads).toBe(1);
  for (const { options, extra } of seen.requests) {
    expect(Object.keys(options.headers ?? {}).filter((h) => KEY_HEADER.test(h))).toEqual([]);
    expect(extra?.credentialsDecrypted).toMatchObject({
      id: 'cred1',
      name: 'IG Data',
      type: 'igDataApi',
      data: { apiKey: key },
    });
  }
  expect(
    seen.requests.every(({ extra }) => extra?.credentialsDecrypted === seen.requests[0].extra?.credentialsDecrypted),
  ).toBe(true);
  for (const headers of seen.sent) {
    expect(Object.keys(headers).filter((h) => KEY_HEADER.test(h))).toEqual(['Authorization']);
    expect(headers.Authorization).toBe(`Bearer ${key}`);
  }
  expect(JSON.stringify(out)).not.toContain(key);
});

test('the key is in no item and no error: a refused key, a missing account under Continue On Fail', async () => {
  const revoked = 'sk_sandbox_revoked00000';
  const refused = context(revoked, ['nasa'], {});
  const error = await new IgData().execute.call(refused.ctx).then(
    () => undefined,
    (e: Error) => e,
  );
  expect(error?.message).toBe('Invalid API key. Set it in the IG Data API credential of this node. (Not charged.)');
  expect(
    JSON.stringify(error) + String(error?.stack) + JSON.stringify((error as { cause?: unknown })?.cause ?? null),
  ).not.toContain(revoked);

  const key = sb.createKey(100);
  const { ctx } = context(key, ['nasa', 'no_such_account_zz'], {}, true);
  const [out] = (await new IgData().execute.call(ctx)) as INodeExecutionData[][];
  expect(out[1].json).toMatchObject({ code: 'not_found', credits_charged: 1 });
  expect(JSON.stringify(out)).not.toContain(key);
});

test('the client of the trigger and the node: one credential read for its config and however many requests, and the config holds no key', async () => {
  const key = sb.createKey(100);
  const { ctx, seen } = context(key, [], {});
  const client = n8nClient(ctx);
  const config = await client.config();
  expect(config).toEqual({ callerAuthenticates: true, baseUrl: sb.url });
  expect(JSON.stringify(config)).not.toContain(key);
  const { io } = client;
  const request = (handle: string) => {
    const op = send(config, prepare('profile', { handle }));
    const effect = op.next().value as {
      kind: string;
      request: { method: 'GET'; url: string; headers: Record<string, string> };
    };
    expect(effect.request.headers).toEqual({ accept: 'application/json' });
    return effect.request;
  };
  const answers = await Promise.all(['nasa', 'natgeo', 'nasa'].map((h) => io.fetch(request(h))));
  expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
  expect(seen.credentialReads).toBe(1); // the config's read, shared by the IO
  expect(seen.requests.map((r) => r.options.timeout)).toEqual([60000, 60000, 60000]);
});

describe("the credential's authenticate", () => {
  const options = (headers: Record<string, string> = {}): IHttpRequestOptions => ({
    url: 'https://api.test/v1/credits',
    method: 'GET',
    headers: { accept: 'application/json', ...headers },
  });

  test("n8n's documented generic form: one Authorization header from the key, the request's other headers kept", async () => {
    expect(new IgDataApi().authenticate).toEqual({
      type: 'generic',
      properties: { headers: { Authorization: '=Bearer {{$credentials.apiKey}}' } },
    });
    expect((await authenticate({ apiKey: 'sk_a', baseUrl: 'https://api.test' }, options())).headers).toEqual({
      accept: 'application/json',
      Authorization: 'Bearer sk_a',
    });
    // A credential saved with the former Authentication Header field: the field is ignored.
    expect((await authenticate({ apiKey: 'sk_b', authHeader: 'x-api-key' }, options())).headers).toEqual({
      accept: 'application/json',
      Authorization: 'Bearer sk_b',
    });
  });
});
