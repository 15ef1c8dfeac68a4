/**
 * The key goes only to the connection's base URL (issue 38), through Zapier's own tester on the
 * built integration: its z.request is Zapier's real HTTP client (node-fetch), which follows
 * redirects unless told not to. A base URL answering 302 to a second server on this machine: that
 * server never hears of the key, the step fails once with a sentence (no retry as a lost
 * connection). An `http://` base URL to another machine: refused before any request.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { app, tester } from './support';

interface Heard {
  host: string;
  path: string;
  key: string | undefined;
}

/** A server on this machine that records what it hears; `answer` writes the answer. */
async function listen(answer: (req: http.IncomingMessage, res: http.ServerResponse) => void, address = '127.0.0.1') {
  const heard: Heard[] = [];
  const server = http.createServer((req, res) => {
    heard.push({ host: String(req.headers.host), path: req.url ?? '', key: req.headers['x-api-key'] as string });
    answer(req, res);
  });
  await new Promise<void>((r) => server.listen(0, address, r));
  const port = (server.address() as AddressInfo).port;
  return { heard, port, close: () => new Promise((r) => server.close(r)) };
}

const KEY = 'sk_test_zapier_border_0001';
const run = (key: string, baseUrl: string, inputData: Record<string, unknown>) =>
  tester()(app.searches[key].operation.perform, { authData: { apiKey: KEY, baseUrl }, inputData, meta: {} } as any);
const connectionTest = (baseUrl: string) =>
  tester()(app.authentication.test, { authData: { apiKey: KEY, baseUrl }, inputData: {}, meta: {} } as any);

test('a base URL that answers 302 to a second server: that server never sees a request, the key is sent once, and the step says why', async () => {
  const elsewhere = await listen((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"data":{},"meta":{}}');
  });
  const base = await listen((req, res) => {
    res.writeHead(302, { location: `http://127.0.0.1:${elsewhere.port}${req.url}` });
    res.end();
  });
  try {
    for (const step of [
      () => run('profile', `http://127.0.0.1:${base.port}`, { handle: 'nasa' }),
      () => connectionTest(`http://127.0.0.1:${base.port}`),
    ]) {
      base.heard.length = 0;
      const error = await step().then(
        () => undefined,
        (e: Error) => e,
      );
      expect(error?.message).toContain(
        `the Base URL redirected the request to http://127.0.0.1:${elsewhere.port}; the API key goes only to the Base URL, so the redirect was not followed. If that address serves the API, set it as the Base URL.`,
      );
      expect(error?.message).not.toContain(KEY);
      // Sent once (a redirect is an answer, not a lost connection to retry), with the key, to the base URL only.
      expect(base.heard).toEqual([
        { host: `127.0.0.1:${base.port}`, path: expect.stringMatching(/^\/v1\//), key: KEY },
      ]);
    }
    expect(elsewhere.heard).toEqual([]);
  } finally {
    await base.close();
    await elsewhere.close();
  }
});

test('http:// to another machine is refused before any request, with the reason; https:// and http:// to this machine are not', async () => {
  // This machine's own name, on a server listening on every interface: had anything been sent, it would have heard it.
  const server = await listen((_req, res) => res.end(), '0.0.0.0');
  try {
    const baseUrl = `http://${hostname()}:${server.port}`;
    const sentence = `Base URL must be an https:// address (http:// only to this machine: localhost, 127.0.0.1, [::1]), since over http:// the API key would cross the network unencrypted; got "${baseUrl}".`;
    for (const step of [() => run('profile', baseUrl, { handle: 'nasa' }), () => connectionTest(baseUrl)]) {
      const error = await step().then(
        () => undefined,
        (e: Error) => e,
      );
      expect(error?.message).toContain(sentence);
    }
    const viaIp = `http://[::ffff:7f00:1]:${server.port}`; // a loopback written as IPv6-mapped: not on the list
    await expect(connectionTest(viaIp)).rejects.toThrow('Base URL must be an https:// address');
    expect(server.heard).toEqual([]);
  } finally {
    await server.close();
  }
});
