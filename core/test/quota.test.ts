// A platform's daily quota (Apps Script's URL Fetch calls a day): the driver marks the refused request `quota`; core
// makes it an IgQuotaError of its own code, never retries it, never counts it as a send that may have been billed,
// and a bulk run stops at it.
import type { RawResponse } from '../src';
import { errorCode, isQuotaError, prepare, sendAll, stopsBulkRun, userMessage } from '../src';
import { step } from './support/step';

const config = {
  apiKey: 'sk_test_q',
  baseUrl: 'https://api.test/',
  retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 1 },
};
const refused = (): RawResponse => ({
  status: 0,
  headers: {},
  body: '',
  error: 'Service invoked too many times for one day: urlfetch.',
  neverSent: true,
  quota: 'urlfetch',
});

test('a refused batch: one try, an IgQuotaError each, not charged, no lost send; it stops a bulk run', () => {
  const calls = [prepare('profile', { handle: 'nasa' }), prepare('profile', { handle: 'natgeo' })];
  const { value, effects } = step(sendAll(config, calls), (e) => (e.kind === 'httpAll' ? e.requests.map(refused) : []));
  expect(effects.map((e) => e.kind)).toEqual(['httpAll']); // no backoff, no retry
  for (const outcome of value) {
    expect(isQuotaError(outcome)).toBe(true);
    const e = outcome as Extract<typeof outcome, { name: 'IgQuotaError' }>;
    expect(errorCode(e)).toBe('platform_quota');
    expect(e.charged).toBe(0);
    expect(e.lostSends).toBe(0);
    expect(stopsBulkRun(e)).toBe(true);
    expect(userMessage(e, { keyWhere: 'Settings' })).toBe(
      "Not sent: Google's daily limit of URL Fetch calls for this account is reached. It frees up within 24 hours; " +
        'try again then. (Not charged.)',
    );
  }
});

test('met on a retry: the earlier lost send is still counted as one that may have been billed', () => {
  const lost: RawResponse = { status: 0, headers: {}, body: '', error: 'Timeout: https://api.test/v1/profile' };
  const { value, effects } = step(sendAll(config, [prepare('profile', { handle: 'nasa' })]), (e, i) =>
    e.kind === 'sleep' ? undefined : i === 0 ? lost : refused(),
  );
  expect(effects.map((e) => e.kind)).toEqual(['http', 'sleep', 'http']);
  expect(isQuotaError(value[0])).toBe(true);
  expect((value[0] as { lostSends: number }).lostSends).toBe(1);
});
