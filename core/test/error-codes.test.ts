// The error table and everything derived from it: status to code, retried statuses, Retry-After,
// the OpenAPI error responses, the sentences, the bulk-run stops, the credit-cap error.
import type { Effect, RawResponse } from '../src';
import {
  ERROR_CODES,
  IgApiError,
  IgCreditCapError,
  IgSchemaError,
  IgValidationError,
  buildOpenApi,
  docsLink,
  errorFacts,
  isCreditCapError,
  isIgError,
  prepare,
  send,
  servedAgain,
  stopsBulkRun,
  userMessage,
} from '../src';
import {
  DEFAULT_RETRY,
  ERROR_DOCS,
  RETRYABLE_STATUSES,
  SPEC_ERROR_CODES,
  backoffMs,
  codeForStatus,
  retryAfterMs,
} from './support/internals';

const config = { apiKey: 'sk_test_secret_123', baseUrl: 'https://api.test' };
const bare = (status: number, headers: Record<string, string> = {}): RawResponse => ({
  status,
  headers,
  body: '<html>busy</html>',
});
const ok: RawResponse = {
  status: 200,
  headers: {},
  body: JSON.stringify({ data: { id: '1', username: 'nasa' }, meta: { credits_charged: 1 } }),
};

function run(answers: RawResponse[]) {
  const effects: Effect[] = [];
  const gen = send(config, prepare('profile', { handle: 'nasa' }));
  let k = 0;
  let s = gen.next();
  try {
    while (!s.done) {
      effects.push(s.value);
      s = gen.next(s.value.kind === 'sleep' ? undefined : answers[k++]);
    }
    return { effects, value: s.value, error: undefined };
  } catch (e) {
    return { effects, value: undefined, error: e as IgApiError };
  }
}

describe('the table', () => {
  it("holds the spec's codes with their status, billing and retry facts (§7)", () => {
    expect(SPEC_ERROR_CODES.map((e) => [e.status, e.code])).toEqual([
      [400, 'missing_parameter'],
      [401, 'invalid_api_key'],
      [402, 'insufficient_credits'],
      [404, 'not_found'],
      [502, 'upstream_error'],
      [504, 'upstream_timeout'],
    ]);
    expect(
      Object.entries(ERROR_DOCS)
        .filter(([, d]) => d.billed)
        .map(([c]) => c),
    ).toEqual(['not_found']);
    expect(Object.keys(ERROR_CODES).filter((c) => errorFacts(c)?.stopsBulk)).toEqual([
      'invalid_api_key',
      'missing_api_key',
      'insufficient_credits',
    ]);
  });

  it('gives a status without a code in its body the code of its row; unknown statuses are http_error', () => {
    expect([400, 401, 402, 404, 429, 502, 503, 504, 418, 500].map(codeForStatus)).toEqual([
      'missing_parameter',
      'invalid_api_key',
      'insufficient_credits',
      'not_found',
      'rate_limited',
      'upstream_error',
      'service_unavailable',
      'upstream_timeout',
      'http_error',
      'http_error',
    ]);
    expect(errorFacts('toString')).toBeUndefined();
    // codeForStatus takes a status's first row: never an observed variant of a spec code.
    const statuses = new Set(Object.values(ERROR_CODES).map((f) => f.status));
    for (const status of statuses)
      expect(ERROR_DOCS[codeForStatus(status) as keyof typeof ERROR_DOCS].source).not.toBe('observed');
    expect(docsLink('not_found')).toBe('/docs/errors#not_found');
    expect(docsLink('method_not_allowed')).toBe('/docs/errors');
  });

  it('derives the OpenAPI error responses from the spec rows', () => {
    const doc = buildOpenApi('https://api.test') as {
      paths: Record<string, { get: { responses: Record<string, unknown> } }>;
      components: { responses: Record<string, unknown> };
    };
    expect(Object.keys(doc.paths['/v1/profile'].get.responses)).toEqual([
      '200',
      '400',
      '401',
      '402',
      '404',
      '502',
      '504',
    ]);
    expect(Object.keys(doc.components.responses)).toEqual(SPEC_ERROR_CODES.map((e) => e.code));
  });
});

describe('retries from the table', () => {
  it('retries 429, 502, 503, 504 and network failures; nothing else', () => {
    expect(RETRYABLE_STATUSES).toEqual([429, 502, 503, 504]);
    expect(DEFAULT_RETRY.statuses).toEqual([0, 429, 502, 503, 504]);
  });

  it('retries a 503 from in front of the service, then names it when it persists', () => {
    const r = run([bare(503), bare(503), bare(503)]);
    expect(r.effects.map((e) => e.kind)).toEqual(['http', 'sleep', 'http', 'sleep', 'http']);
    expect(r.error).toMatchObject({ status: 503, code: 'service_unavailable', details: { attempts: 3 } });
    expect(userMessage(r.error as IgApiError, { keyWhere: 'x' })).toBe(
      'The service was unavailable after 3 tries. Try again later. (Not charged.)',
    );
  });

  it('does not retry a status the policy leaves out', () => {
    const r = run([bare(500)]);
    expect(r.effects).toHaveLength(1);
    expect(r.error).toMatchObject({ status: 500, code: 'http_error' });
  });

  it('reads Retry-After as seconds or as an HTTP date, and ignores what it cannot read', () => {
    const now = Date.parse('2026-11-23T12:00:00Z');
    expect(retryAfterMs('3', now)).toBe(3000);
    expect(retryAfterMs('Mon, 23 Nov 2026 12:00:02 GMT', now)).toBe(2000);
    expect(retryAfterMs('Mon, 23 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(undefined, now)).toBeUndefined();
    const policy = { ...DEFAULT_RETRY, maxRetryAfterMs: 5000 };
    expect(backoffMs(policy, 1, bare(429, { 'retry-after': 'Mon, 23 Nov 2026 12:00:04 GMT' }), () => 0.5, now)).toBe(
      4000,
    );
    // A date too far away is not honoured: the jittered backoff applies instead.
    expect(backoffMs(policy, 1, bare(429, { 'retry-after': 'Mon, 23 Nov 2026 13:00:00 GMT' }), () => 0.5, now)).toBe(
      375,
    );
  });

  it('sleeps what a date Retry-After asks for inside a call', () => {
    const at = new Date(Date.now() + 60_000).toUTCString();
    const r = run([bare(429, { 'retry-after': at }), ok]);
    // More than the 10 s we honour: backoff instead (at most 500 ms on the first retry).
    expect((r.effects[1] as { ms: number }).ms).toBeLessThanOrEqual(500);
    expect(r.value?.attempts).toBe(2);
  });
});

describe('the sentences and the family', () => {
  const err = (status: number, code: string, details = {}) =>
    new IgApiError(status, code, 'failed.', { attempts: 3, ...details });
  const ctx = { keyWhere: 'Settings', call: prepare('profile', { handle: 'nasa' }) };

  it("says each code's sentence from its row, and whether it was charged", () => {
    expect(userMessage(err(401, 'invalid_api_key'), ctx)).toBe('Invalid API key. Set it in Settings. (Not charged.)');
    expect(userMessage(err(401, 'missing_api_key'), ctx)).toBe('No API key is set. Set it in Settings. (Not charged.)');
    expect(userMessage(err(402, 'insufficient_credits', { creditsRemaining: 0 }), ctx)).toBe(
      'Out of credits: 0 left. Top up to continue. (Not charged.)',
    );
    expect(userMessage(err(404, 'not_found', { creditsCharged: 1 }), ctx)).toBe(
      '@nasa has no public data: private, deleted or nonexistent. (Charged 1 credit.)',
    );
    expect(userMessage(err(502, 'upstream_error'), ctx)).toBe(
      'The data provider failed after 3 tries. Try again later. (Not charged.)',
    );
    expect(userMessage(err(504, 'upstream_timeout'), ctx)).toBe(
      'The data provider timed out after 3 tries. Try again later. (Not charged.)',
    );
    expect(userMessage(err(409, 'conflict'), ctx)).toBe(
      'The service answered HTTP 409 (conflict): failed. (Not charged.)',
    );
  });

  it('says which errors stop a bulk run, from the table', () => {
    expect(stopsBulkRun(err(401, 'invalid_api_key'))).toBe(true);
    expect(stopsBulkRun(err(402, 'insufficient_credits'))).toBe(true);
    expect(stopsBulkRun(err(404, 'not_found'))).toBe(false);
    expect(stopsBulkRun(new IgCreditCapError(5, 5, 1))).toBe(false);
  });

  it('makes the credit cap a member of the family: never charged, states what was spent', () => {
    const cap = new IgCreditCapError(37, 37, 1);
    expect(isIgError(cap) && isCreditCapError(cap)).toBe(true);
    expect(isCreditCapError({ name: 'IgCreditCapError' })).toBe(true); // by name: two bundled copies agree
    expect(isCreditCapError(err(404, 'not_found'))).toBe(false);
    expect(cap.charged).toBe(0);
    expect(userMessage(cap, { keyWhere: 'x', capWhere: 'Options > Credit Cap' })).toBe(
      'Credit cap of 37 reached: 37 credits spent in this execution and this request costs ~1. Raise Options > Credit Cap to continue. (Not charged.)',
    );
  });
});

describe('an answer served again says it was free', () => {
  const call = prepare('profile', { handle: 'locked_acc' });
  const ctx = { keyWhere: 'Settings', call };
  const notFound = () => new IgApiError(404, 'not_found', 'Not found', { creditsCharged: 1, requestId: 'req_1' });
  const dec1At2330 = Date.UTC(2026, 11, 1, 23, 30);

  test('a billed 404 served again: charged 0 now, its first charge and the day of its first lookup in the zone', () => {
    const first = notFound();
    const again = servedAgain(first, dec1At2330);
    expect([again.charged, again.first, again.details.requestId]).toEqual([0, { charged: 1, at: dec1At2330 }, 'req_1']);
    expect(first.charged).toBe(1); // the answer as first given is left as it was
    const what = '@locked_acc has no public data: private, deleted or nonexistent.';
    expect(userMessage(first, ctx)).toBe(`${what} (Charged 1 credit.)`);
    expect(userMessage(again, ctx)).toBe(`${what} (Charged 1 credit when first looked up on 1 Dec; free now.)`);
    expect(userMessage(again, { ...ctx, zoneOffset: () => 60 })).toBe(
      `${what} (Charged 1 credit when first looked up on 2 Dec; free now.)`,
    );
    // Without its time (an n8n item that asked what an earlier item of its execution asked).
    expect(userMessage(servedAgain(notFound()), ctx)).toBe(
      `${what} (Charged 1 credit when first looked up; free now.)`,
    );
  });

  test('a paid answer in an unexpected shape served again; an error that cost nothing is left as it is', () => {
    const shape = new IgSchemaError('bad', ['data.id: missing'], 2, 'req_2', { x: 1 });
    const again = servedAgain(shape, dec1At2330);
    expect([again.charged, again.first?.charged, again.received]).toEqual([0, 2, { x: 1 }]);
    expect(userMessage(again, ctx)).toMatch(/\(Charged 2 credits when first looked up on 1 Dec; free now\.\)$/);
    const free = new IgValidationError('handle', 'a username', 'nothing');
    expect(servedAgain(free, dec1At2330)).toBe(free);
    expect(userMessage(servedAgain(new IgApiError(404, 'not_found', 'Not found'), dec1At2330), ctx)).toMatch(
      /\(Not charged\.\)$/,
    );
  });
});
