/**
 * What leaves a real n8n (2.8.4, and 2.41.1 in the jest project n8n-newest) for a host it should
 * not reach (issue 38), against the sandbox in this jest process:
 * - media links: a link naming this machine's own host name (it resolves to 127.0.0.1), the Base
 *   URL's host on another port, and an allowed link (the Base URL's own address) that redirects to
 *   this machine's name: the internal server receives no request, each item says why; a host that
 *   sends headers and then a byte a second fails at Options > Media Time Limit;
 * - the key: a Base URL that answers 302 to a second local server: that server hears nothing, the
 *   item says why; an http:// Base URL naming another host: refused before any request.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { lookup as dnsLookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { drawPicture } from '../../scripts/sandbox/media/pictures';
import type { N8nWorld } from './setup';
import { rt, setupN8n, teardownN8n } from './setup';

jest.setTimeout(300_000);

interface Heard {
  host: string;
  path: string;
  authorization: string | undefined;
}

/** A server on this machine that records what it hears. */
async function listen(
  answer: (req: http.IncomingMessage, res: http.ServerResponse) => void,
  address = '127.0.0.1',
): Promise<{ heard: Heard[]; port: number; url: string; close: () => Promise<unknown> }> {
  const heard: Heard[] = [];
  const server = http.createServer((req, res) => {
    heard.push({ host: String(req.headers.host), path: req.url ?? '', authorization: req.headers.authorization });
    answer(req, res);
  });
  await new Promise<void>((r) => server.listen(0, address, r));
  const port = (server.address() as AddressInfo).port;
  return {
    heard,
    port,
    url: `http://127.0.0.1:${port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(r));
    },
  };
}

let world: N8nWorld;
let intranet: Awaited<ReturnType<typeof listen>>;
let front: Awaited<ReturnType<typeof listen>>;
let elsewhere: Awaited<ReturnType<typeof listen>>;
let redirector: Awaited<ReturnType<typeof listen>>;
/** What a trickling answer's connection did: closed by n8n at the time limit. */
const trickle = { bytes: 0, closed: false };
/** Picture links as the front rewrites them: a profile's by username, a post's image by shortcode. */
let pictures: Record<string, string> = {};
const NAME = hostname();

beforeAll(async () => {
  world = await setupN8n();
  // This machine's own name resolves to loopback: the internal server a stranger's link may name.
  expect((await dnsLookup(NAME)).address).toMatch(/^127\./);
  intranet = await listen((_req, res) => {
    res.writeHead(200, { 'content-type': 'image/png' });
    res.end(drawPicture('u', 'intranet'));
  }, '0.0.0.0');
  // The Base URL of the media tests: the sandbox behind a front that rewrites picture links, redirects and trickles.
  front = await listen((req, res) => {
    if (req.url === '/media/redirect.png') {
      res.writeHead(302, { location: `http://${NAME}:${intranet.port}/p/redirected.png` });
      return void res.end();
    }
    if (req.url === '/media/trickle.png') {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': '100000' });
      const drip = setInterval(() => {
        trickle.bytes++;
        res.write(Buffer.from([0]));
      }, 1000);
      res.on('close', () => {
        clearInterval(drip);
        trickle.closed = true;
      });
      return;
    }
    const upstream = http.request(`${world.sb.url}${req.url}`, { method: req.method, headers: req.headers }, (a) => {
      if (!req.url?.startsWith('/v1/profile?') && !req.url?.startsWith('/v1/post?')) {
        res.writeHead(a.statusCode ?? 502, a.headers);
        return void a.pipe(res);
      }
      let text = '';
      a.setEncoding('utf8');
      a.on('data', (c: string) => (text += c));
      a.on('end', () => {
        const body = JSON.parse(text);
        if (pictures[body.data?.username]) body.data.profile_pic_url = pictures[body.data.username];
        if (pictures[body.data?.shortcode]) body.data.image_url = pictures[body.data.shortcode];
        res.writeHead(a.statusCode ?? 502, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      });
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  elsewhere = await listen((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"data":{},"meta":{}}');
  });
  redirector = await listen((req, res) => {
    res.writeHead(302, { location: `${elsewhere.url}${req.url}` });
    res.end();
  });
  const data = (baseUrl: string) => ({ apiKey: world.apiKey, baseUrl });
  await rt.importCredentials(world.home, [
    { id: 'igBorderFront', name: 'IG Data via front', type: 'igDataApi', data: data(front.url) },
    { id: 'igBorderRedirect', name: 'IG Data redirecting', type: 'igDataApi', data: data(redirector.url) },
    {
      id: 'igBorderPlain',
      name: 'IG Data over http',
      type: 'igDataApi',
      data: data(`http://${NAME}:${intranet.port}`),
    },
  ]);
});
afterAll(async () => {
  for (const s of [intranet, front, elsewhere, redirector]) await s?.close();
  await teardownN8n(world);
});
beforeEach(() => {
  for (const s of [intranet, front, elsewhere, redirector]) s.heard.length = 0;
  pictures = {};
});

const manual = { id: 'm1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0] };
/** Profile (or post) lookups one after the other, each its own node; `options` as the node's Options; errors as items with Continue On Fail. */
function lookups(
  credential: string,
  nodes: { name: string; handle?: string; post?: string; options?: Record<string, unknown> }[],
  continueOnFail = false,
) {
  const all = [
    { ...manual, parameters: {} },
    ...nodes.map((n, i) => ({
      id: n.name,
      name: n.name,
      type: 'n8n-nodes-igdata.igData',
      typeVersion: 1,
      position: [200 * (i + 1), 0],
      parameters: n.post
        ? { resource: 'post', operation: 'post', post: n.post, options: n.options ?? {} }
        : { resource: 'profile', operation: 'profile', handle: n.handle, options: n.options ?? {} },
      credentials: { igDataApi: { id: credential, name: credential } },
      ...(continueOnFail ? { onError: 'continueRegularOutput' } : {}),
    })),
  ];
  return {
    name: 'igdata borders test',
    nodes: all,
    connections: Object.fromEntries(
      all.slice(0, -1).map((n, i) => [n.name, { main: [[{ node: all[i + 1].name, type: 'main', index: 0 }]] }]),
    ),
  };
}
type Item = { json: Record<string, any>; binary?: Record<string, unknown> };
const out = (r: { run: unknown }, node: string) => rt.nodeOutput(r.run, node, { full: true }) as Item[];
const picture = { downloadMedia: ['profile_pic_url'] };

test("an image_url naming this machine's host name, a picture on the Base URL's host at another port, an allowed link redirecting there: the internal server hears nothing, each item says why", async () => {
  pictures = {
    CmiJGWA9jpk: `http://${NAME}:${intranet.port}/p/CmiJGWA9jpk.png`,
    natgeo: `http://127.0.0.1:${intranet.port}/p/natgeo.png`,
    bbcnews: `${front.url}/media/redirect.png`,
  };
  const r = await rt.runWorkflow(
    world.home,
    lookups('igBorderFront', [
      { name: 'Name', post: 'CmiJGWA9jpk', options: { downloadMedia: ['image_url'] } },
      { name: 'Port', handle: 'natgeo', options: picture },
      { name: 'Redirect', handle: 'bbcnews', options: picture },
    ]),
  );
  expect(r.error).toBeUndefined();
  const hosts = `is neither a host of the API's media (https://*.cdninstagram.com, https://*.fbcdn.net) nor the Base URL's address (${front.url}); Options > Media From Any Host allows other hosts`;
  const tail = `${hosts} (profile_pic_url; media downloads are free).`;
  // An answer whose image_url names this machine's own host name.
  const [post] = out(r, 'Name');
  expect(post.json.shortcode).toBe('CmiJGWA9jpk');
  expect(post.binary).toBeUndefined();
  expect(post.json._notice).toBe(
    `The media link was not followed (nothing was sent to it): ${NAME}:${intranet.port} ${hosts} (image_url; media downloads are free).`,
  );
  const [natgeo] = out(r, 'Port');
  expect(natgeo.binary).toBeUndefined();
  expect(natgeo.json._notice).toBe(
    `The media link was not followed (nothing was sent to it): 127.0.0.1:${intranet.port} ${tail}`,
  );
  const [bbc] = out(r, 'Redirect');
  expect(bbc.binary).toBeUndefined();
  expect(bbc.json._notice).toBe(
    `The media link was not followed (nothing was sent to it): ${NAME}:${intranet.port} ${tail}`,
  );
  // The allowed link was asked (its redirect read, not followed); the internal server heard nothing.
  expect(front.heard.filter((h) => h.path.startsWith('/media/'))).toEqual([
    { host: `127.0.0.1:${front.port}`, path: '/media/redirect.png', authorization: undefined },
  ]);
  expect(intranet.heard).toEqual([]);
  expect(world.sb.stats().creditsBilled).toBeGreaterThanOrEqual(3);
});

test('a media host that sends its headers, then a byte a second: dropped at Options > Media Time Limit, the item says so', async () => {
  pictures = { nasa: `${front.url}/media/trickle.png` };
  Object.assign(trickle, { bytes: 0, closed: false });
  const r = await rt.runWorkflow(
    world.home,
    lookups('igBorderFront', [{ name: 'Slow', handle: 'nasa', options: { ...picture, mediaTimeLimit: 3 } }]),
  );
  expect(r.error).toBeUndefined();
  const [nasa] = out(r, 'Slow');
  expect(nasa.json.username).toBe('nasa');
  expect(nasa.binary).toBeUndefined();
  expect(nasa.json._notice).toBe(
    'The download did not finish within 3 s and was dropped (Options > Media Time Limit (Seconds)); try again later (profile_pic_url; media downloads are free).',
  );
  // n8n closed the connection (the server would otherwise drip for 100,000 s), after some bytes had come.
  expect(trickle.closed).toBe(true);
  expect(trickle.bytes).toBeGreaterThan(0);
  expect(trickle.bytes).toBeLessThan(100000);
});

test('a Base URL that answers 302 to a second local server: that server hears nothing, the key went to the Base URL only, the item says why', async () => {
  const r = await rt.runWorkflow(world.home, lookups('igBorderRedirect', [{ name: 'Lookup', handle: 'nasa' }], true));
  expect(elsewhere.heard).toEqual([]);
  expect(redirector.heard).toEqual([
    {
      host: `127.0.0.1:${redirector.port}`,
      path: expect.stringMatching(/^\/v1\/profile\?/),
      authorization: `Bearer ${world.apiKey}`,
    },
  ]);
  const [item] = out(r, 'Lookup');
  expect(item.json.error).toContain(
    `the Base URL redirected the request to ${elsewhere.url}; the API key goes only to the Base URL, so the redirect was not followed. If that address serves the API, set it as the Base URL.`,
  );
  expect(JSON.stringify(item)).not.toContain(world.apiKey);
});

test('an http:// Base URL naming another host (even one that resolves to this machine): refused before any request, with the reason', async () => {
  const r = await rt.runWorkflow(world.home, lookups('igBorderPlain', [{ name: 'Lookup', handle: 'nasa' }], true));
  const [item] = out(r, 'Lookup');
  expect(item.json.error).toContain(
    `Base URL must be an https:// address (http:// only to this machine: localhost, 127.0.0.1, [::1]), since over http:// the API key would cross the network unencrypted; got "http://${NAME}:${intranet.port}".`,
  );
  expect(intranet.heard).toEqual([]);
});
