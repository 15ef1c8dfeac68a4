/**
 * The core's AsyncIO over n8n's own HTTP helper: the core sees status, headers and body of every
 * answer (errors included) and decides itself what is an error, what to retry and how long to
 * wait; waiting uses `sleep` from n8n-workflow.
 *
 * The API key is the credential's business: requests go out through
 * `httpRequestWithAuthentication`, where n8n adds the one auth header the credential's
 * `authenticate` makes. The core builds them with no key (`callerAuthenticates`), and this file
 * never reads one. The key goes to the Base URL's origin only: core refuses an http:// Base URL to
 * another machine before any request, and a redirect is never followed (below).
 *
 * The credential is decrypted once per execution (per client) and handed to every request as
 * `credentialsDecrypted`. Without it n8n reads it again for each request (a database query, a
 * decryption and the credential's expressions before the request can leave), so requests leave one
 * by one instead of together and Concurrency is never reached (`npm run bench:n8n` shows how many
 * are in flight at once).
 */
import type {
  IAdditionalCredentialOptions,
  ICredentialDataDecryptedObject,
  IExecuteFunctions,
  IHttpRequestOptions,
  IPollFunctions,
} from 'n8n-workflow';
import { sleep } from 'n8n-workflow';
import type { AsyncIO, ClientConfig, HttpRequest, RawResponse } from '@igdata/core';

export const CREDENTIAL = 'igDataApi';

/** Where users set the key, for the core's error sentences. */
export const KEY_WHERE = 'the IG Data API credential of this node';

const REQUEST_TIMEOUT_MS = 60000;

type Ctx = IExecuteFunctions | IPollFunctions;

function bodyText(body: unknown): string {
  if (typeof body === 'string') return body;
  if (body === undefined || body === null) return '';
  if (body instanceof Uint8Array) return new TextDecoder().decode(body);
  return JSON.stringify(body);
}

/** The core's client over n8n for one execution: its config and its IO. */
export interface N8nClient {
  /** The credential's base URL; the key stays with n8n (the credential adds it). */
  config(): Promise<ClientConfig>;
  io: AsyncIO;
}

/**
 * The client of one execution. The credential is read (a database query and a decryption in n8n)
 * once, on first need, and the one reading serves the config and every request.
 */
export function n8nClient(ctx: Ctx): N8nClient {
  let data: Promise<ICredentialDataDecryptedObject> | undefined;
  const credential = async () => await (data ??= ctx.getCredentials(CREDENTIAL));
  // The decrypted credential as n8n's helper takes it: opaque here (never read, never shown).
  let decrypted: Promise<IAdditionalCredentialOptions> | undefined;
  const forRequests = async (): Promise<IAdditionalCredentialOptions> => {
    const ref = ctx.getNode().credentials?.[CREDENTIAL];
    return {
      credentialsDecrypted: { id: ref?.id ?? '', name: ref?.name ?? '', type: CREDENTIAL, data: await credential() },
    };
  };
  return {
    async config() {
      const { baseUrl } = await credential();
      return { callerAuthenticates: true, baseUrl: typeof baseUrl === 'string' ? baseUrl : undefined };
    },
    io: {
      async fetch(request: HttpRequest): Promise<RawResponse> {
        const options: IHttpRequestOptions = {
          method: request.method,
          url: request.url,
          headers: { ...request.headers },
          returnFullResponse: true,
          ignoreHttpStatusErrors: true,
          json: false,
          encoding: 'text',
          timeout: REQUEST_TIMEOUT_MS,
          // A redirect comes back as an answer, which core refuses: n8n's helper would follow it with
          // the credential's header (sendCredentialsOnCrossOriginRedirect defaults to true).
          disableFollowRedirect: true,
          sendCredentialsOnCrossOriginRedirect: false,
        };
        const res = (await ctx.helpers.httpRequestWithAuthentication.call(
          ctx,
          CREDENTIAL,
          options,
          await (decrypted ??= forRequests()),
        )) as {
          statusCode: number;
          headers?: Record<string, unknown>;
          body: unknown;
        };
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers ?? {})) {
          if (v !== undefined && v !== null) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
        }
        return { status: res.statusCode, headers, body: bodyText(res.body) };
      },
      sleep: async (ms: number) => await sleep(ms),
    },
  };
}
