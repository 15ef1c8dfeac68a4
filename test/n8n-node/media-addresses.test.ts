/**
 * Options > Download Media fetches media only from media links, never from a private address
 * (issue 23), in the node's execute() in-process against the sandbox (media-kit.ts); and which
 * addresses are private.
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

  test.each([
    [
      'a loopback address other than the sandbox host',
      () => `http://127.0.0.2:${port}/p/x.png`,
      'it points at a private address (127.0.0.2)',
    ],
    ['IPv6 loopback', () => `http://[::1]:${port}/p/x.png`, 'it points at a private address (::1)'],
    ['localhost by name', () => `http://localhost:${port}/p/x.png`, 'it points at this machine (localhost)'],
    [
      'a name that resolves to a private address (checked on the connection)',
      () => `http://cdn.example.test:${port}/p/x.png`,
      'cdn.example.test resolved to a private address (127.0.0.1)',
    ],
    [
      'a redirect from the sandbox host to a private address',
      () => `http://127.0.0.1:${port}/redirect/${encodeURIComponent(`http://127.0.0.2:${port}/p/x.png`)}`,
      'it points at a private address (127.0.0.2)',
    ],
  ])('%s: refused, nothing of it read or kept, the paid answer out with the reason', async (_name, link, why) => {
    const { out } = await execute({
      parameters: profile(['profile_pic_url']),
      inputs: ['nasa'],
      rewrite: (answer) => (answer.data.profile_pic_url = link()),
    });
    expect(out[0].json.username).toBe('nasa');
    expect(out[0].binary).toBeUndefined();
    expect(out[0].json._notice).toBe(
      `The media link was not followed: ${why}. Media are downloaded from public addresses only (and from the Base URL's host, for the sandbox) (profile_pic_url; media downloads are free).`,
    );
    expect(hits.filter((h) => !h.includes('/redirect/'))).toEqual(
      why.includes('resolved') ? [`cdn.example.test:${port}/p/x.png`] : [],
    );
  });

  test('a redirect to the sandbox host is followed, each hop checked', async () => {
    const { out } = await execute({
      parameters: profile(['profile_pic_url']),
      inputs: ['nasa'],
      rewrite: (answer) =>
        (answer.data.profile_pic_url = `http://127.0.0.1:${port}/redirect/${encodeURIComponent(`http://127.0.0.1:${port}/p/final.png`)}`),
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
  const trusted = '127.0.0.1';
  // The URL parser turns other spellings of an address into the dotted one before the check.
  for (const link of [
    'http://2130706433/x.png',
    'http://0x7f.1/x.png',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::ffff:169.254.169.254]/',
    'http://LOCALHOST./x',
    'http://a.localhost/x',
  ]) {
    expect([link, refusedLink(new URL(link), 'api.igdata.dev')]).toEqual([
      link,
      expect.stringMatching(/private address|this machine/),
    ]);
  }
  expect(refusedLink(new URL('file:///etc/passwd'), trusted)).toBe('it is not a web link (file)');
  expect(refusedLink(new URL('http://127.0.0.1:4010/media/p/x.png'), trusted)).toBeUndefined(); // the sandbox, the Base URL's host
  expect(refusedLink(new URL('https://cdn.igdata.dev/p/x.png'), 'api.igdata.dev')).toBeUndefined(); // a name: checked once connected
});
