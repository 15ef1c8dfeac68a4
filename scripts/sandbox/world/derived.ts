/** Lists derived from the world on demand and memoised per world: followers, comments, likers, stories, highlights. */
import { Rng, hash32 } from './random';
import type { Sentiment } from './vocabulary';
import { COMMENTS_NEG, COMMENTS_NEU, COMMENTS_POS, DAY, HOUR, REFERENCE_TIME } from './vocabulary';
import type { Account, Post, UserSummary, World } from './records';
import { COMMENT_CAP, FOLLOWER_CAP, LIKER_CAP } from './records';
import { iso, toShortcode } from './build';
import { imageRef, videoRef } from './media';

function memo<T>(world: World, key: string, make: () => T): T {
  if (world.memo.has(key)) return world.memo.get(key) as T;
  const v = make();
  world.memo.set(key, v);
  return v;
}

/** `count` distinct other accounts, in a seeded order. */
function pickAccounts(world: World, a: Account, salt: string, count: number): Account[] {
  const rng = Rng.of(world.seed, salt, a.idx);
  const pool = world.accounts.filter((x) => x.id !== a.id);
  const n = Math.min(count, pool.length);
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(rng.next() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return pool.slice(0, n);
}

/**
 * The visible follower list: the whole list, or FOLLOWER_CAP accounts when the account is capped.
 * `a.followers` may have drifted (world/moving.ts): the list grows or shrinks at its end.
 */
export function followersOf(world: World, a: Account): UserSummary[] {
  const count = a.capped ? FOLLOWER_CAP : a.followers;
  return memo(world, `followers:${a.id}:${count}`, () =>
    pickAccounts(world, a, 'followers', count).map((x) => x.summary),
  );
}

export function followingOf(world: World, a: Account): UserSummary[] {
  return memo(world, `following:${a.id}`, () => pickAccounts(world, a, 'following', a.following).map((x) => x.summary));
}

export interface CommentRec {
  id: string;
  text: string;
  like_count: number;
  created_at: string;
  author: UserSummary;
  sentiment: Sentiment;
}

/** Visible comments of a post, oldest first (at most COMMENT_CAP; generated on demand). */
export function commentsOf(world: World, p: Post): CommentRec[] {
  // keyed by the count too: a new post's comments grow with the world's time (world/moving.ts)
  return memo(world, `comments:${p.id}:${p.comment_count}`, () => {
    const n = Math.min(p.comment_count, COMMENT_CAP);
    const rng = Rng.of(world.seed, 'comments', p.id);
    const out: CommentRec[] = [];
    let t = p.t;
    for (let k = 0; k < n; k++) {
      t += rng.int(1, 240) * 60_000;
      const r = rng.next();
      const sentiment: Sentiment = r < 0.62 ? 'positive' : r < 0.9 ? 'neutral' : 'negative';
      const text = rng.pick(
        sentiment === 'positive' ? COMMENTS_POS : sentiment === 'neutral' ? COMMENTS_NEU : COMMENTS_NEG,
      );
      const author = world.accounts[rng.int(0, world.accounts.length - 1)];
      out.push({
        id: `18${p.id.slice(1)}${String(k).padStart(3, '0')}`,
        text,
        like_count: rng.chance(0.6) ? 0 : rng.logInt(1, 500),
        created_at: iso(t),
        author: author.summary,
        sentiment,
      });
    }
    return out;
  });
}

export function likersOf(world: World, p: Post): UserSummary[] {
  return memo(world, `likers:${p.id}:${Math.min(p.like_count, LIKER_CAP)}`, () =>
    pickAccounts(world, p.author, `likers:${p.id}`, Math.min(p.like_count, LIKER_CAP)).map((x) => x.summary),
  );
}

export interface StoryRec {
  id: string;
  shortcode: string;
  type: 'photo' | 'video';
  taken_at: string;
  t: number;
  image_url: string;
  video_url: string | null;
  video_duration: number | null;
}

/** All stories of an account, live and expired, placed relative to `startedAt` (server start). */
export function storiesOf(world: World, a: Account, startedAt: number): StoryRec[] {
  const rng = Rng.of(world.seed, 'stories', a.idx);
  const out: StoryRec[] = [];
  const total = a.liveStories + a.expiredStories;
  for (let k = 0; k < total; k++) {
    const live = k < a.liveStories;
    const ageMs = live ? Math.round((0.5 + rng.next() * 22) * HOUR) : Math.round((25 + rng.next() * 48) * HOUR);
    const t = Math.floor((startedAt - ageMs) / 1000) * 1000;
    const video = rng.chance(0.4);
    const id = `3${String(a.idx).padStart(4, '0')}9${String(k).padStart(3, '0')}${String(hash32(world.seed, 'sid', a.idx, k) % 1e7).padStart(7, '0')}`;
    const shortcode = toShortcode(id);
    out.push({
      id,
      shortcode,
      type: video ? 'video' : 'photo',
      taken_at: iso(t),
      t,
      image_url: imageRef('s', shortcode),
      video_url: video ? videoRef('s', shortcode) : null,
      video_duration: video ? rng.int(30, 150) / 10 : null,
    });
  }
  return out.sort((x, y) => x.t - y.t);
}

export interface HighlightRec {
  id: string;
  title: string;
  media_count: number;
  created_at: string;
  cover_image_url: string;
}

export function highlightsOf(world: World, a: Account): HighlightRec[] {
  return memo(world, `highlights:${a.id}`, () => {
    const rng = Rng.of(world.seed, 'highlights', a.idx);
    const titles = [...a.topic.words, 'Q&A', 'Travel', 'Press', 'Shop', 'Behind the scenes'];
    const out: HighlightRec[] = [];
    for (let k = 0; k < a.highlights; k++) {
      const id = `17${String(a.idx).padStart(4, '0')}${String(k).padStart(2, '0')}${String(hash32(world.seed, 'hid', a.idx, k) % 1e8).padStart(8, '0')}`;
      const title = rng.pick(titles);
      out.push({
        id,
        title: title[0].toUpperCase() + title.slice(1),
        media_count: rng.int(1, 60),
        created_at: iso(REFERENCE_TIME - rng.int(10, 900) * DAY),
        cover_image_url: imageRef('h', id),
      });
    }
    return out;
  });
}

export function sentimentOf(text: string): Sentiment {
  return COMMENTS_POS.includes(text) ? 'positive' : COMMENTS_NEG.includes(text) ? 'negative' : 'neutral';
}
