/**
 * Options > Download Media fetches media only from media links (issue 23), and only from the API's
 * media hosts and the Base URL's address, decided before anything is sent, at every redirect hop
 * (issue 38), in the node's execute() in-process against the sandbox (media-kit.ts); which
 * addresses are private; the time limit of a download.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { isPrivateAddress, refusedLink } from '../../n8n-node/nodes/IgData/address';
import { PNG, execute, isPng, sb, useSandbox } from './media-kit';

jest.setTimeout(60_000);
useSandbox();

describe('media only from media links, never from a private address (issue 23)', () => {
  /** A host on this machine that records what reaches it: an intranet page, as a stranger's link may name. */
  let server: http.Server;
  let port: number;
  const hits: string[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      hits.push(`${req.headers.host}${req.url}`);
      if (req.url === '/trickle.png') {
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': '100000' });
        const drip = setInterval(() => res.write(Buffer.from([0])), 200);
        res.on('close', () => clearInterval(drip));
        return;
      }
      if (req.url?.startsWith('/redirect/')) {
        res.writeHead(302, { location: decodeURIComponent(req.url.slice('/redirect/'.length)) });
        return void res.end();
      }
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(Buffer.from(`${PNG}intranet`, 'hex'));
    });
    await new Promise<void>((r) => server.listen(0, '0.0.0.0', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => new Promise((r) => server.close(r)));
  beforeEach(() => {
    hits.length = 0;
  });
  const profile = (downloadMedia: unknown) => ({
    resource: 'profile',
    operation: 'profile',
    options: { downloadMedia },
  });

  test("={{ 'external_url,profile_pic_url' }}: external_url is never requested; the profile picture arrives as a binary, without the key; the item names the allowed fields", async () => {
    const { out, media, hints } = await execute({
      parameters: profile('external_url,profile_pic_url'), // what the expression gives
      inputs: ['nasa'],
      rewrite: (answer) => (answer.data.external_url = `http://127.0.0.1:${port}/intranet/page`),
    });
    expect(hits).toEqual([]);
    expect(media.map((m) => new URL(m.url).pathname)).toEqual([expect.stringMatching(/^\/media\//)]);
    expect(Object.keys(out[0].binary ?? {})).toEqual(['profile_pic']);
    expect(isPng(out[0].binary!.profile_pic)).toBe(true);
    expect(JSON.stringify(media)).not.toContain(sb.demoKey);
    expect(out[0].json._notice).toBe(
      'Download Media: "external_url" is not a media link of Profile › Get (profile), so it was not downloaded (only media links are). Its media fields: profile_pic_url.',
    );
    expect(hints.map((h) => h.message)).toEqual([`Item 0: ${out[0].json._notice}`]);
    expect(sb.stats().creditsBilled).toBe(1);
  });

  const hostsTail = (base: string) =>
    `is neither a host of the API's media (https://*.cdninstagram.com, https://*.fbcdn.net) nor the Base URL's address (${base}); Options > Media From Any Host allows other hosts (profile_pic_url; media downloads are free).`;

  test.each([
    [
      'a loopback address other than the sandbox host',
      () => `http://127.0.0.2:${port}/p/x.png`,
      () => `127.0.0.2:${port}`,
    ],
    ['IPv6 loopback', () => `http://[::1]:${port}/p/x.png`, () => `[::1]:${port}`],
    ['localhost by name', () => `http://localhost:${port}/p/x.png`, () => `localhost:${port}`],
    [
      'a name that resolves to 127.0.0.1',
      () => `http://cdn.example.test:${port}/p/x.png`,
      () => `cdn.example.test:${port}`,
    ],
    ["the sandbox's host on another port", () => `http://127.0.0.1:${port}/p/x.png`, () => `127.0.0.1:${port}`],
    ['a public-looking host', () => `https://cdn.igdata.dev/p/x.png`, () => `cdn.igdata.dev`],
  ])('%s: refused before anything is sent, the paid answer out with the reason', async (_name, link, shown) => {
    const { out, media } = await execute({
      parameters: profile(['profile_pic_url']),
      inputs: ['nasa'],
      rewrite: (answer) => (answer.data.profile_pic_url = link()),
    });
    expect(out[0].json.username).toBe('nasa');
    expect(out[0].binary).toBeUndefined();
    expect(out[0].json._notice).toBe(
      `The media link was not followed (nothing was sent to it): ${shown()} ${hostsTail(sb.url)}`,
    );
    expect(media).toEqual([]);
    expect(hits).toEqual([]);
  });

  test("a redirect from the Base URL's address to another host: refused at that hop, nothing sent there", async () => {
    const base = `http://127.0.0.1:${port}`;
    const { out } = await execute({
      parameters: profile(['profile_pic_url']),
      inputs: ['nasa'],
      baseUrl: base,
      rewrite: (answer) =>
        (answer.data.profile_pic_url = `${base}/redirect/${encodeURIComponent(`http://127.0.0.2:${port}/p/x.png`)}`),
    });
    expect(out[0].binary).toBeUndefined();
    expect(out[0].json._notice).toBe(
      `The media link was not followed (nothing was sent to it): 127.0.0.2:${port} ${hostsTail(base)}`,
    );
    expect(hits).toEqual([`127.0.0.1:${port}/redirect/${encodeURIComponent(`http://127.0.0.2:${port}/p/x.png`)}`]);
  });

  test('Options > Media From Any Host: other hosts, but never a written private address; a name is checked on the connection where n8n shows it', async () => {
    const run = (link: string) =>
      execute({
        parameters: {
          ...profile(['profile_pic_url']),
          options: { downloadMedia: ['profile_pic_url'], mediaAnyHost: true },
        },
        inputs: ['nasa'],
        rewrite: (answer) => (answer.data.profile_pic_url = link),
      });
    const written = await run(`http://127.0.0.2:${port}/p/x.png`);
    expect(written.out[0].json._notice).toMatch(
      /^The media link was not followed \(nothing was sent to it\): it points at a private address \(127\.0\.0\.2\) \(profile_pic_url/,
    );
    const named = await run(`http://cdn.example.test:${port}/p/x.png`);
    expect(named.out[0].binary).toBeUndefined();
    expect(named.out[0].json._notice).toMatch(
      /^The media link was not followed \(its answer was dropped unread\): cdn\.example\.test resolved to a private address \(127\.0\.0\.1\) \(profile_pic_url/,
    );
    expect(hits).toEqual([`cdn.example.test:${port}/p/x.png`]);
  });

  test('a host that sends its headers, then a byte now and then: dropped at Options > Media Time Limit, the item says so', async () => {
    const base = `http://127.0.0.1:${port}`;
    const { out } = await execute({
      parameters: {
        ...profile(['profile_pic_url']),
        options: { downloadMedia: ['profile_pic_url'], mediaTimeLimit: 1 },
      },
      inputs: ['nasa'],
      baseUrl: base,
      rewrite: (answer) => (answer.data.profile_pic_url = `${base}/trickle.png`),
    });
    expect(out[0].binary).toBeUndefined();
    expect(out[0].json._notice).toBe(
      'The download did not finish within 1 s and was dropped (Options > Media Time Limit (Seconds)); try again later (profile_pic_url; media downloads are free).',
    );
  });

  test("a redirect within the Base URL's address is followed, each hop checked", async () => {
    const base = `http://127.0.0.1:${port}`;
    const { out } = await execute({
      parameters: profile(['profile_pic_url']),
      inputs: ['nasa'],
      baseUrl: base,
      rewrite: (answer) =>
        (answer.data.profile_pic_url = `${base}/redirect/${encodeURIComponent(`${base}/p/final.png`)}`),
    });
    expect(hits).toEqual([expect.stringContaining('/redirect/'), `127.0.0.1:${port}/p/final.png`]);
    expect(isPng(out[0].binary!.profile_pic)).toBe(true);
    expect(out[0].json._notice).toBeUndefined();
  });
});

test('which addresses are private: loopback, private ranges, link-local (cloud metadata), IPv4 in IPv6, written any way the URL parser accepts', () => {
  for (const a of [
    '127.0.0.1',
    '127.8.9.10',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '0.0.0.0',
    '100.64.0.1',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '64:ff9b::a9fe:a9fe',
    '[::1]',
  ]) {
    expect([a, isPrivateAddress(a)]).toEqual([a, true]);
  }
  for (const a of ['8.8.8.8', '172.32.0.1', '151.101.1.69', '2606:4700::6810:85e5', '::ffff:8.8.8.8'])
    expect([a, isPrivateAddress(a)]).toEqual([a, false]);
  expect(isPrivateAddress('cdn.example.com')).toBeUndefined();
  const anyHost = { baseOrigin: 'https://api.igdata.dev', anyHost: true };
  // The URL parser turns other spellings of an address into the dotted one before the check.
  for (const link of [
    'http://2130706433/x.png',
    'http://0x7f.1/x.png',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::ffff:169.254.169.254]/',
    'http://LOCALHOST./x',
    'http://a.localhost/x',
  ]) {
    expect([link, refusedLink(new URL(link), anyHost)]).toEqual([
      link,
      expect.stringMatching(/private address|this machine/),
    ]);
  }
  const border = { baseOrigin: 'http://127.0.0.1:4010', anyHost: false };
  expect(refusedLink(new URL('file:///etc/passwd'), border)).toBe('it is not a web link (file)');
  // Allowed: the Base URL's exact origin, and the API's media hosts over https on the default port.
  for (const link of [
    'http://127.0.0.1:4010/media/p/x.png',
    'https://scontent-lax3-1.cdninstagram.com/v/t51.2885-15/x.jpg?stp=dst&_nc_ht=x',
    'https://instagram.fxyz1-1.fna.fbcdn.net/v/x.jpg',
    'https://cdninstagram.com/x.jpg',
  ])
    expect([link, refusedLink(new URL(link), border)]).toEqual([link, undefined]);
  // Refused: anything else, however close.
  for (const link of [
    'http://127.0.0.1:4011/media/p/x.png',
    'https://127.0.0.1:4010/media/p/x.png',
    'http://scontent.cdninstagram.com/x.jpg',
    'https://scontent.cdninstagram.com:8443/x.jpg',
    'https://evilcdninstagram.com/x.jpg',
    'https://cdninstagram.com.evil.example/x.jpg',
    'https://cdn.igdata.dev/p/x.png',
  ])
    expect([link, refusedLink(new URL(link), border)]).toEqual([link, expect.stringContaining('is neither a host')]);
});
