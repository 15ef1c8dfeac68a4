// A request that gets no HTTP answer: the IgConnectionError keeps what the HTTP client threw as its
// `cause` (both drivers, one request and a batch, and a real refused connection through fetch).
import { createServer } from 'node:net';
import type { AsyncIO, HttpRequest, RawResponse, SyncIO } from '../src';
import { IgConnectionError, createClient, prepare, request, driveAsync, driveSync, sendAll, userMessage } from '../src';

const KEY = 'sk_test_secret_123';
const config = { apiKey: KEY, baseUrl: 'https://api.test/', retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 1 } };

/** What a client throws: a TypeError whose own cause names the system error, as Node's fetch does. */
function refused(n: number): TypeError {
  return new TypeError(`fetch failed (${n})`, {
    cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }),
  });
}

async function caught(p: Promise<unknown> | (() => unknown)): Promise<unknown> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

test("driveSync: the last attempt's exception is the cause; the message is the one users read", async () => {
  const thrown: Error[] = [];
  const io: SyncIO = {
    fetch: () => {
      thrown.push(refused(thrown.length + 1));
      throw thrown.at(-1);
    },
    fetchAll: () => [],
    sleep: () => undefined,
  };
  const e = await caught(() => driveSync(request(config, 'profile', { handle: 'nasa' }), io));
  expect(e).toBeInstanceOf(IgConnectionError);
  const err = e as IgConnectionError;
  expect(thrown).toHaveLength(2);
  expect(err.cause).toBe(thrown[1]);
  expect((err.cause as Error & { cause: { code: string } }).cause.code).toBe('ECONNREFUSED');
  expect(err.attempts).toBe(2);
  expect(err.message).toBe('fetch failed (2)');
  expect(userMessage(err, { keyWhere: 'Settings' })).toBe(
    'Could not reach the service after 2 tries: fetch failed (2). Check the base URL and your connection, then try again. (Not charged.)',
  );
  // Not enumerable, as a native cause: JSON of the error and spreads leave it out.
  expect(Object.keys(err)).not.toContain('cause');
  expect(JSON.stringify(err)).not.toContain('ECONNREFUSED');
});

test('driveAsync: a rejected fetch is the cause, and the key is redacted from the message only', async () => {
  const boom = new Error(`bad header Bearer ${KEY}`);
  const io: AsyncIO = { fetch: () => Promise.reject(boom), sleep: async () => undefined };
  const err = (await caught(driveAsync(request(config, 'profile', { handle: 'nasa' }), io))) as IgConnectionError;
  expect(err).toBeInstanceOf(IgConnectionError);
  expect(err.cause).toBe(boom);
  expect(err.message).toBe('bad header Bearer [redacted]');
});

test('a batch: each failed call keeps the exception of its own last attempt', async () => {
  const calls = ['a1', 'b2'].map((h) => prepare('profile', { handle: h }));
  const exceptions = new Map<string, Error>();
  const io: AsyncIO = {
    fetch: (r: HttpRequest): Promise<RawResponse> => {
      const e = new Error(`reset ${new URL(r.url).searchParams.get('handle')}`);
      exceptions.set(r.url, e);
      return Promise.reject(e);
    },
    sleep: async () => undefined,
  };
  const errors = await driveAsync(sendAll(config, calls), io);
  expect(errors.every((e) => e instanceof IgConnectionError)).toBe(true);
  expect(errors.map((e) => ((e as IgConnectionError).cause as Error).message)).toEqual(['reset a1', 'reset b2']);
  expect(errors.map((e) => (e as IgConnectionError).cause)).toEqual([...exceptions.values()]);
});

test("through fetch: a refused connection keeps fetch's TypeError, whose cause says ECONNREFUSED", async () => {
  // A port that was free a moment ago and now has nobody listening.
  const port = await new Promise<number>((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port: p } = srv.address() as { port: number };
      srv.close(() => resolve(p));
    });
  });
  const client = createClient({ ...config, baseUrl: `http://127.0.0.1:${port}/` });
  const err = (await caught(client.call('profile', { handle: 'nasa' }))) as IgConnectionError;
  expect(err).toBeInstanceOf(IgConnectionError);
  // Node's own TypeError (another realm than jest's, so by name).
  expect(err.cause).toMatchObject({ name: 'TypeError', message: 'fetch failed' });
  expect((err.cause as Error & { cause?: { code?: string } }).cause?.code).toBe('ECONNREFUSED');
});

describe('an answer lost after the request may have reached the service (the one rule for both products)', () => {
  const code = (c: string) => Object.assign(new Error(`${c} (x)`), { code: c });
  const policy = { ...config, retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 1 } };

  test('a timeout or a reset: sent again once, never a third time, "may have been charged"; refused: three tries, "Not charged"', async () => {
    for (const [thrown, sends, sentence] of [
      [
        new TypeError('fetch failed', { cause: code('ECONNRESET') }),
        2,
        'No answer from the service after 2 tries: fetch failed. Try again later. (May have been charged.)',
      ],
      [
        code('ETIMEDOUT'),
        2,
        'No answer from the service after 2 tries: ETIMEDOUT (x). Try again later. (May have been charged.)',
      ],
      [
        refused(1),
        3,
        'Could not reach the service after 3 tries: fetch failed (1). Check the base URL and your connection, then try again. (Not charged.)',
      ],
    ] as const) {
      let sent = 0;
      const io: AsyncIO = { fetch: () => (sent++, Promise.reject(thrown)), sleep: async () => undefined };
      const err = (await caught(driveAsync(request(policy, 'profile', { handle: 'nasa' }), io))) as IgConnectionError;
      expect(sent).toBe(sends);
      expect(userMessage(err, { keyWhere: 'Settings' })).toBe(sentence);
    }
  });

  test('a batch that threw: sent again once, together, the request that failed apart; answers after a loss count it', () => {
    const calls = ['a1', 'b2', 'c3'].map((h) => prepare('profile', { handle: h }));
    const effects: string[][] = [];
    const ok = (r: HttpRequest): RawResponse => ({
      status: 200,
      headers: {},
      body: JSON.stringify({
        data: { id: '1', username: new URL(r.url).searchParams.get('handle') },
        meta: { credits_charged: 1 },
      }),
    });
    const io: SyncIO = {
      fetch: (r) => {
        effects.push([new URL(r.url).searchParams.get('handle')!]);
        return { status: 0, headers: {}, body: '', error: 'timeout' }; // b2 never gets an answer
      },
      fetchAll: (rs) => {
        effects.push(rs.map((r) => new URL(r.url).searchParams.get('handle')!));
        if (effects.length > 1) return rs.map(ok);
        // The first batch: b2 failed on its own, the others were lost with it.
        return rs.map((r) =>
          r.url.includes('b2')
            ? { status: 0, headers: {}, body: '', error: 'timeout' }
            : { status: 0, headers: {}, body: '', error: 'lost', lostWithBatch: true },
        );
      },
      sleep: () => undefined,
    };
    const [a, b, c] = driveSync(sendAll(policy, calls), io);
    expect(effects).toEqual([['a1', 'b2', 'c3'], ['a1', 'c3'], ['b2']]);
    expect(a).toMatchObject({ creditsCharged: 1, lostSends: 1 });
    expect(c).toMatchObject({ creditsCharged: 1, lostSends: 1 });
    expect(b).toBeInstanceOf(IgConnectionError);
    expect((b as IgConnectionError).lostSends).toBe(2);
  });
});
