/**
 * Media links of real answers, fetched as a client would: real PNG pictures and a real MP4 on the
 * sandbox itself, deterministic across starts, signed and expiring like CDN links, never billed.
 * The files are checked by programs nobody here wrote where the machine has them (`file`, ffprobe)
 * and by their own structure (PNG chunk CRCs and zlib stream, MP4 boxes) everywhere.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { startSandbox, type Sandbox } from '../../scripts/sandbox/server';
import { TEST_START } from '../support/clock';

let sb: Sandbox;
beforeAll(async () => {
  // sandbox.test: a name a container network could give the sandbox, allowed as IGDATA_LISTEN allows one.
  sb = await startSandbox({ startAt: TEST_START, seed: 42, listen: '127.0.0.1,sandbox.test' });
});
afterAll(() => sb.close());

const api = async (s: Sandbox, path: string) => {
  const res = await fetch(`${s.url}${path}`, { headers: { 'x-api-key': s.demoKey } });
  expect([path, res.status]).toEqual([path, 200]);
  return (await res.json()) as { data: Record<string, unknown> & { items: Record<string, string | null>[] } };
};
const fetchMedia = async (link: string) => {
  const res = await fetch(link);
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
};
/** A nasa reel: its cover picture and its video. */
const reelOf = async (s: Sandbox) =>
  (await api(s, '/v1/profile/reels?handle=nasa')).data.items[0] as { image_url: string; video_url: string };

/** What `file` says about some bytes, if the machine has it. */
function fileSays(bytes: Buffer): string | undefined {
  const path = join(mkdtempSync(join(tmpdir(), 'media-')), 'm');
  writeFileSync(path, bytes);
  try {
    return execFileSync('file', ['-b', path], { encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
}

/** The chunks of a PNG, each CRC checked, and its pixels inflated with zlib. */
function readPng(bytes: Buffer) {
  expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const chunks: { type: string; data: Buffer }[] = [];
  for (let i = 8; i < bytes.length;) {
    const len = bytes.readUInt32BE(i);
    const type = bytes.toString('ascii', i + 4, i + 8);
    const data = bytes.subarray(i + 8, i + 8 + len);
    expect(bytes.readUInt32BE(i + 8 + len)).toBe(crc32(bytes.subarray(i + 4, i + 8 + len)));
    chunks.push({ type, data });
    i += 12 + len;
  }
  const ihdr = chunks[0].data;
  const width = ihdr.readUInt32BE(0);
  const height = ihdr.readUInt32BE(4);
  const pixels = inflateSync(Buffer.concat(chunks.filter((c) => c.type === 'IDAT').map((c) => c.data)));
  return { types: chunks.map((c) => c.type), width, height, depth: ihdr[8], colour: ihdr[9], pixels };
}
function crc32(buf: Buffer): number {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}

/** Top-level MP4 boxes, and whether a box type occurs anywhere. */
function mp4Boxes(bytes: Buffer) {
  const top: { type: string; size: number }[] = [];
  for (let i = 0; i < bytes.length;) {
    const size = bytes.readUInt32BE(i);
    top.push({ type: bytes.toString('ascii', i + 4, i + 8), size });
    expect(size).toBeGreaterThanOrEqual(8);
    i += size;
  }
  return { top, has: (type: string) => bytes.includes(Buffer.from(type, 'ascii')) };
}

test('answers link every media field to this sandbox, signed with an expiry', async () => {
  const profile = (await api(sb, '/v1/profile?handle=nasa')).data;
  const reel = await reelOf(sb);
  const storyOwner = sb.world.accounts.find((a) => !a.is_private && a.liveStories > 0)!;
  const story = (await api(sb, `/v1/profile/stories?handle=${storyOwner.username}`)).data.items[0];
  const highlight = (await api(sb, '/v1/profile/highlights?handle=nasa')).data.items[0];
  const links = [
    profile.profile_pic_url,
    reel.image_url,
    reel.video_url,
    story.image_url,
    highlight.cover_image_url,
  ] as string[];
  for (const link of links)
    expect(link).toMatch(
      new RegExp(`^${sb.url}/media/(avatars|p|v|s|h)/[A-Za-z0-9_.-]+\\.(png|mp4)\\?exp=\\d+&sig=[0-9a-f]{32}$`),
    );
  expect(JSON.stringify(profile)).not.toContain('sandbox-media:');
  expect(JSON.stringify(profile)).not.toContain('media.sandbox.igdata.dev');
  // A week by default: at least that long from the sandbox's now, at most two.
  const exp = Number(/exp=(\d+)/.exec(reel.video_url)![1]);
  expect(exp - sb.clock.now() / 1000).toBeGreaterThan(7 * 86400 - 60);
  expect(exp - sb.clock.now() / 1000).toBeLessThanOrEqual(14 * 86400);
});

test('a picture: 200 image/png, its Content-Length, a valid PNG', async () => {
  const { image_url } = await reelOf(sb);
  const { res, bytes } = await fetchMedia(image_url);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('image/png');
  expect(Number(res.headers.get('content-length'))).toBe(bytes.length);
  expect(bytes.length).toBeGreaterThan(500);
  expect(bytes.length).toBeLessThan(20_000);
  const png = readPng(bytes);
  expect(png).toMatchObject({ types: ['IHDR', 'IDAT', 'IEND'], width: 320, height: 320, depth: 8, colour: 2 });
  expect(png.pixels.length).toBe((320 * 3 + 1) * 320); // one filter byte per row
  const said = fileSays(bytes);
  if (said !== undefined) expect(said).toMatch(/^PNG image data, 320 x 320, 8-bit\/color RGB, non-interlaced/);
  // A story is a 9:16 picture, an avatar a small square.
  const storyOwner = sb.world.accounts.find((a) => !a.is_private && a.liveStories > 0)!;
  const story = (await api(sb, `/v1/profile/stories?handle=${storyOwner.username}`)).data.items[0];
  expect(readPng((await fetchMedia(story.image_url!)).bytes)).toMatchObject({ width: 180, height: 320 });
  const avatar = (await api(sb, '/v1/profile?handle=nasa')).data.profile_pic_url as string;
  expect(readPng((await fetchMedia(avatar)).bytes)).toMatchObject({ width: 150, height: 150 });
});

test('a video: 200 video/mp4, its Content-Length, a playable MP4 (ftyp, moov with an avc1 track, mdat)', async () => {
  const { video_url } = await reelOf(sb);
  const { res, bytes } = await fetchMedia(video_url);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('video/mp4');
  expect(Number(res.headers.get('content-length'))).toBe(bytes.length);
  const { top, has } = mp4Boxes(bytes);
  expect(top.map((b) => b.type)).toEqual(['ftyp', 'moov', 'free', 'mdat']);
  expect(top.reduce((n, b) => n + b.size, 0)).toBe(bytes.length);
  expect(bytes.toString('ascii', 8, 12)).toBe('isom');
  for (const box of ['mvhd', 'trak', 'stsd', 'avc1', 'avcC', 'stsz', 'stco'])
    expect([box, has(box)]).toEqual([box, true]);
  const said = fileSays(bytes);
  if (said !== undefined) expect(said).toMatch(/ISO Media/);
  let probe: string | undefined;
  try {
    const path = join(mkdtempSync(join(tmpdir(), 'media-')), 'clip.mp4');
    writeFileSync(path, bytes);
    probe = execFileSync(
      'ffprobe',
      [
        '-v',
        'error',
        '-count_frames',
        '-show_entries',
        'stream=codec_name,width,height,nb_read_frames',
        '-of',
        'csv=p=0',
        path,
      ],
      { encoding: 'utf8' },
    );
  } catch {
    // no ffprobe on this machine: the box structure above is the check
  }
  if (probe !== undefined) expect(probe.trim()).toBe('h264,128,128,20');
  // HEAD: the same headers, no body
  const head = await fetch(video_url, { method: 'HEAD' });
  expect([head.status, head.headers.get('content-length'), (await head.arrayBuffer()).byteLength]).toEqual([
    200,
    String(bytes.length),
    0,
  ]);
});

test('the same bytes from another sandbox started with the same seed', async () => {
  const other = await startSandbox({ startAt: TEST_START, seed: 42 });
  try {
    const sha = async (link: string) =>
      createHash('sha256')
        .update((await fetchMedia(link)).bytes)
        .digest('hex');
    const here = await reelOf(sb);
    const there = await reelOf(other);
    expect(there.image_url.startsWith(`${other.url}/media/`)).toBe(true);
    expect(await sha(there.image_url)).toBe(await sha(here.image_url));
    expect(await sha(there.video_url)).toBe(await sha(here.video_url));
    // and different pictures for different posts
    const second = (await api(sb, '/v1/profile/reels?handle=nasa')).data.items[1].image_url!;
    expect(await sha(second)).not.toBe(await sha(here.image_url));
  } finally {
    await other.close();
  }
});

test('links follow the address the client used (Host, a name the sandbox answers to); other names and a forged Host are refused', async () => {
  const viaHost = (host: string) =>
    new Promise<{ status: number; body: any }>((resolve, reject) => {
      const req = http.get(
        `${sb.url}/v1/profile?handle=nasa`,
        { headers: { host, 'x-api-key': sb.demoKey } },
        (res) => {
          let body = '';
          res.on('data', (c) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(body) }));
        },
      );
      req.on('error', reject);
    });
  const named = await viaHost('sandbox.test:4010');
  expect(named.body.data.profile_pic_url).toMatch(/^http:\/\/sandbox\.test:4010\/media\/avatars\//);
  expect((await viaHost('localhost:4010')).body.data.profile_pic_url).toMatch(/^http:\/\/localhost:4010\/media\//);
  for (const host of ['evil"host/<x>', 'other.test:4010']) {
    const refused = await viaHost(host);
    expect([host, refused.status, refused.body.error.code]).toEqual([host, 403, 'host_not_allowed']);
  }
});

test('an expired link answers 403 "URL signature expired"; an edited one "URL signature mismatch"', async () => {
  const key = sb.createKey(10);
  sb.setFaults({ mediaTtlSeconds: 1 });
  try {
    const res = await fetch(`${sb.url}/v1/post?post=${sb.world.byUsername.get('nasa')!.posts[0].shortcode}`, {
      headers: { 'x-api-key': key },
    });
    const link = ((await res.json()) as { data: { image_url: string } }).data.image_url;
    const exp = Number(/exp=(\d+)/.exec(link)![1]);
    expect(exp * 1000 - sb.clock.now()).toBeLessThanOrEqual(2000); // lives 1 to 2 seconds
    expect((await fetchMedia(link)).res.status).toBe(200);
    sb.clock.advance(exp * 1000 - sb.clock.now() + 50);
    const expired = await fetchMedia(link);
    expect([expired.res.status, expired.bytes.toString()]).toEqual([403, 'URL signature expired']);
    // Pushing exp forward breaks the signature instead.
    const edited = await fetchMedia(link.replace(/exp=\d+/, `exp=${exp + 3600}`));
    expect([edited.res.status, edited.bytes.toString()]).toEqual([403, 'URL signature mismatch']);
    const unsigned = await fetchMedia(link.replace(/\?.*$/, ''));
    expect([unsigned.res.status, unsigned.bytes.toString()]).toEqual([403, 'URL signature mismatch']);
  } finally {
    sb.setFaults({ mediaTtlSeconds: 7 * 86400 });
  }
  expect((await fetchMedia(`${sb.url}/media/p/nope.gif?exp=1&sig=0`)).res.status).toBe(404);
  expect(sb.balance(key)).toBe(9); // the post lookup; no media request is billed
});

test('media requests are free and counted apart from API requests', async () => {
  const reel = await reelOf(sb);
  const key = sb.createKey(5);
  sb.resetStats();
  const a = await fetchMedia(reel.image_url);
  const b = await fetchMedia(reel.video_url);
  await fetchMedia(reel.video_url.replace(/sig=[0-9a-f]+/, 'sig=0'));
  const stats = sb.stats();
  expect(stats.total).toBe(0);
  expect(stats.creditsBilled).toBe(0);
  expect(stats.media).toEqual({ requests: 3, bytes: a.bytes.length + b.bytes.length, byStatus: { 200: 2, 403: 1 } });
  expect(sb.balance(key)).toBe(5);
});
