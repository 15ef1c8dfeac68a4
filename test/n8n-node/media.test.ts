/**
 * Options > Download Media, in-process: the node's execute() and the trigger's poll() with the
 * context n8n gives a node, against the sandbox over real HTTP (its signed, expiring media links).
 * n8n's helpers are stood in for as n8n implements them: httpRequest returns the response stream
 * (node:http's IncomingMessage, what n8n's axios gives for `encoding: 'stream'`) and
 * prepareBinaryData the base64 entry of n8n's default binary mode. The same in real n8n, with
 * n8n's own helpers and the written files: n8n-media.test.ts. Which links are downloaded at all
 * (media links only, never a private address): media-addresses.test.ts.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { INodeExecutionData } from 'n8n-workflow';
import { documentedEndpoints, getEndpoint } from '@igdata/core';
import { IgDataTrigger } from '../../n8n-node/nodes/IgData/IgDataTrigger.node';
import { binaryName, mediaChoices, mediaFields, mediaPaths } from '../../n8n-node/nodes/IgData/media';
import { ALL_POST_MEDIA, execute, isMp4, isPng, postsOf, sb, streamRequest, useSandbox } from './media-kit';

jest.setTimeout(60_000);
useSandbox();

test('which fields are media comes from the registry schemas; one binary property per field', () => {
  expect(mediaPaths(getEndpoint('profile/posts'))).toEqual(['image_url', 'video_url', 'author.profile_pic_url']);
  expect(mediaPaths(getEndpoint('profile'))).toEqual(['profile_pic_url']);
  expect(mediaPaths(getEndpoint('profile/highlights'))).toEqual(['cover_image_url']);
  expect(mediaPaths(getEndpoint('profile/stories'))).toEqual(['image_url', 'video_url']);
  expect(mediaPaths(getEndpoint('insights/profile/engagement'))).toEqual([]);
  expect(mediaChoices(documentedEndpoints).map((c) => [c.value, binaryName(String(c.value))])).toEqual([
    ['cover_image_url', 'cover_image'],
    ['image_url', 'image'],
    ['profile_pic_url', 'profile_pic'],
    ['author.profile_pic_url', 'author_profile_pic'],
    ['profile.profile_pic_url', 'profile_profile_pic'],
    ['video_url', 'video'],
  ]);
  // The option's value as the editor stores it, or as an expression may give it.
  expect(mediaFields(['image_url', 'video_url'])).toEqual(['image_url', 'video_url']);
  expect(mediaFields('image_url, author.profile_pic_url')).toEqual(['image_url', 'author.profile_pic_url']);
  expect(mediaFields(undefined)).toEqual([]);
});

test("a page of posts: each post's image, video (videos only) and author's picture as binary data, one download per link, no credits, no key sent", async () => {
  const { out, media } = await execute({
    parameters: { ...postsOf, options: { downloadMedia: ALL_POST_MEDIA, simplify: true } },
    inputs: ['nasa'],
  });
  expect(out).toHaveLength(12);
  const videos = out.filter((o) => o.json.type === 'video');
  expect(videos.length).toBeGreaterThan(0);
  expect(videos.length).toBeLessThan(12);
  for (const o of out) {
    expect(Object.keys(o.binary ?? {}).sort()).toEqual(
      o.json.type === 'video' ? ['author_profile_pic', 'image', 'video'] : ['author_profile_pic', 'image'],
    );
    expect(isPng(o.binary!.image)).toBe(true);
    expect(o.binary!.image).toMatchObject({
      mimeType: 'image/png',
      fileName: `${o.json.shortcode}.png`,
      fileExtension: 'png',
    });
    expect(isPng(o.binary!.author_profile_pic)).toBe(true);
    if (o.binary!.video) {
      expect(isMp4(o.binary!.video)).toBe(true);
      expect(o.binary!.video).toMatchObject({ mimeType: 'video/mp4', fileName: `${o.json.shortcode}.mp4` });
    }
    expect('_notice' in o.json || 'error' in o.json).toBe(false);
  }
  // 12 images, the videos, and nasa's picture once (every post shares it).
  expect(media).toHaveLength(12 + videos.length + 1);
  const stats = sb.stats();
  expect(stats).toMatchObject({ total: 1, creditsBilled: 2 });
  expect(stats.media).toMatchObject({ requests: 12 + videos.length + 1, byStatus: { 200: 12 + videos.length + 1 } });
  // The key never goes to a media host: no auth header, nothing of the key in what was sent.
  for (const m of media) {
    expect(Object.keys(m.headers).map((h) => h.toLowerCase())).toEqual(
      expect.not.arrayContaining(['authorization', 'x-api-key']),
    );
    expect(m.url).toMatch(/\/media\/.*\?exp=\d+&sig=/);
  }
  expect(JSON.stringify(media)).not.toContain(sb.demoKey);
});

test('without the option nothing is downloaded; items that shared a lookup share its downloads', async () => {
  const plain = await execute({ parameters: { ...postsOf, options: {} }, inputs: ['nasa'] });
  expect(plain.media).toEqual([]);
  expect(plain.out.every((o) => o.binary === undefined)).toBe(true);

  const { out, media } = await execute({
    parameters: { resource: 'profile', operation: 'profile', options: { downloadMedia: ['profile_pic_url'] } },
    inputs: ['nasa', '@NASA', 'natgeo'],
  });
  expect(sb.stats().byEndpoint.profile).toBe(2);
  expect(media).toHaveLength(2);
  expect(out.map((o) => o.binary?.profile_pic?.fileName)).toEqual([
    out[0].binary!.profile_pic.fileName,
    out[0].binary!.profile_pic.fileName,
    out[2].binary!.profile_pic.fileName,
  ]);
  expect(out.every((o) => isPng(o.binary!.profile_pic))).toBe(true);
});

test('downloads keep to the Concurrency option, as lookups do', async () => {
  const { out, media, maxInFlight } = await execute({
    parameters: { ...postsOf, limit: 24, options: { downloadMedia: ['image_url'], concurrency: 3 } },
    inputs: ['nasa'],
    mediaDelayMs: 40,
  });
  expect(out).toHaveLength(24);
  expect(media).toHaveLength(24);
  expect(maxInFlight).toBe(3);
});

test('a medium over the size limit is left out, the item says so in _notice, one warning hint for the execution', async () => {
  // 0.001 MB = 1,048 bytes: below every sandbox picture (the editor's field takes whole megabytes).
  const { out, hints, media } = await execute({
    parameters: { ...postsOf, limit: 3, options: { downloadMedia: ['image_url'], mediaMaxSize: 0.001 } },
    inputs: ['nasa'],
  });
  expect(media).toHaveLength(3);
  for (const o of out) {
    expect(o.binary).toBeUndefined();
    expect(o.json._notice).toMatch(
      /^image_url not downloaded: \d\.\d MB is over the media size limit of 0\.0 MB \(Options > Media Size Limit \(MB\)\)\.$/,
    );
  }
  expect(hints).toEqual([
    {
      message: `Item 0: ${out[0].json._notice} (and 2 more media; see _notice on the items)`,
      type: 'warning',
      location: 'outputPane',
    },
  ]);
});

describe('the size limit when the body is large', () => {
  let server: http.Server;
  let sent = 0;
  let closedEarly = false;
  beforeAll(async () => {
    // 8 MB in 64 KB chunks, one every 5 ms, chunked (no Content-Length): the node must stop at 1 MB.
    server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4' });
      let left = 128;
      const timer = setInterval(() => {
        if (left === 0) return void (clearInterval(timer), res.end());
        left--;
        sent += 65536;
        res.write(Buffer.alloc(65536, 1));
      }, 5);
      res.on('close', () => {
        clearInterval(timer);
        closedEarly = left > 0;
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  });
  afterAll(async () => new Promise((r) => server.close(r)));

  test('no Content-Length, 8 MB at a 1 MB limit: read as a stream, dropped once past the limit, the transfer cut short', async () => {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/big/clip.mp4`;
    const { out } = await execute({
      parameters: {
        resource: 'profile',
        operation: 'profile',
        options: { downloadMedia: ['profile_pic_url'], mediaMaxSize: 1 },
      },
      inputs: ['nasa'],
      baseUrl: new URL(url).origin, // the Base URL's address: allowed
      rewrite: (answer) => (answer.data.profile_pic_url = url),
    });
    expect(out[0].json.username).toBe('nasa');
    expect(out[0].binary).toBeUndefined();
    expect(out[0].json._notice).toBe(
      'profile_pic_url not downloaded: it is larger than the media size limit of 1.0 MB (Options > Media Size Limit (MB)).',
    );
    await new Promise((r) => setTimeout(r, 100));
    expect(closedEarly).toBe(true);
    expect(sent).toBeLessThan(4 * 1048576);
  });

  test('a Content-Length over the limit: not read at all', async () => {
    const big = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(3 * 1048576) });
      res.end(Buffer.alloc(3 * 1048576));
    });
    await new Promise<void>((r) => big.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(big.address() as AddressInfo).port}/p/x.png`;
      const { out } = await execute({
        parameters: {
          resource: 'profile',
          operation: 'profile',
          options: { downloadMedia: ['profile_pic_url'], mediaMaxSize: 2 },
        },
        inputs: ['nasa'],
        baseUrl: new URL(url).origin,
        rewrite: (answer) => (answer.data.profile_pic_url = url),
      });
      expect(out[0].binary).toBeUndefined();
      expect(out[0].json._notice).toBe(
        'profile_pic_url not downloaded: 3.0 MB is over the media size limit of 2.0 MB (Options > Media Size Limit (MB)).',
      );
    } finally {
      await new Promise((r) => big.close(r));
    }
  });
});

describe('an expired link (the sandbox signs links for 1 s; the node downloads after they expired)', () => {
  const EXPIRED =
    'The media link expired (URL signature expired): run the lookup again to get fresh links (image_url; media downloads are free).';
  // Links live one to two windows of mediaTtlSeconds: 2.1 s after the answer every link of it has
  // expired. The sandbox's clock (which links expire against) is moved on by that much instead of
  // waiting it out in real time.
  const late = { afterAnswer: async () => sb.clock.advance(2100) };
  const post = { resource: 'post', operation: 'post', options: { downloadMedia: ['image_url'] } };

  test('Continue On Fail: the item keeps the paid answer, with the error and its code', async () => {
    sb.setFaults({ mediaTtlSeconds: 1 });
    const { out } = await execute({ parameters: post, inputs: ['CmiJGWA9jpk'], continueOnFail: true, ...late });
    expect(out).toHaveLength(1);
    expect(out[0].json).toMatchObject({
      shortcode: 'CmiJGWA9jpk',
      error: EXPIRED,
      code: 'media_link_expired',
      http_status: 403,
    });
    expect(out[0].binary).toBeUndefined();
    expect(sb.stats().media.byStatus).toEqual({ 403: 1 });
    expect(sb.stats().creditsBilled).toBe(1);
  });

  test('without it the execution does not fail: the paid answer comes out without the medium, the sentence in _notice', async () => {
    sb.setFaults({ mediaTtlSeconds: 1 });
    const { out, hints } = await execute({ parameters: post, inputs: ['CmiJGWA9jpk'], ...late });
    expect(out).toHaveLength(1);
    expect(out[0].json).toMatchObject({ shortcode: 'CmiJGWA9jpk', _notice: EXPIRED });
    expect(out[0].json.error).toBeUndefined();
    expect(out[0].binary).toBeUndefined();
    expect(hints.map((h) => h.message)).toEqual([`Item 0: ${EXPIRED}`]);
  });
});

test('the trigger: Download Media on new posts (here its manual run), a failure never fails the poll', async () => {
  const requests: string[] = [];
  const context = (options: Record<string, unknown>) => ({
    getMode: () => 'manual',
    getNodeParameter: (name: string, fallback?: unknown) =>
      (({ event: 'hashtag', tag: 'veganrecipes', options }) as Record<string, unknown>)[name] ?? fallback,
    getNode: () => ({ name: 'IG Data Trigger', type: 'n8n-nodes-igdata.igDataTrigger' }),
    getCredentials: async () => ({ apiKey: sb.demoKey, baseUrl: sb.url }),
    helpers: {
      httpRequestWithAuthentication: async (
        _c: string,
        o: { url: string; method: string; headers: Record<string, string> },
      ) => {
        const res = await fetch(o.url, {
          method: o.method,
          headers: { ...o.headers, authorization: `Bearer ${sb.demoKey}` },
        });
        const headers: Record<string, string> = {};
        res.headers.forEach((v, k) => (headers[k] = v));
        return { statusCode: res.status, headers, body: await res.text() };
      },
      httpRequest: async (o: { url: string }) => {
        requests.push(o.url);
        // The third link is refused by its host: that post comes out all the same, saying why.
        return await streamRequest(requests.length === 3 ? { url: o.url.replace(/sig=\w+/, 'sig=0') } : o);
      },
      prepareBinaryData: async (data: Buffer, fileName?: string, mimeType?: string) => ({
        data: data.toString('base64'),
        mimeType,
        fileName,
      }),
    },
  });
  const [items] = (await new IgDataTrigger().poll.call(
    context({ downloadMedia: ['image_url'], simplify: true }) as never,
  )) as INodeExecutionData[][];
  expect(items).toHaveLength(5);
  expect(requests).toHaveLength(5);
  expect(items.filter((i) => i.binary?.image && isPng(i.binary.image))).toHaveLength(4);
  const refused = items.find((i) => !i.binary)!;
  expect(refused.json._notice).toBe(
    'The media host refused the link (403: URL signature mismatch): run the lookup again to get fresh links (image_url; media downloads are free).',
  );
  expect(sb.stats()).toMatchObject({ creditsBilled: 1, media: { requests: 5, byStatus: { 200: 4, 403: 1 } } });
});
