/**
 * Issue 16 in a real n8n (2.8.4, and 2.41.1 in the jest project n8n-newest), headless, against the
 * sandbox in this jest process:
 * - Options > Download Media: binary properties n8n's own Read/Write Files node writes to disk,
 *   byte for byte the sandbox's pictures; media free (stats.media), the key never sent to a media
 *   host (recorded by a proxy the answers' links point to); an expired link under Continue On Fail;
 * - the shipped example n8n-node/examples/hashtag-images-to-disk.json: new #veganrecipes posts from
 *   the trigger across two real polls, their images written as files; credits = page requests.
 * The node as an AI agent's tool and n8n's MCP Client node: n8n-tools.test.ts.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { lookup as dnsLookup } from 'node:dns/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { drawPicture } from '../../scripts/sandbox/media/pictures';
import { isPrivateAddress } from '../../n8n-node/nodes/IgData/address';
import type { N8nWorld } from './setup';
import { root, rt, setupN8n, teardownN8n } from './setup';

jest.setTimeout(300_000);

let world: N8nWorld;
let sb: N8nWorld['sb'];
let home: N8nWorld['home'];
let apiKey: string;
let dir: string;

beforeAll(async () => {
  // The examples' credential (n8n-node/examples) as well as the tests' own.
  world = await setupN8n([{ id: 'igDataSandboxCred', name: 'IG Data (sandbox)' }]);
  ({ sb, home, apiKey } = world);
  dir = mkdtempSync(join(tmpdir(), 'igdata-n8n-media-'));
});
afterAll(async () => {
  await teardownN8n(world);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A folder n8n may write to: n8n 2.x writes files only inside N8N_RESTRICT_FILE_ACCESS_TO. */
function filesDir(name: string): { path: string; env: Record<string, string> } {
  const path = join(dir, name);
  mkdirSync(path);
  return { path, env: { N8N_RESTRICT_FILE_ACCESS_TO: path } };
}

const manual = {
  id: 'm1',
  name: 'Start',
  type: 'n8n-nodes-base.manualTrigger',
  typeVersion: 1,
  position: [0, 0],
  parameters: {},
};
const save = (fileName: string, property: string) => ({
  id: 'w1',
  name: 'Save',
  type: 'n8n-nodes-base.readWriteFile',
  typeVersion: 1.1,
  position: [400, 0],
  parameters: { operation: 'write', fileName, dataPropertyName: property, options: {} },
});
const chain = (nodes: Record<string, unknown>[]) => ({
  name: 'igdata media test',
  nodes: [manual, ...nodes],
  connections: Object.fromEntries(
    [manual, ...nodes]
      .slice(0, -1)
      .map((n, i) => [n.name, { main: [[{ node: nodes[i].name, type: 'main', index: 0 }]] }]),
  ),
});
type Item = { json: Record<string, any>; binary?: Record<string, Record<string, any>>; pairedItem?: { item: number } };
const out = (r: { run: unknown }, node: string) => rt.nodeOutput(r.run, node, { full: true }) as Item[];

/** The picture the sandbox serves for a media link (drawn from its path alone). */
const pictureOf = (link: string) => {
  const [, kind, name] = /\/media\/(\w+)\/([\w.-]+)\.png\?/.exec(link) ?? [];
  return drawPicture(kind, name);
};

describe('Options > Download Media in a real run', () => {
  /** A proxy the credential points at: answers' links then point at it too (the sandbox signs for the Host it was reached at). */
  let proxy: http.Server;
  let proxyUrl: string;
  const seen: { path: string; headers: http.IncomingHttpHeaders }[] = [];
  let mediaDelayMs = 0;
  /** Edits profile answers on their way to n8n (links a stranger could have set). */
  let rewriteProfile: ((data: Record<string, unknown>) => void) | undefined;
  beforeAll(async () => {
    proxy = http.createServer((req, res) => {
      seen.push({ path: req.url ?? '', headers: { ...req.headers } });
      const go = () => {
        const upstream = http.request(`${sb.url}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
          if (rewriteProfile && req.url?.startsWith('/v1/profile?')) {
            let text = '';
            answer.setEncoding('utf8');
            answer.on('data', (c: string) => (text += c));
            answer.on('end', () => {
              const body = JSON.parse(text);
              rewriteProfile!(body.data);
              const out = JSON.stringify(body);
              res.writeHead(answer.statusCode ?? 502, {
                ...answer.headers,
                'content-length': String(Buffer.byteLength(out)),
              });
              res.end(out);
            });
            return;
          }
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        });
        upstream.on('error', () => res.destroy());
        req.pipe(upstream);
      };
      if (req.url?.startsWith('/media/') && mediaDelayMs) setTimeout(go, mediaDelayMs);
      else go();
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    await rt.importCredentials(home, [
      { id: 'igMediaProxyCred', name: 'IG Data via proxy', type: 'igDataApi', data: { apiKey, baseUrl: proxyUrl } },
    ]);
  });
  afterAll(async () => {
    sb.setFaults({ mediaTtlSeconds: 7 * 24 * 3600 });
    await new Promise((r) => proxy.close(r));
  });
  beforeEach(() => {
    seen.length = 0;
    mediaDelayMs = 0;
    rewriteProfile = undefined;
    sb.setFaults({ mediaTtlSeconds: 7 * 24 * 3600 });
    sb.resetStats();
  });
  const viaProxy = { igDataApi: { id: 'igMediaProxyCred', name: 'IG Data via proxy' } };

  test("a page of posts with their images and videos as binary data; Read/Write Files writes the images, the sandbox's bytes; free; no key to the media host", async () => {
    const files = filesDir('posts');
    const posts = {
      id: 'p1',
      name: 'Posts',
      type: 'n8n-nodes-igdata.igData',
      typeVersion: 1,
      position: [200, 0],
      parameters: {
        resource: 'profile',
        operation: 'profile/posts',
        handle: 'nasa',
        limit: 12,
        options: { downloadMedia: ['image_url', 'video_url'], simplify: true },
      },
      credentials: viaProxy,
    };
    const r = await rt.runWorkflow(
      home,
      chain([posts, save(`=${files.path}/{{ $json.shortcode }}.{{ $binary.image.fileExtension }}`, 'image')]),
      { env: files.env },
    );
    expect(r.error).toBeUndefined();
    const items = out(r, 'Posts');
    expect(items).toHaveLength(12);
    const videos = items.filter((i) => i.json.type === 'video').length;
    expect(videos).toBeGreaterThan(0);
    for (const i of items) {
      expect(i.binary?.image).toMatchObject({
        mimeType: 'image/png',
        fileExtension: 'png',
        fileName: `${i.json.shortcode}.png`,
      });
      if (i.json.type === 'video')
        expect(i.binary?.video).toMatchObject({
          mimeType: 'video/mp4',
          fileExtension: 'mp4',
          fileName: `${i.json.shortcode}.mp4`,
        });
      else expect(i.binary?.video).toBeUndefined();
    }
    // The written files are the sandbox's pictures, byte for byte.
    const written = readdirSync(files.path).sort();
    expect(written).toEqual(items.map((i) => `${i.json.shortcode}.png`).sort());
    const mediaSeen = seen.filter((s) => s.path.startsWith('/media/'));
    for (const s of mediaSeen.filter((m) => m.path.includes('.png'))) {
      const name = /\/media\/p\/([\w-]+)\.png/.exec(s.path)![1];
      expect(readFileSync(join(files.path, `${name}.png`)).equals(pictureOf(s.path))).toBe(true);
    }
    // One page billed; the media were free and went past the API counters.
    expect(sb.stats()).toMatchObject({
      total: 1,
      creditsBilled: 2,
      media: { requests: 12 + videos, byStatus: { [200]: 12 + videos } },
    });
    // What n8n sent to the media host (the proxy): no auth header, nothing of the key.
    expect(mediaSeen).toHaveLength(12 + videos);
    for (const s of mediaSeen) {
      expect(Object.keys(s.headers)).toEqual(expect.not.arrayContaining(['authorization', 'x-api-key']));
      expect(JSON.stringify(s.headers)).not.toContain(apiKey);
    }
    expect(seen.find((s) => s.path.startsWith('/v1/'))?.headers.authorization).toBe(`Bearer ${apiKey}`);
    expect(r.stdout + r.stderr).not.toContain(apiKey);
  });

  test("Download Media ={{ 'external_url,profile_pic_url' }}: external_url never requested, the profile picture a binary without the key; links to a private address or to a name resolving to one refused, nothing sent", async () => {
    // A host on this machine recording what reaches it: the intranet a stranger's link may name.
    const hits: string[] = [];
    const intranet = http.createServer((req, res) => {
      hits.push(`${req.headers.host}${req.url}`);
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(drawPicture('u', 'intranet'));
    });
    await new Promise<void>((r) => intranet.listen(0, '0.0.0.0', r));
    const port = (intranet.address() as AddressInfo).port;
    // This machine's own name resolves to one of its own, private addresses (not the Base URL's host).
    const name = hostname();
    const resolved = (await dnsLookup(name)).address;
    expect(isPrivateAddress(resolved)).toBe(true);
    try {
      rewriteProfile = (data) => {
        if (data.username === 'nasa') data.external_url = `http://127.0.0.1:${port}/intranet/page`;
        if (data.username === 'natgeo') data.profile_pic_url = `http://127.0.0.2:${port}/p/natgeo.png`;
        if (data.username === 'bbcnews') data.profile_pic_url = `http://${name}:${port}/p/bbcnews.png`;
      };
      const node = (label: string, handle: string, downloadMedia: unknown, x: number) => ({
        id: label,
        name: label,
        type: 'n8n-nodes-igdata.igData',
        typeVersion: 1,
        position: [x, 0],
        parameters: { resource: 'profile', operation: 'profile', handle, options: { downloadMedia } },
        credentials: viaProxy,
      });
      const r = await rt.runWorkflow(
        home,
        chain([
          node('Expression', 'nasa', "={{ 'external_url,profile_pic_url' }}", 200),
          node('Private', 'natgeo', ['profile_pic_url'], 400),
          node('Resolved', 'bbcnews', ['profile_pic_url'], 600),
        ]),
      );
      expect(r.error).toBeUndefined();
      const [nasa] = out(r, 'Expression');
      expect(Object.keys(nasa.binary ?? {})).toEqual(['profile_pic']);
      expect(nasa.binary!.profile_pic).toMatchObject({ mimeType: 'image/png' });
      expect(nasa.json._notice).toBe(
        'Download Media: "external_url" is not a media link of Profile › Get (profile), so it was not downloaded (only media links are). Its media fields: profile_pic_url.',
      );
      // Neither link is the API's media host nor the Base URL's address: refused before anything is sent, on both versions.
      const tail = `is neither a host of the API's media (https://*.cdninstagram.com, https://*.fbcdn.net) nor the Base URL's address (${proxyUrl}); Options > Media From Any Host allows other hosts (profile_pic_url; media downloads are free).`;
      const [natgeo] = out(r, 'Private');
      expect(natgeo.json.username).toBe('natgeo');
      expect(natgeo.binary).toBeUndefined();
      expect(natgeo.json._notice).toBe(
        `The media link was not followed (nothing was sent to it): 127.0.0.2:${port} ${tail}`,
      );
      const [bbc] = out(r, 'Resolved');
      expect(bbc.binary).toBeUndefined();
      expect(bbc.json._notice).toBe(
        `The media link was not followed (nothing was sent to it): ${name}:${port} ${tail}`,
      );
      // Nothing reached the intranet host (on main, n8n 2.8.4 sent the request to the name and 2.41.1 downloaded it).
      expect(hits).toEqual([]);
      const mediaSeen = seen.filter((s) => s.path.startsWith('/media/'));
      expect(mediaSeen).toHaveLength(1); // nasa's picture
      expect(JSON.stringify(mediaSeen)).not.toContain(apiKey);
      expect(sb.stats().creditsBilled).toBe(3);
      expect(r.stdout + r.stderr).not.toContain(apiKey);
    } finally {
      await new Promise((res) => intranet.close(res));
    }
  });

  test('an expired link: under Continue On Fail the paid answer stays with the error; without it, with the sentence in _notice (the execution does not fail)', async () => {
    // Links of 1 s, and the media host (the proxy) answering 2.5 s late: every link has expired.
    sb.setFaults({ mediaTtlSeconds: 1 });
    mediaDelayMs = 2500;
    const post = (onError?: string) => ({
      id: 'p2',
      name: 'Post',
      type: 'n8n-nodes-igdata.igData',
      typeVersion: 1,
      position: [200, 0],
      parameters: {
        resource: 'post',
        operation: 'post',
        post: 'CmiJGWA9jpk',
        options: { downloadMedia: ['image_url'] },
      },
      credentials: viaProxy,
      ...(onError ? { onError } : {}),
    });
    const message =
      'The media link expired (URL signature expired): run the lookup again to get fresh links (image_url; media downloads are free).';
    const kept = await rt.runWorkflow(home, chain([post('continueRegularOutput')]));
    expect(kept.error).toBeUndefined();
    const [item] = out(kept, 'Post');
    expect(item.json).toMatchObject({
      shortcode: 'CmiJGWA9jpk',
      error: message,
      code: 'media_link_expired',
      http_status: 403,
    });
    expect(item.binary).toBeUndefined();

    // Without Continue On Fail the execution still succeeds: the paid answer, the sentence in _notice.
    const noticed = await rt.runWorkflow(home, chain([post()]));
    expect(noticed.error).toBeUndefined();
    const [plain] = out(noticed, 'Post');
    expect(plain.json).toMatchObject({ shortcode: 'CmiJGWA9jpk', _notice: message });
    expect(plain.binary).toBeUndefined();
    expect(sb.stats()).toMatchObject({ creditsBilled: 2, media: { requests: 2, byStatus: { [403]: 2 } } });
  });
});

test('the example "#veganrecipes images to disk": new posts from the trigger across real polls, their images written as files; credits = page requests, media free', async () => {
  const wf = JSON.parse(readFileSync(join(root, 'n8n-node/examples/hashtag-images-to-disk.json'), 'utf8'));
  const writer = wf.nodes.find((n: { type: string }) => n.type === 'n8n-nodes-base.readWriteFile');
  const shipped = '/home/node/.n8n-files/igdata-images/';
  expect(writer.parameters.fileName.startsWith(`=${shipped}`)).toBe(true);
  // The only change: the folder (the shipped one is n8n's Docker image's), inside the allowed one.
  const files = filesDir('example');
  writer.parameters.fileName = writer.parameters.fileName.replace(shipped, `${files.path}/`);
  sb.resetStats();

  const first = await rt.pollOnce(home, wf, { env: files.env });
  expect(first.activationError).toBeUndefined();
  expect(first.activated).toBe(true);
  expect(first.executions).toEqual([]); // the first poll records where the feed stands
  const three = sb.addPosts('veganrecipes', 3);
  const second = await rt.pollOnce(home, first.id, { env: files.env });
  expect(second.executions).toHaveLength(1);
  expect(second.executions[0].status).toBe('success');

  const emitted = rt.nodeOutput(second.executions[0].run, 'New #veganrecipes posts', { full: true }) as Item[];
  expect(emitted.map((i) => i.json.shortcode)).toEqual(three.map((p) => p.shortcode).reverse());
  for (const i of emitted)
    expect(i.binary?.image).toMatchObject({ mimeType: 'image/png', fileName: `${i.json.shortcode}.png` });
  expect(second.executions[0].items.map((i: { fileName: string }) => i.fileName)).toEqual(
    emitted.map((i) => `${files.path}/${i.json.shortcode}.png`),
  );
  expect(readdirSync(files.path).sort()).toEqual(three.map((p) => `${p.shortcode}.png`).sort());
  for (const p of three)
    expect(readFileSync(join(files.path, `${p.shortcode}.png`)).equals(drawPicture('p', p.shortcode))).toBe(true);

  // Credits are the pages of #veganrecipes read (one per poll); the three images cost nothing.
  const stats = sb.stats();
  expect(stats.byEndpoint).toEqual({ 'hashtag/recent': 2 });
  expect(stats.creditsBilled).toBe(stats.byEndpoint['hashtag/recent']);
  expect(stats.media).toMatchObject({ requests: 3, byStatus: { [200]: 3 } });
  expect(JSON.stringify(second.executions)).not.toContain(apiKey);
});
