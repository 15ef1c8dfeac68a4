/**
 * Building the world from one seed: the well-known accounts (their table is specials.ts), generated
 * accounts, their posts, hashtags and locations. Immutable and cached per seed (several sandboxes in
 * one process share it).
 */
import { Rng, hash32 } from './random';
import type { TopicKey } from './vocabulary';
import {
  COUNTRIES,
  DAY,
  FIRST,
  GENERIC,
  HOUR,
  LAST,
  LOCATION_SEED,
  REFERENCE_TIME,
  THINGS,
  TOPICS,
  TOPIC_LOCATIONS,
} from './vocabulary';
import { DEFAULT_AVATAR, imageRef, videoRef } from './media';
import type { Account, LocationRec, Post, UserSummary, World } from './records';
import { TOP_LIMIT } from './records';
import { SPECIALS } from './specials';
import type { Special } from './specials';

const N_ACCOUNTS = 400;
const N_VEGAN = 30;

// The globals of the per-post path as locals: under jest a read of a global is slow (random.ts says
// why), and a world has some 17,000 posts.
const { floor, round, min, max } = Math;
const { BigInt: toBigInt, Date: NativeDate, Number: toNumber } = globalThis;

const ALPHA = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** The id in base 64 (Instagram's shortcode alphabet), most significant digit first, no leading zeros. */
export function toShortcode(id: string): string {
  // 48 bits (8 digits) at a time in a plain number: one BigInt step per 8 digits instead of two per
  // digit (a world build makes some 17,000 of these).
  let n = toBigInt(id);
  let out = '';
  while (n > 0n) {
    let chunk = toNumber(toBigInt.asUintN(48, n));
    n >>= 48n;
    for (let d = 0; d < 8 && (n > 0n || chunk > 0); d++) {
      out = ALPHA[chunk % 64] + out;
      chunk = floor(chunk / 64);
    }
  }
  return out;
}

export const iso = (t: number): string => new NativeDate(t).toISOString().replace(/\.\d{3}Z$/, 'Z');

function summaryOf(a: Account): UserSummary {
  return {
    id: a.id,
    username: a.username,
    full_name: a.full_name,
    is_verified: a.is_verified,
    is_private: a.is_private,
    profile_pic_url: a.profile_pic_url,
  };
}

function makeAccount(
  world: World,
  idx: number,
  seed: number,
  spec: Partial<Special> & { username: string; topic: TopicKey },
  rng: Rng,
): Account {
  const topic = TOPICS[spec.topic];
  const id = String(1_000_000_000 + idx * 7_654_321 + (hash32(seed, 'id', idx) % 1000));
  const followers = spec.followers ?? 0;
  const a: Account = {
    idx,
    id,
    username: spec.username,
    full_name: spec.full_name ?? '',
    biography: spec.bio ?? '',
    is_verified: !!spec.verified,
    is_private: !!spec.private,
    is_business: !!spec.business,
    category: spec.category ?? (spec.business ? rng.pick(topic.categories) : null),
    followers,
    following: Math.min(spec.following ?? 0, N_ACCOUNTS - 1),
    external_url: spec.url ?? null,
    profile_pic_url: imageRef('avatars', id),
    public_email: spec.business ? `hello@${spec.username.replace(/[._]/g, '')}.example` : null,
    public_phone_number:
      spec.business && rng.chance(0.4) ? `+1 555 01${String(rng.int(0, 99)).padStart(2, '0')}` : null,
    created_year: spec.created?.[0] ?? rng.int(2012, 2024),
    created_month: spec.created?.[1] ?? rng.int(1, 12),
    country: spec.country ?? rng.pick(COUNTRIES),
    former_usernames: spec.former ?? [],
    topic,
    capped: followers > 1000,
    er: spec.er ?? 0.01 + rng.next() * 0.07,
    postCount: spec.posts ?? 0,
    liveStories: spec.stories ?? 0,
    expiredStories: spec.private ? 0 : rng.int(0, 3),
    highlights: spec.private ? 0 : rng.int(0, 8),
    posts: [],
    summary: undefined as unknown as UserSummary,
  };
  a.summary = summaryOf(a);
  world.accounts.push(a);
  world.byUsername.set(a.username, a);
  world.byId.set(a.id, a);
  for (const f of a.former_usernames) world.formerUsernames.set(f, a);
  return a;
}

function generatedAccount(world: World, idx: number, seed: number): void {
  const rng = Rng.of(seed, 'acct', idx);
  const topicKeys = Object.keys(TOPICS) as TopicKey[];
  const vegan = idx - SPECIALS.length < N_VEGAN;
  const bot = !vegan && rng.chance(0.16);
  const topicKey: TopicKey = vegan ? 'vegan' : bot ? 'life' : rng.pick(topicKeys.filter((k) => k !== 'news'));
  const topic = TOPICS[topicKey];
  let username = '';
  let fullName = '';
  for (let tries = 0; !username || world.byUsername.has(username) || world.formerUsernames.has(username); tries++) {
    if (bot) {
      username = `${rng.pick(['user', 'xk', 'ig', 'acc', 'real'])}${rng.pick(['', '_', '.'])}${rng.int(1000000, 99999999)}`;
    } else {
      const first = rng.pick(FIRST);
      const style = rng.int(0, 3);
      const word = rng.pick(topic.words);
      username =
        style === 0
          ? `${first.toLowerCase()}.${word}`
          : style === 1
            ? `${word}${rng.pick(['_', '.', ''])}${rng.pick(GENERIC)}`
            : style === 2
              ? `${first.toLowerCase()}_${rng.pick(LAST).toLowerCase()}`
              : `${word}with${first.toLowerCase()}`;
      if (tries > 2) username += rng.int(2, 99);
      fullName =
        style === 1 ? `${word[0].toUpperCase()}${word.slice(1)} ${rng.pick(GENERIC)}` : `${first} ${rng.pick(LAST)}`;
    }
  }
  const isPrivate = !vegan && (bot ? rng.chance(0.5) : rng.chance(0.1));
  const big = !vegan && !bot && rng.chance(0.35);
  const followers = bot ? rng.int(0, 40) : big ? rng.logInt(1500, 2_500_000) : rng.int(vegan ? 60 : 20, 340);
  const business = !bot && rng.chance(big ? 0.6 : 0.25);
  const renamed = !bot && rng.chance(0.06);
  makeAccount(
    world,
    idx,
    seed,
    {
      username,
      full_name: bot ? '' : fullName,
      topic: topicKey,
      followers,
      following: bot ? rng.int(200, 399) : rng.int(10, 390),
      posts: bot ? rng.int(0, 3) : vegan ? rng.int(90, 120) : rng.int(0, 80),
      verified: big && followers > 500_000 && rng.chance(0.5),
      business,
      private: isPrivate,
      former: renamed ? [`${username.replace(/[._]/g, '')}_old`] : undefined,
      bio: bot ? '' : `${topic.label} | ${rng.pick(THINGS[topicKey])} | ${rng.pick(COUNTRIES)}`,
      url: business ? `https://${username.replace(/[._]/g, '')}.example` : undefined,
      er: bot ? 0.001 : big ? 0.005 + rng.next() * 0.03 : undefined,
      stories: !isPrivate && !bot && rng.chance(0.3) ? rng.int(1, 5) : 0,
    },
    rng,
  );
  const a = world.accounts[world.accounts.length - 1];
  if (bot) a.profile_pic_url = rng.chance(0.7) ? DEFAULT_AVATAR : a.profile_pic_url;
  a.summary = summaryOf(a);
}

/** An account's habit: its posts are 0.15 + 2 * rand * gapDays days apart (mean 0.15 + gapDays). */
export function gapDaysOf(a: Account): number {
  return a.postCount > 150 ? 1.2 : a.topic.key === 'vegan' ? 2.2 : 4;
}

function buildPosts(world: World, a: Account, seed: number): void {
  const rng = Rng.of(seed, 'posts', a.idx);
  const topic = a.topic;
  const locs = TOPIC_LOCATIONS[topic.key];
  let t = REFERENCE_TIME - rng.int(1, 48) * HOUR;
  const gapDays = gapDaysOf(a);
  // the account's "posting habit": most posts in its favourite hours
  const favHour = (hash32(seed, 'hour', a.idx) % 12) + 8;
  for (let j = 0; j < a.postCount; j++) {
    if (j > 0) t -= round((0.15 + rng.next() * 2 * gapDays) * DAY);
    const d = new NativeDate(t);
    if (rng.chance(0.6)) d.setUTCHours(favHour + rng.int(0, 2), rng.int(0, 59), rng.int(0, 59));
    t = min(d.getTime(), t);
    const id = `3${`${a.idx}`.padStart(4, '0')}${`${a.postCount - j}`.padStart(5, '0')}${`${hash32(seed, 'pid', a.idx, j) % 100000}`.padStart(5, '0')}${`${hash32(seed, 'pid2', a.idx, j) % 10000}`.padStart(4, '0')}`;
    const shortcode = toShortcode(id);
    const r = rng.next();
    const type: Post['type'] = r < 0.45 ? 'photo' : r < 0.7 ? 'carousel' : 'video';
    const product_type: Post['product_type'] =
      type !== 'video' ? 'feed' : rng.chance(0.75) ? 'clips' : rng.chance(0.4) ? 'igtv' : 'feed';
    const mult = type === 'video' ? 1.3 : type === 'carousel' ? 1.15 : 1;
    const hour = new NativeDate(t).getUTCHours();
    const hourBoost = hour >= 17 && hour <= 21 ? 1.25 : 1;
    const like_count = max(0, round(a.followers * a.er * mult * hourBoost * (0.4 + rng.next() * 1.2)));
    const comment_count = round(like_count * (0.01 + rng.next() * 0.04)) + (rng.chance(0.5) ? rng.int(0, 3) : 0);
    const place = LOCATION_SEED[rng.pick(locs)][0].split(',')[0];
    const thing = rng.pick(THINGS[topic.key]);
    const tags = new Set<string>();
    if (topic.key === 'vegan' && rng.chance(0.96)) tags.add('veganrecipes');
    const nTags = rng.int(1, 3);
    for (let k = 0; k < nTags; k++) tags.add(rng.pick(topic.tags));
    const caption = `${rng.pick(topic.captions).replace('{thing}', thing).replace('{place}', place)} ${[...tags].map((x) => `#${x}`).join(' ')}`;
    const location = rng.chance(0.55) ? world.locations[rng.pick(locs)] : null;
    const video_duration =
      type !== 'video'
        ? null
        : product_type === 'igtv'
          ? rng.int(600, 9000) / 10
          : product_type === 'clips'
            ? rng.int(50, 900) / 10
            : rng.int(100, 600) / 10;
    const p: Post = {
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
      view_count: type === 'video' ? round(like_count * (8 + rng.next() * 25)) + rng.int(10, 500) : null,
      image_url: imageRef('p', shortcode),
      video_url: type === 'video' ? videoRef('v', shortcode) : null,
      video_duration,
      location,
      author: a,
      tags: [...tags],
      childCount: type === 'carousel' ? rng.int(2, 6) : 0,
    };
    a.posts.push(p);
    world.postsById.set(p.id, p);
    world.postsByShortcode.set(p.shortcode, p);
  }
}

/** Newest first, ties broken by id (descending) so that the order is total. */
export const byTimeDesc = (a: Post, b: Post): number => b.t - a.t || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

export function buildWorld(seed = 42): World {
  const world: World = {
    seed,
    accounts: [],
    byUsername: new Map(),
    byId: new Map(),
    formerUsernames: new Map(),
    postsById: new Map(),
    postsByShortcode: new Map(),
    hashtags: new Map(),
    locations: [],
    locationsById: new Map(),
    locationPosts: new Map(),
    memo: new Map(),
  };
  LOCATION_SEED.forEach(([name, category, address, city, zip, lat, lng], i) => {
    const id = i === 0 ? '213385402' : String(200_000_000 + i * 1_234_567 + (hash32(seed, 'loc', i) % 1000));
    const slug = name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '');
    const rec: LocationRec = {
      id,
      name,
      category,
      address,
      city,
      zip,
      lat,
      lng,
      phone: category === 'City' ? '' : `+1 555 02${String(i).padStart(2, '0')}`,
      website: category === 'City' ? '' : `https://${slug}.example`,
      external_id: String(40_000_000_000 + hash32(seed, 'ext', i)),
      slug,
    };
    world.locations.push(rec);
    world.locationsById.set(id, rec);
  });
  const rng = Rng.of(seed, 'specials');
  SPECIALS.forEach((s, i) => makeAccount(world, i, seed, s, rng));
  for (let i = SPECIALS.length; i < N_ACCOUNTS; i++) generatedAccount(world, i, seed);
  for (const a of world.accounts) buildPosts(world, a, seed);

  // hashtag and location indexes: public posts only
  const tagPosts = new Map<string, Post[]>();
  for (const a of world.accounts) {
    if (a.is_private) continue;
    for (const p of a.posts) {
      for (const tag of p.tags) {
        let list = tagPosts.get(tag);
        if (!list) tagPosts.set(tag, (list = []));
        list.push(p);
      }
      if (p.location) {
        let list = world.locationPosts.get(p.location.id);
        if (!list) world.locationPosts.set(p.location.id, (list = []));
        list.push(p);
      }
    }
  }
  for (const list of world.locationPosts.values()) list.sort(byTimeDesc);
  for (const [name, list] of [...tagPosts.entries()].sort((x, y) => (x[0] < y[0] ? -1 : 1))) {
    list.sort(byTimeDesc);
    const top = [...list]
      .sort((x, y) => y.like_count + y.comment_count - (x.like_count + x.comment_count) || byTimeDesc(x, y))
      .slice(0, TOP_LIMIT);
    world.hashtags.set(name, {
      name,
      id: String(17_800_000_000_000_000n + BigInt(hash32(seed, 'tag', name))),
      recent: list,
      top,
      media_count: list.length * (50 + (hash32(seed, 'mc', name) % 5000)) + (hash32(seed, 'mc2', name) % 1000),
    });
  }
  return world;
}

const worlds = new Map<number, World>();
/** The world for a seed, built once per process. */
export function getWorld(seed = 42): World {
  let w = worlds.get(seed);
  if (!w) {
    w = buildWorld(seed);
    worlds.set(seed, w);
  }
  return w;
}
