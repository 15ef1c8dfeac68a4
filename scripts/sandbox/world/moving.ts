/**
 * The world after the sandbox's start. The seeded world (build.ts) is the state at the start; from
 * there, as the sandbox's world clock is moved (SandboxClock.worldNow: explicit moves only, never
 * real elapsed time), followers drift, accounts post, new posts gather likes, comments and views,
 * and stories appear and expire. Everything is a function of the seed, the start and the world's
 * time: the same start and the same moves give the same answers, and a sandbox whose clock is not
 * moved answers exactly as the seeded world.
 *
 * Posting is laid on whole hours of absolute time: in each hour after the start, an account posts
 * with the chance (its posts a day) / 24, at a second of that hour drawn from the seed. So what
 * exists at an instant does not depend on how the clock got there (one move of a week or 168 of an
 * hour), and a post's id, time and text are the same whenever it is seen.
 */
import { Rng, hash32, mix32 } from './random';
import { DAY, HOUR, LOCATION_SEED, THINGS, TOPIC_LOCATIONS } from './vocabulary';
import { byTimeDesc, gapDaysOf, iso, toShortcode } from './build';
import { imageRef, videoRef } from './media';
import type { StoryRec } from './derived';
import type { Account, Post, World } from './records';
import { Steps, type Step, type StepMeasure } from './steps';

/** The rates the world moves at (README: scripts/sandbox/FORMULAS.md, "The world moves"). */
export const MOTION = {
  /** Each account's followers change by its own rate a day, compounded, drawn from [min, max]. */
  followerRatePerDay: { min: -0.004, max: 0.01 },
  /** Likes, comments and views of a new post: final × (1 - e^(-age / this)). */
  engagementRiseMs: 12 * HOUR,
} as const;

/** Posts a day: the account's seeded habit (its mean gap); accounts without posts stay without. */
export function postsPerDay(a: Account): number {
  return a.postCount === 0 ? 0 : 1 / (0.15 + gapDaysOf(a));
}

/** Followers' rate a day (a fraction: 0.01 = +1 % a day), the account's own, from the seed. */
export function followerRate(world: World, a: Account): number {
  const { min, max } = MOTION.followerRatePerDay;
  return min + (hash32(world.seed, 'drift', a.idx) / 2 ** 32) * (max - min);
}

/** An account's followers `ms` after the start. */
export function followersAfter(world: World, a: Account, ms: number): number {
  if (ms <= 0 || a.followers === 0) return a.followers;
  return Math.max(0, Math.round(a.followers * Math.pow(1 + followerRate(world, a), ms / DAY)));
}

/** Stories a day of an account with stories: as many as it had live at the start. */
const storiesPerDay = (a: Account): number => (a.is_private ? 0 : a.liveStories);

/** Whether account `a` (its key: hash32(seed, what, a.idx)) does `what` in `hour`, given its chance per hour; and at which second. */
const happens = (key: number, hour: number, perHour: number): boolean => mix32(key, hour) / 2 ** 32 < perHour;
const secondOf = (key: number, hour: number): number => hour * HOUR + (mix32(key ^ 0x5bd1e995, hour) % 3600) * 1000;

/** A new post as it will be when fully grown (materialised at a time by `at`). */
function newPost(world: World, a: Account, hour: number, t: number): Post {
  const rng = Rng.of(world.seed, 'moving-post', a.idx, hour);
  const topic = a.topic;
  const id = `38${String(a.idx).padStart(4, '0')}${String(hour % 1e6).padStart(6, '0')}${String(hash32(world.seed, 'mpid', a.idx, hour) % 1e7).padStart(7, '0')}`;
  const shortcode = toShortcode(id);
  const r = rng.next();
  const type: Post['type'] = r < 0.45 ? 'photo' : r < 0.7 ? 'carousel' : 'video';
  const product_type: Post['product_type'] = type !== 'video' ? 'feed' : rng.chance(0.75) ? 'clips' : 'feed';
  const like_count = Math.max(
    0,
    Math.round(a.followers * a.er * (type === 'video' ? 1.3 : 1) * (0.4 + rng.next() * 1.2)),
  );
  const comment_count = Math.round(like_count * (0.01 + rng.next() * 0.04)) + rng.int(0, 3);
  const locs = TOPIC_LOCATIONS[topic.key];
  const place = LOCATION_SEED[rng.pick(locs)][0].split(',')[0];
  const tags = new Set<string>();
  if (topic.key === 'vegan' && rng.chance(0.96)) tags.add('veganrecipes');
  const nTags = rng.int(1, 3);
  for (let k = 0; k < nTags; k++) tags.add(rng.pick(topic.tags));
  const caption = `${rng.pick(topic.captions).replace('{thing}', rng.pick(THINGS[topic.key])).replace('{place}', place)} ${[...tags].map((x) => `#${x}`).join(' ')}`;
  return {
    id,
    shortcode,
    type,
    product_type,
    url: `https://www.instagram.com/${product_type === 'clips' ? 'reel' : 'p'}/${shortcode}/`,
    caption,
    taken_at: iso(t),
    t,
    like_count,
    comment_count,
    view_count: type === 'video' ? Math.round(like_count * (8 + rng.next() * 25)) + rng.int(10, 500) : null,
    image_url: imageRef('p', shortcode),
    video_url: type === 'video' ? videoRef('v', shortcode) : null,
    video_duration: type === 'video' ? (product_type === 'clips' ? rng.int(50, 900) : rng.int(100, 600)) / 10 : null,
    location: rng.chance(0.55) ? world.locations[rng.pick(locs)] : null,
    author: a,
    tags: [...tags],
    childCount: type === 'carousel' ? rng.int(2, 6) : 0,
  };
}

function newStory(world: World, a: Account, hour: number, t: number): StoryRec {
  const id = `3${String(a.idx).padStart(4, '0')}8${String(hour % 1e6).padStart(6, '0')}${String(hash32(world.seed, 'msid', a.idx, hour) % 1e5).padStart(5, '0')}`;
  const shortcode = toShortcode(id);
  const video = hash32(world.seed, 'msv', a.idx, hour) % 5 < 2;
  return {
    id,
    shortcode,
    type: video ? 'video' : 'photo',
    taken_at: iso(t),
    t,
    image_url: imageRef('s', shortcode),
    video_url: video ? videoRef('s', shortcode) : null,
    video_duration: video ? 3 + (hash32(world.seed, 'msd', a.idx, hour) % 120) / 10 : null,
  };
}

/** What one world time shows: built on the first request after a move, then reused. */
interface Scene {
  at: number;
  feeds: Map<string, Post[]>;
  tagged: Map<string, Post[]>;
  located: Map<string, Post[]>;
  byRef: Map<string, Post>;
  accounts: Map<string, Account>;
}

/** One sandbox's moving world over the shared, read-only seeded world. */
export class MovingWorld {
  /** New posts and stories per account id, oldest first, generated up to (not including) `nextHour`. */
  private readonly posts = new Map<string, Post[]>();
  private readonly stories = new Map<string, StoryRec[]>();
  private nextHour: number;
  private scene: Scene;
  /** The accounts that post or post stories: their chances per hour and their keys for the draws. */
  private readonly movers: { a: Account; perHour: number; pk: number; storiesPerHour: number; sk: number }[];
  /** The steps tests place (steps.ts), over the drift. */
  private readonly steps = new Steps();
  /** A stepped post's copy with its likes and comments scaled, per post, kept while its factor holds (one object per post and factor). */
  private readonly scaled = new WeakMap<Post, { k: number; p: Post }>();

  constructor(
    private readonly world: World,
    private readonly startedAt: number,
    private readonly worldNow: () => number,
  ) {
    this.nextHour = Math.floor(startedAt / HOUR);
    this.scene = this.empty(startedAt);
    this.movers = world.accounts
      .map((a) => ({
        a,
        perHour: postsPerDay(a) / 24,
        pk: hash32(world.seed, 'moving-post', a.idx),
        storiesPerHour: storiesPerDay(a) / 24,
        sk: hash32(world.seed, 'moving-story', a.idx),
      }))
      .filter((m) => m.perHour > 0 || m.storiesPerHour > 0);
  }

  private empty(at: number): Scene {
    return { at, feeds: new Map(), tagged: new Map(), located: new Map(), byRef: new Map(), accounts: new Map() };
  }

  /** Draw the hours up to `at` (once each: the world's time only goes forward). */
  private generate(at: number): void {
    const last = Math.floor(at / HOUR);
    const { world, startedAt } = this;
    for (; this.nextHour <= last; this.nextHour++) {
      const h = this.nextHour;
      for (const { a, perHour, pk, storiesPerHour, sk } of this.movers) {
        if (perHour > 0 && happens(pk, h, perHour)) {
          const t = secondOf(pk, h);
          if (t > startedAt) push(this.posts, a.id, newPost(world, a, h, t));
        }
        if (storiesPerHour > 0 && happens(sk, h, storiesPerHour)) {
          const t = secondOf(sk, h);
          if (t > startedAt) push(this.stories, a.id, newStory(world, a, h, t));
        }
      }
    }
  }

  /** The scene at the world's time now. */
  private current(): Scene {
    const at = this.worldNow();
    if (at === this.scene.at) return this.scene;
    this.generate(at);
    const s = this.empty(at);
    const rise = (n: number, age: number) => Math.round(n * (1 - Math.exp(-age / MOTION.engagementRiseMs)));
    for (const [id, list] of this.posts) {
      const feed: Post[] = [];
      for (let k = list.length - 1; k >= 0; k--) {
        const g = list[k];
        if (g.t > at) continue;
        const age = at - g.t;
        const p: Post = {
          ...g,
          like_count: rise(g.like_count, age),
          comment_count: rise(g.comment_count, age),
          view_count: g.view_count === null ? null : rise(g.view_count, age),
        };
        feed.push(p);
        s.byRef.set(p.id, p).set(p.shortcode, p);
        if (g.author.is_private) continue;
        for (const tag of p.tags) push(s.tagged, tag, p);
        if (p.location) push(s.located, p.location.id, p);
      }
      if (feed.length) s.feeds.set(id, feed);
    }
    for (const m of [s.tagged, s.located]) for (const l of m.values()) l.sort(byTimeDesc);
    this.scene = s;
    return s;
  }

  /** Whether the world has moved since the start (if not, every answer is the seeded world's). */
  private moved(): boolean {
    return this.worldNow() > this.startedAt;
  }

  /** A seeded account as it is now (its followers drifted, and stepped); added accounts do not move. */
  account(a: Account): Account {
    if (this.world.byId.get(a.id) !== a || (!this.moved() && !this.steps.touches(a.id))) return a;
    const s = this.current();
    let v = s.accounts.get(a.id);
    if (!v) {
      v = { ...a, followers: this.followers(a) };
      s.accounts.set(a.id, v);
    }
    return v;
  }

  followers(a: Account): number {
    const drifted = followersAfter(this.world, a, this.worldNow() - this.startedAt);
    const k = this.steps.factor(a.id, 'followers', this.worldNow());
    return k === 1 ? drifted : Math.max(0, Math.round(drifted * k));
  }

  /**
   * A step in a seeded account's followers or engagement (steps.ts) at world time `at` (default:
   * now), never before the world's time. Returns the account's steps.
   */
  step(handle: string, measure: StepMeasure, change: number, at = this.worldNow()): Step[] {
    const a = this.world.byUsername.get(handle.replace(/^@/, '').toLowerCase());
    if (!a) throw new Error(`No seeded account "${handle}" (steps move the seeded world's accounts)`);
    const list = this.steps.add(a.id, { username: a.username, measure, change, at }, this.worldNow());
    this.scene.accounts.clear(); // a step at the world's time holds from this answer on
    return list;
  }

  /** Post `p` as its author's engagement steps make it now: likes and comments × the factor. */
  engaged(p: Post): Post {
    const k = this.steps.factor(p.author.id, 'engagement', this.worldNow());
    if (k === 1) return p;
    const hit = this.scaled.get(p);
    if (hit?.k === k) return hit.p;
    const q = { ...p, like_count: Math.round(p.like_count * k), comment_count: Math.round(p.comment_count * k) };
    this.scaled.set(p, { k, p: q });
    return q;
  }

  /** A list of posts with engagement steps applied (the list itself when there are none). */
  engagedAll(posts: Post[]): Post[] {
    return this.steps.anyEngagement() ? posts.map((p) => this.engaged(p)) : posts;
  }

  /** The account's posts since the start, newest first. */
  feedOf(a: Account): Post[] {
    return this.moved() ? (this.current().feeds.get(a.id) ?? NONE) : NONE;
  }

  /** Public posts since the start carrying #tag, newest first. */
  tagged(tag: string): Post[] {
    return this.moved() ? (this.current().tagged.get(tag) ?? NONE) : NONE;
  }

  /** Public posts since the start at a location, newest first. */
  located(id: string): Post[] {
    return this.moved() ? (this.current().located.get(id) ?? NONE) : NONE;
  }

  /** A post since the start by id or shortcode. */
  find(ref: string): Post | undefined {
    return this.moved() ? this.current().byRef.get(ref) : undefined;
  }

  /** Whether `p` is a post of the moving world (one posted since the start). */
  isNew(p: Post): boolean {
    // by id: a stepped post is a copy (engaged); ids of new posts (38...) are their own
    return this.moved() && this.current().byRef.has(p.id);
  }

  /** Stories posted since the start (up to the world's time), oldest first. */
  storiesOf(a: Account): StoryRec[] {
    if (!this.moved()) return [];
    const at = this.worldNow();
    this.generate(at);
    return (this.stories.get(a.id) ?? []).filter((s) => s.t <= at);
  }
}

const NONE: Post[] = [];

function push<T>(m: Map<string, T[]>, key: string, v: T): void {
  const l = m.get(key);
  if (l) l.push(v);
  else m.set(key, [v]);
}
