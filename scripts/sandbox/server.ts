/**
 * The sandbox: a local implementation of the whole API (service-api.md §1-§8) over a seeded
 * synthetic world. Routes, parameter validation, billing and /openapi.json all come from core's
 * registry (`endpoints`); this file only says how each endpoint reads the world.
 *
 * Importable and side-effect free: nothing starts until startSandbox() is called (see cli.ts).
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { endpoints, findEndpoint } from '../../core/src/registry/endpoints';
import type { EndpointDef } from '../../core/src/registry/types';
import { estimateCost } from '../../core/src/cost';
import { normalizeParams, requestKey, type Params } from '../../core/src/request';
import { isValidationError } from '../../core/src/errors';
import { buildOpenApi } from '../../core/src/openapi';
import {
  type Account, type HashtagRec, type LocationRec, type Post, type UserSummary, type World,
  byTimeDesc, commentsOf, followersOf, followingOf, getWorld, hash32, highlightsOf, iso, likersOf, MEDIA_HOST, Rng,
  storiesOf, toShortcode, DAY, REFERENCE_TIME,
} from './data';
import * as insight from './insights';
import { Billing } from './billing';
import { type FaultConfig, type FaultStatus, DEFAULT_FAULTS, FaultDice, faultsFromEnv, parseFaults, pickFault } from './faults';

// ---------------------------------------------------------------- public types

export interface SandboxOptions {
  /** 0 (default) = a random free port. */
  port?: number;
  host?: string;
  seed?: number;
  latencyMs?: number;
  faultRate?: number;
  faultStatus?: 502 | 504;
  /** How long a "timeout" fault hangs before its 504. */
  slowMs?: number;
  /** No log lines (default true in-process; the CLI logs). */
  quiet?: boolean;
  /** Demo key; defaults to env SANDBOX_DEMO_KEY, else derived from the seed. */
  demoKey?: string;
  /** Read SANDBOX_* variables from this environment (default process.env). */
  env?: Record<string, string | undefined>;
}

export interface SandboxStats {
  /** API requests (/v1/...), whatever their outcome. Admin routes and /openapi.json are not counted. */
  total: number;
  /** Requests per endpoint id (`profile/posts`). */
  byEndpoint: Record<string, number>;
  /** Requests per endpoint + normalised query (core's requestKey, e.g. `profile?handle=nasa`). */
  byRequest: Record<string, number>;
  /** Requests per HTTP status. */
  byStatus: Record<string, number>;
  /** Credits billed in total (200 and 404 answers). */
  creditsBilled: number;
  /** Injected 502/504/timeouts. */
  faults: number;
  inFlight: number;
  maxInFlight: number;
}

export interface PublishedPost {
  id: string;
  shortcode: string;
  url: string;
  taken_at: string;
  author: string;
}

export interface Sandbox {
  url: string;
  port: number;
  demoKey: string;
  seed: number;
  /** Server start time (ms): live stories are within 24 h before it. */
  startedAt: number;
  close(): Promise<void>;
  createKey(balance?: number): string;
  balance(key: string): number;
  setBalance(key: string, balance: number): void;
  revokeKey(key: string): boolean;
  stats(): SandboxStats;
  resetStats(): void;
  /** Publish n new posts carrying #tag: they appear at the head of hashtag/recent, newest first. */
  addPosts(tag: string, n: number): PublishedPost[];
  /** Delete a post (id or shortcode) from every feed; later lookups answer 404. */
  deletePost(idOrShortcode: string): boolean;
  faults(): FaultConfig;
  setFaults(partial: Partial<FaultConfig>): FaultConfig;
  /** The (shared, read-only) synthetic world. */
  world: World;
}

// ---------------------------------------------------------------- page sizes

export const PAGE_SIZE = {
  followers: 25,
  following: 25,
  posts: 12,
  reels: 12,
  comments: 20,
  hashtag: 30,
  location: 24,
} as const;
export const SEARCH_LIMIT = 30;

// ---------------------------------------------------------------- errors inside handlers

class HttpFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}
const notFound = (message: string, reason = 'not_found') => new HttpFailure(404, 'not_found', message, { reason });
const badParam = (parameter: string, message: string) => new HttpFailure(400, 'missing_parameter', message, { parameter });

const DOCS: Record<string, string> = {
  missing_parameter: '/docs/errors#missing_parameter',
  invalid_api_key: '/docs/errors#invalid_api_key',
  insufficient_credits: '/docs/errors#insufficient_credits',
  not_found: '/docs/errors#not_found',
  upstream_error: '/docs/errors#upstream_error',
  upstream_timeout: '/docs/errors#upstream_timeout',
  method_not_allowed: '/docs/errors',
};

// ---------------------------------------------------------------- JSON of records (cached strings)

const locationJson = (l: LocationRec) => ({
  id: l.id, name: l.name, category: l.category, address: l.address, city: l.city, zip: l.zip, lat: l.lat, lng: l.lng,
  phone: l.phone, website: l.website, external_id: l.external_id,
});

function postObject(p: Post) {
  return {
    id: p.id, shortcode: p.shortcode, type: p.type, product_type: p.product_type, url: p.url, caption: p.caption,
    taken_at: p.taken_at, like_count: p.like_count, comment_count: p.comment_count, view_count: p.view_count,
    image_url: p.image_url, video_url: p.video_url, video_duration: p.video_duration,
    location: p.location ? locationJson(p.location) : null,
    author: p.author.summary,
  };
}

const postJsonCache = new WeakMap<Post, string>();
function postJson(p: Post): string {
  let s = postJsonCache.get(p);
  if (s === undefined) {
    s = JSON.stringify(postObject(p));
    postJsonCache.set(p, s);
  }
  return s;
}

/** A `data` value already serialised (lists of cached items). */
class Raw {
  constructor(readonly json: string) {}
}
const listOf = <T>(items: T[], next: string | null, toJson: (x: T) => string): Raw =>
  new Raw(`{"items":[${items.map(toJson).join(',')}],"next_cursor":${JSON.stringify(next)}}`);
const list = (items: unknown[], next: string | null = null) => ({ items, next_cursor: next });

// ---------------------------------------------------------------- cursors

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const unb64 = (s: string) => Buffer.from(s, 'base64').toString('utf8');

/**
 * Cursors are "v1+" + base64 (standard alphabet, so they hold "+", "/" and often "=") of
 * `<position>|<checksum>`; the checksum binds them to the seed, the endpoint and the target, so a
 * tampered or foreign cursor is refused with 400.
 */
class Cursors {
  constructor(private readonly secret: number) {}
  encode(scope: string, position: string): string {
    return `v1+${b64(`${position}|${hash32(this.secret, scope, position).toString(36)}`)}`;
  }
  decode(scope: string, cursor: string | undefined): string | null {
    if (cursor === undefined || cursor === '') return null;
    const fail = () => badParam('cursor', 'cursor must be the next_cursor value of the previous page, passed back unchanged; this one is not valid for this request.');
    if (!cursor.startsWith('v1+') || !/^[A-Za-z0-9+/]+=*$/.test(cursor.slice(3))) throw fail();
    const text = unb64(cursor.slice(3));
    const bar = text.lastIndexOf('|');
    if (bar < 0) throw fail();
    const position = text.slice(0, bar);
    if (text.slice(bar + 1) !== hash32(this.secret, scope, position).toString(36)) throw fail();
    return position;
  }
}

// ---------------------------------------------------------------- the running sandbox

interface Overlay {
  deleted: Set<string>;
  /** Published posts per tag and per author, newest first. */
  byTag: Map<string, Post[]>;
  byAuthor: Map<string, Post[]>;
  byId: Map<string, Post>;
  byShortcode: Map<string, Post>;
  counter: number;
  lastT: number;
}

interface Ctx {
  endpoint: EndpointDef;
  params: Params;
}

type Handler = (ctx: Ctx) => unknown;

const emptyStats = (): SandboxStats => ({ total: 0, byEndpoint: {}, byRequest: {}, byStatus: {}, creditsBilled: 0, faults: 0, inFlight: 0, maxInFlight: 0 });

export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const env = opts.env ?? process.env;
  const seed = opts.seed ?? (env.SANDBOX_SEED ? Number(env.SANDBOX_SEED) : 42);
  if (!Number.isInteger(seed)) throw new Error(`seed must be a whole number; got ${seed}`);
  const quiet = opts.quiet ?? true;
  const world = getWorld(seed);
  const billing = new Billing(seed, opts.demoKey ?? env.SANDBOX_DEMO_KEY);
  let faultConfig = parseFaults({ ...faultsFromEnv(env) });
  faultConfig = parseFaults({ latencyMs: opts.latencyMs, faultRate: opts.faultRate, faultStatus: opts.faultStatus, slowMs: opts.slowMs }, faultConfig);
  const dice = new FaultDice(seed);
  const cursors = new Cursors(seed);
  const startedAt = Date.now();
  let stats = emptyStats();
  let inFlight = 0;
  let requestCounter = 0;
  const overlay: Overlay = { deleted: new Set(), byTag: new Map(), byAuthor: new Map(), byId: new Map(), byShortcode: new Map(), counter: 0, lastT: 0 };
  const timers = new Set<{ timer: NodeJS.Timeout; done: () => void }>();
  let baseUrl = '';
  let openapiJson: string | null = null;

  const sleep = (ms: number, signal?: { aborted: boolean; onAbort?: () => void }) =>
    new Promise<void>((resolve) => {
      if (ms <= 0) return resolve();
      const entry = { timer: setTimeout(() => finish(), ms), done: () => finish() };
      const finish = () => {
        clearTimeout(entry.timer);
        timers.delete(entry);
        resolve();
      };
      timers.add(entry);
      if (signal) signal.onAbort = finish;
    });

  // ------------------------------------------------ world access through the overlay

  const alive = (p: Post) => !overlay.deleted.has(p.id);
  const withOverlay = (base: Post[], extra: Post[] | undefined): Post[] => {
    const merged = extra && extra.length ? [...extra, ...base] : base;
    return overlay.deleted.size ? merged.filter(alive) : merged;
  };
  const feedOf = (a: Account) => withOverlay(a.posts, overlay.byAuthor.get(a.id));
  const reelsOf = (a: Account) => feedOf(a).filter((p) => p.product_type === 'clips');

  function findAccount(handle: string): Account | undefined {
    return /^[0-9]+$/.test(handle) ? world.byId.get(handle) ?? world.byUsername.get(handle) : world.byUsername.get(handle);
  }
  function account(ctx: Ctx): Account {
    const h = String(ctx.params.handle);
    const a = findAccount(h);
    if (!a) throw notFound(`No account "${h}": it does not exist (or changed its username).`);
    if (a.is_private) throw notFound(`@${a.username} is private: no public data.`, 'private_account');
    return a;
  }
  function findPost(ref: string): Post | undefined {
    return world.postsById.get(ref) ?? overlay.byId.get(ref) ?? world.postsByShortcode.get(ref) ?? overlay.byShortcode.get(ref);
  }
  function post(ctx: Ctx): Post {
    const ref = String(ctx.params.post);
    const p = findPost(ref);
    if (!p || overlay.deleted.has(p.id)) throw notFound(`No post "${ref}": it does not exist or was deleted.`);
    if (p.author.is_private) throw notFound(`Post "${ref}" belongs to a private account.`, 'private_account');
    return p;
  }
  function hashtag(ctx: Ctx): { h: HashtagRec | undefined; name: string; recent: Post[] } {
    const name = String(ctx.params.tag);
    const h = world.hashtags.get(name);
    const recent = withOverlay(h?.recent ?? [], overlay.byTag.get(name));
    if (!recent.length) throw notFound(`No public posts for #${name}.`);
    return { h, name, recent };
  }
  function location(ctx: Ctx): LocationRec {
    const id = String(ctx.params.id);
    const l = world.locationsById.get(id);
    if (!l) throw notFound(`No location "${id}".`);
    return l;
  }
  const windowOf = (ctx: Ctx, a: Account) => feedOf(a).slice(0, Number(ctx.params.posts));

  // ------------------------------------------------ paging

  const scopeOf = (ctx: Ctx, target: string) => `${ctx.endpoint.id}:${target}`;
  function pageOffset<T>(ctx: Ctx, target: string, items: T[], size: number): { page: T[]; next: string | null } {
    const scope = scopeOf(ctx, target);
    const pos = cursors.decode(scope, ctx.params.cursor as string | undefined);
    const start = pos === null ? 0 : Number(pos.replace(/^o/, ''));
    if (!Number.isInteger(start) || start < 0) throw badParam('cursor', 'cursor is not valid for this request.');
    const page = items.slice(start, start + size);
    const end = start + page.length;
    return { page, next: end < items.length ? cursors.encode(scope, `o${end}`) : null };
  }
  /** Time-ordered lists page by "older than the last item seen", robust to new and deleted posts. */
  function pageKeyed(ctx: Ctx, target: string, items: Post[], size: number): Raw {
    const scope = scopeOf(ctx, target);
    const pos = cursors.decode(scope, ctx.params.cursor as string | undefined);
    let start = 0;
    if (pos !== null) {
      const m = /^k(\d+)_(\d+)$/.exec(pos);
      if (!m) throw badParam('cursor', 'cursor is not valid for this request.');
      const key = { t: Number(m[1]), id: m[2] } as Post;
      let lo = 0;
      let hi = items.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (byTimeDesc(items[mid], key) <= 0) lo = mid + 1;
        else hi = mid;
      }
      start = lo;
    }
    const page = items.slice(start, start + size);
    const last = page[page.length - 1];
    const next = start + page.length < items.length && last ? cursors.encode(scope, `k${last.t}_${last.id}`) : null;
    return listOf(page, next, postJson);
  }
  const offsetList = <T>(ctx: Ctx, target: string, items: T[], size: number) => {
    const { page, next } = pageOffset(ctx, target, items, size);
    return list(page, next);
  };

  // ------------------------------------------------ handlers, one per registry endpoint

  const profileJson = (a: Account) => ({
    id: a.id, username: a.username, full_name: a.full_name, biography: a.biography, is_verified: a.is_verified,
    is_private: a.is_private, is_business: a.is_business, category: a.category, followers: a.followers,
    following: a.following, posts: feedOf(a).length, external_url: a.external_url, profile_pic_url: a.profile_pic_url,
    public_email: a.public_email, public_phone_number: a.public_phone_number,
  });
  const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

  const handlers: Record<string, Handler> = {
    profile: (ctx) => profileJson(account(ctx)),
    'profile/about': (ctx) => {
      const a = account(ctx);
      const { id, full_name, biography, is_private, is_business, category, followers, following, posts, external_url, profile_pic_url } = profileJson(a);
      const ref = new Date(REFERENCE_TIME);
      const ageYears = ref.getUTCFullYear() + ref.getUTCMonth() / 12 - (a.created_year + (a.created_month - 1) / 12);
      return {
        username: a.username,
        account_created: `${MONTHS[a.created_month - 1]} ${a.created_year}`,
        account_created_year: a.created_year,
        account_created_month: a.created_month,
        account_age_years: Math.round(ageYears * 10) / 10,
        country_of_registration: a.country,
        has_changed_username: a.former_usernames.length > 0,
        former_usernames: a.former_usernames,
        is_verified: a.is_verified,
        profile: { id, full_name, biography, is_private, is_business, category, followers, following, posts, external_url, profile_pic_url },
      };
    },
    'profile/posts': (ctx) => {
      const a = account(ctx);
      return pageKeyed(ctx, a.id, feedOf(a), PAGE_SIZE.posts);
    },
    'profile/reels': (ctx) => {
      const a = account(ctx);
      return pageKeyed(ctx, a.id, reelsOf(a), PAGE_SIZE.reels);
    },
    'profile/stories': (ctx) => {
      const a = account(ctx);
      const now = Date.now();
      const live = storiesOf(world, a, startedAt).filter((s) => now - s.t < DAY && s.t <= now);
      return list(live.map(({ t, ...s }) => s), null);
    },
    'profile/highlights': (ctx) => list(highlightsOf(world, account(ctx)), null),
    'profile/followers': (ctx) => {
      const a = account(ctx);
      return offsetList(ctx, a.id, followersOf(world, a), PAGE_SIZE.followers);
    },
    'profile/following': (ctx) => {
      const a = account(ctx);
      return offsetList(ctx, a.id, followingOf(world, a), PAGE_SIZE.following);
    },
    'insights/profile/engagement': (ctx) => {
      const a = account(ctx);
      return insight.engagement(a, windowOf(ctx, a));
    },
    'insights/profile/best-time': (ctx) => {
      const a = account(ctx);
      return insight.bestTime(a, windowOf(ctx, a), Number(ctx.params.timezone));
    },
    'insights/profile/stats': (ctx) => {
      const a = account(ctx);
      return insight.stats(a, windowOf(ctx, a));
    },
    'insights/profile/audit': (ctx) => {
      const a = account(ctx);
      return insight.audit(a, followersOf(world, a), Number(ctx.params.sample));
    },
    'insights/profile/qualify': (ctx) => {
      const a = account(ctx);
      return insight.qualify(a, windowOf(ctx, a), String(ctx.params.criteria));
    },
    'insights/profile/summary': (ctx) => {
      const a = account(ctx);
      return insight.summary(a, windowOf(ctx, a));
    },
    'insights/profile/niche': (ctx) => {
      const a = account(ctx);
      return insight.niche(a, windowOf(ctx, a));
    },
    'insights/profile/similar': (ctx) => insight.similar(world, account(ctx)),
    'insights/profile/caption': (ctx) => {
      const a = account(ctx);
      return insight.caption(a, feedOf(a).slice(0, 12), String(ctx.params.topic ?? ''));
    },
    'insights/profile/dm-opener': (ctx) => {
      const a = account(ctx);
      return insight.dmOpener(a, feedOf(a).slice(0, 12), String(ctx.params.context ?? ''));
    },
    post: (ctx) => {
      const p = post(ctx);
      const obj: Record<string, unknown> = postObject(p);
      if (p.type === 'carousel') {
        obj.children = Array.from({ length: p.childCount }, (_, k) => {
          const video = hash32(p.id, k) % 4 === 0;
          return {
            id: `${p.id}${k + 1}`,
            type: video ? 'video' : 'photo',
            image_url: `${MEDIA_HOST}/p/${p.shortcode}_${k + 1}.jpg`,
            video_url: video ? `${MEDIA_HOST}/v/${p.shortcode}_${k + 1}.mp4` : null,
          };
        });
      }
      return obj;
    },
    'post/comments': (ctx) => {
      const p = post(ctx);
      const { page, next } = pageOffset(ctx, p.id, commentsOf(world, p), PAGE_SIZE.comments);
      return list(page.map(({ sentiment, ...c }) => c), next);
    },
    'post/likers': (ctx) => list(likersOf(world, post(ctx)), null),
    'insights/post/image': (ctx) => insight.postImage(post(ctx)),
    'insights/post/comments': (ctx) => {
      const p = post(ctx);
      return insight.commentInsights(p, commentsOf(world, p));
    },
    'hashtag/top': (ctx) => {
      const { h, name, recent } = hashtag(ctx);
      const top = (h?.top ?? []).filter(alive);
      const ranked = top.length ? top : recent.slice(0, 9);
      const { page, next } = pageOffset(ctx, name, ranked, PAGE_SIZE.hashtag);
      return listOf(page, next, postJson);
    },
    'hashtag/recent': (ctx) => {
      const { name, recent } = hashtag(ctx);
      return pageKeyed(ctx, name, recent, PAGE_SIZE.hashtag);
    },
    'insights/hashtag': (ctx) => {
      const { h, name, recent } = hashtag(ctx);
      const rec: HashtagRec = h ?? { name, id: '0', recent, top: recent.slice(0, 9), media_count: recent.length };
      return insight.hashtagInsights(rec, recent);
    },
    location: (ctx) => {
      const l = location(ctx);
      const posts = withOverlay(world.locationPosts.get(l.id) ?? [], undefined);
      return { ...locationJson(l), slug: l.slug, media_count: posts.length, url: `https://www.instagram.com/explore/locations/${l.id}/${l.slug}/` };
    },
    'location/posts': (ctx) => {
      const l = location(ctx);
      return pageKeyed(ctx, l.id, withOverlay(world.locationPosts.get(l.id) ?? [], undefined), PAGE_SIZE.location);
    },
    'search/users': (ctx) => {
      const q = String(ctx.params.q).toLowerCase().replace(/^@/, '');
      const hits = world.accounts
        .filter((a) => a.username.includes(q) || a.full_name.toLowerCase().includes(q))
        .sort((x, y) => y.followers - x.followers || (x.username < y.username ? -1 : 1))
        .slice(0, SEARCH_LIMIT);
      return list(hits.map((a) => ({ ...a.summary, followers: a.followers, is_business: a.is_business })), null);
    },
    'search/hashtags': (ctx) => {
      const q = String(ctx.params.q).toLowerCase().replace(/^#/, '');
      const hits = [...world.hashtags.values()].filter((h) => h.name.includes(q)).sort((x, y) => y.media_count - x.media_count).slice(0, SEARCH_LIMIT);
      return list(hits.map((h) => ({ id: h.id, name: h.name, media_count: h.media_count })), null);
    },
    'search/locations': (ctx) => {
      const q = String(ctx.params.q).toLowerCase();
      const hits = world.locations.filter((l) => l.name.toLowerCase().includes(q) || l.city.toLowerCase().includes(q) || l.category.toLowerCase().includes(q)).slice(0, SEARCH_LIMIT);
      return list(hits.map((l) => ({ ...locationJson(l), media_count: (world.locationPosts.get(l.id) ?? []).length })), null);
    },
    credits: () => ({}), // filled in by the dispatcher (needs the key)
  };

  const routes = new Map<string, { endpoint: EndpointDef; handler: Handler }>();
  for (const e of endpoints) {
    const handler = handlers[e.id];
    if (!handler) throw new Error(`The sandbox has no handler for registry endpoint "${e.id}"`);
    routes.set(`/v1/${e.id}`, { endpoint: e, handler });
  }

  // ------------------------------------------------ publishing and deleting (trigger tests)

  function addPosts(tagInput: string, n: number): PublishedPost[] {
    const tag = tagInput.replace(/^#/, '').toLowerCase();
    if (!/^[\p{L}\p{N}_]{1,150}$/u.test(tag)) throw new Error(`Not a hashtag: ${tagInput}`);
    if (!Number.isInteger(n) || n < 1 || n > 1000) throw new Error('count must be a whole number from 1 to 1000');
    const authors = world.accounts.filter((a) => !a.is_private && a.full_name && a.topic.tags.includes(tag));
    const pool = authors.length ? authors : world.accounts.filter((a) => !a.is_private && a.full_name);
    const out: PublishedPost[] = [];
    for (let k = 0; k < n; k++) {
      const c = ++overlay.counter;
      const rng = Rng.of(seed, 'publish', c);
      const author = pool[rng.int(0, pool.length - 1)];
      const t = Math.max(Math.floor(Date.now() / 1000) * 1000, overlay.lastT + 1000);
      overlay.lastT = t;
      const id = `39${String(c).padStart(8, '0')}${String(hash32(seed, 'pub', c) % 1e9).padStart(9, '0')}`;
      const shortcode = toShortcode(id);
      const likes = rng.int(0, 40);
      const p: Post = {
        id, shortcode, type: 'photo', product_type: 'feed', url: `https://www.instagram.com/p/${shortcode}/`,
        caption: `Fresh post ${c} #${tag}`, taken_at: iso(t), t, like_count: likes, comment_count: rng.int(0, 3), view_count: null,
        image_url: `${MEDIA_HOST}/p/${shortcode}.jpg`, video_url: null, video_duration: null, location: null, author, tags: [tag], childCount: 0,
      };
      overlay.byId.set(id, p);
      overlay.byShortcode.set(shortcode, p);
      overlay.byTag.set(tag, [p, ...(overlay.byTag.get(tag) ?? [])]);
      overlay.byAuthor.set(author.id, [p, ...(overlay.byAuthor.get(author.id) ?? [])]);
      out.push({ id, shortcode, url: p.url, taken_at: p.taken_at, author: author.username });
    }
    return out.reverse(); // newest first, like the feed
  }

  function deletePost(ref: string): boolean {
    const p = findPost(ref.trim());
    if (!p || overlay.deleted.has(p.id)) return false;
    overlay.deleted.add(p.id);
    return true;
  }

  // ------------------------------------------------ HTTP plumbing

  const nextRequestId = () => `req_${(++requestCounter).toString(36).padStart(7, '0')}${hash32(seed, startedAt, requestCounter).toString(36).padStart(7, '0')}`;

  function send(res: http.ServerResponse, status: number, body: string, headers: Record<string, string> = {}) {
    if (res.writableEnded || res.destroyed) return;
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(body)),
      ...headers,
    });
    res.end(body);
  }

  function keyOf(req: http.IncomingMessage): string | undefined {
    const auth = req.headers.authorization;
    if (typeof auth === 'string' && auth.trim()) {
      const m = /^Bearer\s+(\S+)\s*$/i.exec(auth.trim());
      return m ? m[1] : '';
    }
    const x = req.headers['x-api-key'];
    return typeof x === 'string' ? x.trim() : undefined;
  }

  async function api(req: http.IncomingMessage, res: http.ServerResponse, url: URL, route: { endpoint: EndpointDef; handler: Handler }) {
    const t0 = Date.now();
    const { endpoint } = route;
    const requestId = nextRequestId();
    let key: string | undefined;
    const countStatus = (status: number) => (stats.byStatus[status] = (stats.byStatus[status] ?? 0) + 1);
    const fail = (status: number, code: string, message: string, extra: Record<string, unknown> = {}, charged = 0) => {
      countStatus(status);
      const known = key !== undefined && billing.knows(key);
      const remaining = known ? billing.balance(key as string) : undefined;
      const meta: Record<string, unknown> = { request_id: requestId, endpoint: endpoint.id, credits_charged: charged };
      if (remaining !== undefined) meta.credits_remaining = remaining;
      meta.ms = Date.now() - t0;
      const headers: Record<string, string> = { 'x-request-id': requestId };
      if (remaining !== undefined) headers['x-credits-remaining'] = String(remaining);
      send(res, status, JSON.stringify({ error: { code, message, docs: DOCS[code] ?? '/docs/errors', ...extra }, meta }), headers);
    };

    // 1. latency (sandbox-wide, or per request)
    const latency = Number(req.headers['x-sandbox-latency'] ?? url.searchParams.get('sandbox_latency') ?? faultConfig.latencyMs);
    const aborted = { aborted: false, onAbort: undefined as undefined | (() => void) };
    res.on('close', () => {
      aborted.aborted = true;
      aborted.onAbort?.();
    });
    if (Number.isFinite(latency) && latency > 0) await sleep(Math.min(latency, 600000), aborted);
    if (aborted.aborted) return countStatus(499);

    // 2. authentication (never billed)
    key = keyOf(req);
    if (!billing.knows(key)) {
      const msg = key ? 'The API key is malformed, unknown or revoked.' : 'No API key: send Authorization: Bearer <key> or x-api-key: <key>.';
      key = undefined;
      return fail(401, 'invalid_api_key', msg);
    }

    // 3. parameters, through core's own validation (never billed)
    const input: Record<string, unknown> = {};
    for (const def of endpoint.params) {
      const v = url.searchParams.get(def.name);
      if (v !== null) input[def.name] = v;
    }
    if (input.post === undefined && endpoint.params.some((p) => p.name === 'post') && url.searchParams.has('url')) {
      input.post = url.searchParams.get('url');
    }
    let params: Params;
    try {
      params = normalizeParams(endpoint, input);
    } catch (e) {
      if (isValidationError(e)) return fail(400, 'missing_parameter', e.message, { parameter: e.argument });
      throw e;
    }
    const rk = requestKey(endpoint, params);
    stats.byRequest[rk] = (stats.byRequest[rk] ?? 0) + 1;

    // 4. balance (never billed)
    const cost = estimateCost(endpoint, params).credits;
    const balance = billing.balance(key);
    if (balance < cost) {
      return fail(402, 'insufficient_credits', `Out of credits: ${balance} left, this request costs ${cost}. Top up to continue.`, { credits_needed: cost });
    }

    // 5. injected upstream faults (never billed)
    const override = (req.headers['x-sandbox-fault'] as string | undefined) ?? url.searchParams.get('sandbox_fault') ?? undefined;
    const fault = pickFault(override, faultConfig, dice);
    if (fault !== null) {
      stats.faults++;
      if (fault === 'timeout') {
        await sleep(faultConfig.slowMs, aborted);
        if (aborted.aborted) return countStatus(499);
        return fail(504, 'upstream_timeout', 'The data provider took too long. Safe to retry (not charged).');
      }
      const status: FaultStatus = fault;
      return status === 502
        ? fail(502, 'upstream_error', 'The data provider failed. Safe to retry (not charged).')
        : fail(504, 'upstream_timeout', 'The data provider took too long. Safe to retry (not charged).');
    }

    // 6. the platform: data or 404, both billed
    let data: unknown;
    try {
      data = endpoint.id === 'credits' ? undefined : route.handler({ endpoint, params });
    } catch (e) {
      if (e instanceof HttpFailure) {
        if (e.status === 404) {
          billing.charge(key, cost);
          stats.creditsBilled += cost;
          return fail(404, e.code, e.message, e.extra, cost);
        }
        return fail(e.status, e.code, e.message, e.extra);
      }
      throw e;
    }
    const remaining = billing.charge(key, cost);
    stats.creditsBilled += cost;
    if (endpoint.id === 'credits') data = { credits_remaining: remaining };
    countStatus(200);
    const meta = JSON.stringify({ endpoint: endpoint.id, request_id: requestId, credits_charged: cost, credits_remaining: remaining, ms: Date.now() - t0 });
    const dataJson = data instanceof Raw ? data.json : JSON.stringify(data);
    send(res, 200, `{"data":${dataJson},"meta":${meta}}`, { 'x-request-id': requestId, 'x-credits-remaining': String(remaining) });
  }

  function readBody(req: http.IncomingMessage): Promise<string> {
    return new Promise((resolve, reject) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => {
        body += c;
        if (body.length > 100_000) reject(new Error('body too large'));
      });
      req.on('end', () => resolve(body));
      req.on('error', reject);
    });
  }

  async function admin(req: http.IncomingMessage, res: http.ServerResponse, url: URL) {
    const json = (status: number, body: unknown) => send(res, status, JSON.stringify(body));
    const bad = (message: string) => json(400, { error: { code: 'bad_request', message } });
    const path = url.pathname.replace(/\/+$/, '');
    const m = req.method ?? 'GET';
    try {
      if (path === '/_sandbox/stats' && m === 'GET') return json(200, snapshot());
      if (path === '/_sandbox/reset' && m === 'POST') {
        resetStats();
        return json(200, { ok: true });
      }
      if (path === '/_sandbox/keys' && m === 'POST') {
        const b = url.searchParams.get('balance');
        const balance = b === null || b === '' ? undefined : Number(b);
        const key = billing.createKey(balance);
        return json(200, { key, balance: billing.balance(key) });
      }
      let k = /^\/_sandbox\/keys\/([^/]+)$/.exec(path);
      if (k && m === 'GET') {
        const key = decodeURIComponent(k[1]);
        return billing.knows(key) ? json(200, { key, balance: billing.balance(key) }) : json(404, { error: { code: 'not_found', message: 'Unknown key' } });
      }
      if (path === '/_sandbox/faults') {
        if (m === 'GET') return json(200, faultConfig);
        if (m === 'POST') {
          const text = await readBody(req);
          let body: Record<string, unknown> = {};
          try {
            body = text.trim() ? JSON.parse(text) : {};
          } catch {
            return bad('The body must be JSON: {latencyMs, faultRate, faultStatus, slowMs}');
          }
          for (const [name, v] of url.searchParams) body[name] = v;
          faultConfig = parseFaults(body, faultConfig);
          return json(200, faultConfig);
        }
      }
      k = /^\/_sandbox\/hashtag\/([^/]+)\/publish$/.exec(path);
      if (k && m === 'POST') {
        const count = Number(url.searchParams.get('count') ?? '1');
        const tag = decodeURIComponent(k[1]).replace(/^#/, '').toLowerCase();
        return json(200, { tag, published: addPosts(tag, count) });
      }
      k = /^\/_sandbox\/post\/([^/]+)\/delete$/.exec(path);
      if (k && m === 'POST') {
        const ref = decodeURIComponent(k[1]);
        return deletePost(ref) ? json(200, { deleted: ref }) : json(404, { error: { code: 'not_found', message: `No live post "${ref}"` } });
      }
      if (path === '/_sandbox/fixtures' && m === 'GET') return json(200, fixtures(world));
      return json(404, { error: { code: 'not_found', message: `No admin route ${m} ${path}` } });
    } catch (e) {
      return bad((e as Error).message);
    }
  }

  const snapshot = (): SandboxStats => ({
    ...stats,
    byEndpoint: { ...stats.byEndpoint },
    byRequest: { ...stats.byRequest },
    byStatus: { ...stats.byStatus },
    inFlight,
    maxInFlight: stats.maxInFlight,
  });
  function resetStats() {
    stats = emptyStats();
    stats.maxInFlight = inFlight;
  }

  const server = http.createServer((req, res) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://sandbox');
    } catch {
      return send(res, 400, JSON.stringify({ error: { code: 'bad_request', message: 'Bad URL' } }));
    }
    const path = url.pathname;
    if (path.startsWith('/_sandbox/')) {
      admin(req, res, url).catch((e) => send(res, 500, JSON.stringify({ error: { code: 'internal', message: String(e) } })));
      return;
    }
    if (path === '/openapi.json') {
      openapiJson ??= JSON.stringify(buildOpenApi(baseUrl));
      return send(res, 200, openapiJson, { 'access-control-allow-origin': '*' });
    }
    if (path === '/' || path === '/health') {
      return send(res, 200, JSON.stringify({ name: 'IG Data sandbox', seed, openapi: `${baseUrl}/openapi.json`, endpoints: endpoints.length }));
    }
    const route = routes.get(path.length > 4 ? path.replace(/\/+$/, '') : path);
    if (!route) {
      stats.total++;
      stats.byStatus[404] = (stats.byStatus[404] ?? 0) + 1;
      const requestId = nextRequestId();
      return send(res, 404, JSON.stringify({
        error: { code: 'not_found', message: `No endpoint ${req.method} ${path}. The endpoints are listed at /openapi.json. (Not charged.)`, docs: '/docs/endpoints', reason: 'unknown_endpoint' },
        meta: { request_id: requestId, credits_charged: 0 },
      }), { 'x-request-id': requestId });
    }
    stats.total++;
    stats.byEndpoint[route.endpoint.id] = (stats.byEndpoint[route.endpoint.id] ?? 0) + 1;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      stats.byStatus[405] = (stats.byStatus[405] ?? 0) + 1;
      return send(res, 405, JSON.stringify({ error: { code: 'method_not_allowed', message: 'Every endpoint is GET.', docs: '/docs/errors' }, meta: { request_id: nextRequestId() } }), { allow: 'GET' });
    }
    inFlight++;
    if (inFlight > stats.maxInFlight) stats.maxInFlight = inFlight;
    api(req, res, url, route)
      .catch((e) => {
        if (!quiet) console.error(e);
        send(res, 500, JSON.stringify({ error: { code: 'internal_error', message: String((e as Error)?.message ?? e), docs: '/docs/errors' }, meta: {} }));
      })
      .finally(() => {
        inFlight--;
      });
  });
  server.keepAliveTimeout = 5000;

  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  baseUrl = `http://${host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;
  if (!quiet) console.log(`sandbox listening on ${baseUrl} (seed ${seed})`);

  return {
    url: baseUrl,
    port,
    demoKey: billing.demoKey,
    seed,
    startedAt,
    world,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of [...timers]) t.done();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
    createKey: (balance?: number) => billing.createKey(balance),
    balance: (key: string) => billing.balance(key),
    setBalance: (key: string, balance: number) => billing.setBalance(key, balance),
    revokeKey: (key: string) => billing.revoke(key),
    stats: snapshot,
    resetStats,
    addPosts,
    deletePost,
    faults: () => ({ ...faultConfig }),
    setFaults: (partial: Partial<FaultConfig>) => (faultConfig = parseFaults(partial as Record<string, unknown>, faultConfig)),
  };
}

// ---------------------------------------------------------------- fixtures for tests and docs

/** Handles, tags, locations and posts that are good test targets for a world. */
export function fixtures(world: World) {
  const pub = world.accounts.filter((a) => !a.is_private);
  const fullList = pub.filter((a) => !a.capped && a.followers >= 100 && a.followers <= 300);
  const withPosts = (a: Account) => a.posts.length > 0;
  const nasa = world.byUsername.get('nasa') as Account;
  const carousel = nasa.posts.find((p) => p.type === 'carousel') as Post;
  const reel = nasa.posts.find((p) => p.product_type === 'clips') as Post;
  return {
    huge_capped: pub.filter((a) => a.followers >= 10_000_000).map((a) => a.username),
    public_full_follower_list: fullList.filter(withPosts).slice(0, 10).map((a) => ({ username: a.username, id: a.id, followers: a.followers })),
    private: world.accounts.filter((a) => a.is_private && a.full_name).slice(0, 10).map((a) => a.username),
    renamed: world.accounts.filter((a) => a.former_usernames.length).slice(0, 10).map((a) => ({ username: a.username, id: a.id, former_usernames: a.former_usernames })),
    empty: 'empty.account',
    hashtags: [...world.hashtags.values()].sort((x, y) => y.recent.length - x.recent.length).slice(0, 10).map((h) => ({ tag: h.name, recent_posts: h.recent.length })),
    locations: world.locations.slice(0, 5).map((l) => ({ id: l.id, name: l.name, posts: (world.locationPosts.get(l.id) ?? []).length })),
    posts: { nasa_newest: nasa.posts[0].shortcode, nasa_carousel: carousel?.shortcode, nasa_reel: reel?.shortcode, nasa_newest_id: nasa.posts[0].id },
    page_sizes: PAGE_SIZE,
  };
}

export type { FaultConfig } from './faults';
export { DEFAULT_FAULTS };
