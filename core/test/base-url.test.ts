// The key goes only to the base URL (issue 38): core's one rule for every product (https, or http
// only to this machine), checked before any request; a redirect is an answer core refuses, and
// fetchIO never follows one (a real 302 between two local servers).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AnyIgError, RawResponse, SyncIO } from '../src';
import {
  baseUrlRefusal,
  docsNote,
  docsOf,
  docsUrl,
  driveAsync,
  driveSync,
  fetchIO,
  isLoopbackHost,
  originOfUrl,
  prepare,
  send,
  userMessage,
} from '../src';

const KEY = 'sk_test_secret_123';

test('https anywhere; http only to this machine as written (localhost, 127.0.0.0/8, [::1]); anything unread refused', () => {
  for (const ok of [
    'https://api.igdata.dev',
    'https://gw.example.com:8443/igdata/',
    'http://127.0.0.1:4010',
    'http://127.8.9.10',
    'http://localhost:4010/',
    'http://LOCALHOST',
    'http://[::1]:4010',
  ])
    expect([ok, baseUrlRefusal(ok)]).toEqual([ok, undefined]);
  const why =
    'Base URL must be an https:// address (http:// only to this machine: localhost, 127.0.0.1, [::1]), since over ' +
    'http:// the API key would cross the network unencrypted';
  expect(baseUrlRefusal('http://api.example.invalid')).toBe(`${why}; got "http://api.example.invalid".`);
  for (const no of [
    'http://api.example.invalid',
    'http://vm:4010', // this machine's name: it resolves to loopback, but the rule reads what is written
    'http://10.0.0.5',
    'http://127.0.0.1.evil.example',
    'http://0x7f.1', // a parser's 127.0.0.1: refused, as anything the rule does not read as loopback
    'http://localhost.',
    'http://[::ffff:7f00:1]',
    'ftp://127.0.0.1',
  ])
    expect([no, baseUrlRefusal(no)]).toEqual([no, expect.stringMatching(/^Base URL must be an https:\/\/ address/)]);
  // Written so that a parser and the rule could see different hosts: not read, so refused.
  for (const odd of [
    'http://a.example\\@127.0.0.1',
    'http://a.example@127.0.0.1',
    'https://x.example?y',
    'not a url',
    '',
  ])
    expect([odd, baseUrlRefusal(odd)]).toEqual([odd, expect.stringContaining('written like https://api.example.com')]);
  expect(isLoopbackHost('[::1]')).toBe(true);
  expect(isLoopbackHost('128.0.0.1')).toBe(false);
});

test("docsUrl: the service's error.docs link on the base URL's own origin; anything that could name another host is dropped", () => {
  const base = 'https://api.example.com/v1';
  expect(docsUrl(base, '/docs/errors#not_found')).toBe('https://api.example.com/docs/errors#not_found');
  expect(docsUrl('http://127.0.0.1:4010', '/docs/errors')).toBe('http://127.0.0.1:4010/docs/errors');
  for (const link of [
    'https://evil.example/docs',
    '//evil.example/docs',
    '/\\evil.example',
    'docs/errors',
    '/docs/errors?x=1',
    '/docs/errors#a b',
    '/docs/@evil',
    'javascript:alert(1)',
    42,
    undefined,
  ])
    expect(docsUrl(base, link)).toBeUndefined();
});

test('originOfUrl: scheme, host and port, default ports left out; undefined for a relative link', () => {
  expect(originOfUrl('HTTPS://API.Example.com:443/v1/x?y#z')).toBe('https://api.example.com');
  expect(originOfUrl('http://user:pw@127.0.0.1:8080/x')).toBe('http://127.0.0.1:8080');
  expect(originOfUrl('http://[::1]:80/')).toBe('http://[::1]');
  expect(originOfUrl('/v1/profile')).toBeUndefined();
});

test('an http:// base URL to another machine: refused before any request, the sentence says why, nothing charged', () => {
  const sent: string[] = [];
  const io: SyncIO = {
    fetch: (r) => {
      sent.push(r.url);
      return { status: 200, headers: {}, body: '{}' };
    },
    fetchAll: (rs) => rs.map(() => ({ status: 200, headers: {}, body: '{}' })),
    sleep: () => undefined,
  };
  let error: unknown;
  try {
    driveSync(send({ apiKey: KEY, baseUrl: 'http://api.example.invalid' }, prepare('credits', {})), io);
  } catch (e) {
    error = e;
  }
  expect(sent).toEqual([]);
  expect(userMessage(error as never, { keyWhere: 'x' })).toBe(
    'Base URL must be an https:// address (http:// only to this machine: localhost, 127.0.0.1, [::1]), since over http:// ' +
      'the API key would cross the network unencrypted; got "http://api.example.invalid". (Not charged.)',
  );
});

test('fetchIO: a base URL answering 302 to a second local server: never followed, sent once, the error names where it pointed', async () => {
  const heard: { server: string; key: unknown }[] = [];
  const listen = async (name: string, answer: (req: http.IncomingMessage, res: http.ServerResponse) => void) => {
    const server = http.createServer((req, res) => {
      heard.push({ server: name, key: req.headers.authorization });
      answer(req, res);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  };
  const elsewhere = await listen('elsewhere', (_req, res) => res.end('{"data":{},"meta":{}}'));
  const base = await listen('base', (req, res) => {
    res.writeHead(302, { location: `${elsewhere.url}${req.url}` });
    res.end();
  });
  try {
    const error = await driveAsync(send({ apiKey: KEY, baseUrl: base.url }, prepare('credits', {})), fetchIO()).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(heard).toEqual([{ server: 'base', key: `Bearer ${KEY}` }]);
    expect(userMessage(error as never, { keyWhere: 'x' })).toBe(
      `The service answered HTTP 302 (redirect_refused): the Base URL redirected the request to ${elsewhere.url}; ` +
        'the API key goes only to the Base URL, so the redirect was not followed. If that address serves the API, set ' +
        'it as the Base URL. (Not charged.)',
    );
  } finally {
    base.server.close();
    elsewhere.server.close();
  }
});

test('a relative redirect is refused too, and its text never carries the key', () => {
  const res: RawResponse = { status: 301, headers: { location: `/v1/credits?k=${KEY}` }, body: '' };
  const io: SyncIO = { fetch: () => res, fetchAll: (rs) => rs.map(() => res), sleep: () => undefined };
  let error: unknown;
  try {
    driveSync(send({ apiKey: KEY, baseUrl: 'https://api.test' }, prepare('credits', {})), io);
  } catch (e) {
    error = e;
  }
  const message = userMessage(error as never, { keyWhere: 'x' });
  expect(message).toContain('the Base URL redirected the request; the API key goes only to the Base URL');
  expect(message).not.toContain(KEY);
});

test("an error answer's docs link: read on the base URL's origin (docsOf, docsNote); a link to another host is dropped", () => {
  const failWith = (docs: string) => {
    const res: RawResponse = {
      status: 402,
      headers: {},
      body: JSON.stringify({ error: { code: 'insufficient_credits', message: 'No credits left', docs } }),
    };
    const io: SyncIO = { fetch: () => res, fetchAll: (rs) => rs.map(() => res), sleep: () => undefined };
    try {
      driveSync(send({ apiKey: KEY, baseUrl: 'https://api.test/v1' }, prepare('credits', {})), io);
    } catch (e) {
      return e as AnyIgError;
    }
    throw new Error('no error');
  };
  const paid = failWith('/docs/errors#insufficient_credits');
  expect(docsOf(paid)).toBe('https://api.test/docs/errors#insufficient_credits');
  expect(docsNote(paid)).toBe('More about this error: https://api.test/docs/errors#insufficient_credits');
  const elsewhere = failWith('https://evil.example/docs');
  expect([docsOf(elsewhere), docsNote(elsewhere)]).toEqual([undefined, '']);
});
