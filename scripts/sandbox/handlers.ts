/**
 * One handler per registry endpoint: how the endpoint reads the world. Everything else about an
 * endpoint (route, parameters, validation, cost) comes from core's registry (see routes.ts).
 */
import type { Account, HashtagRec, LocationRec, Post, World } from './world/records';
import { commentsOf, followersOf, followingOf, highlightsOf, likersOf, storiesOf } from './world/derived';
import { hash32 } from './world/random';
import { DAY, REFERENCE_TIME } from './world/vocabulary';
import { imageRef, videoRef } from './world/media';
import * as measured from './insights/measured';
import * as generated from './insights/generated-text';
import { notFound } from './errors';
import { list, listOf, locationJson, postJson, postObject } from './json';
import { PAGE_SIZE, Pager, SEARCH_LIMIT } from './paging';
import type { Runtime } from './runtime';
import type { Ctx, Handler } from './routes';

function findAccount(world: World, handle: string): Account | undefined {
  return /^[0-9]+$/.test(handle)
    ? (world.byId.get(handle) ?? world.byUsername.get(handle))
    : world.byUsername.get(handle);
}

/** `o` without the fields `omit` names (an added account's answer missing documented fields). */
function without<T extends object>(omit: string[], o: T): T {
  if (!omit.length) return o;
  const out = { ...o } as Record<string, unknown>;
  for (const f of omit) delete out[f];
  return out as T;
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

export function createHandlers({
  seed,
  world,
  overlay,
  startedAt,
  clock,
  moving,
}: Pick<Runtime, 'seed' | 'world' | 'overlay' | 'startedAt' | 'clock' | 'moving'>): Record<string, Handler> {
  const pager = new Pager(seed);

  // Each handler's target, or the 404 (billed) that the platform would answer.
  function account(ctx: Ctx): Account {
    const h = String(ctx.params.handle);
    const a = overlay.account(h) ?? findAccount(world, h);
    if (!a) throw notFound(`No account "${h}": it does not exist (or changed its username).`);
    if (a.is_private) throw notFound(`@${a.username} is private: no public data.`, 'private_account');
    return moving.account(a);
  }
  function post(ctx: Ctx): Post {
    const ref = String(ctx.params.post);
    const p = overlay.findPost(ref);
    if (!p || !overlay.alive(p)) throw notFound(`No post "${ref}": it does not exist or was deleted.`);
    if (p.author.is_private) throw notFound(`Post "${ref}" belongs to a private account.`, 'private_account');
    return p;
  }
  function hashtag(ctx: Ctx): { h: HashtagRec | undefined; name: string; recent: Post[] } {
    const name = String(ctx.params.tag);
    const h = world.hashtags.get(name);
    const recent = overlay.recentOf(name, h?.recent ?? []);
    if (!recent.length) throw notFound(`No public posts for #${name}.`);
    return { h, name, recent };
  }
  function location(ctx: Ctx): LocationRec {
    const id = String(ctx.params.id);
    const l = world.locationsById.get(id);
    if (!l) throw notFound(`No location "${id}".`);
    return l;
  }
  const postsAt = (l: LocationRec) => overlay.locationPosts(l.id);
  // a new post's comments so far: none dated after the world's time (its count rises meanwhile)
  const commentsNow = (p: Post) => {
    const all = commentsOf(world, p);
    if (!moving.isNew(p)) return all;
    const now = clock.worldNow();
    return all.filter((c) => Date.parse(c.created_at) <= now);
  };
  const windowOf = (ctx: Ctx, a: Account) => overlay.feedOf(a).slice(0, Number(ctx.params.posts));

  const profileJson = (a: Account) =>
    without(overlay.omits(a), {
      id: a.id,
      username: a.username,
      full_name: a.full_name,
      biography: a.biography,
      is_verified: a.is_verified,
      is_private: a.is_private,
      is_business: a.is_business,
      category: a.category,
      followers: a.followers,
      following: a.following,
      posts: overlay.feedOf(a).length,
      external_url: a.external_url,
      profile_pic_url: a.profile_pic_url,
      public_email: a.public_email,
      public_phone_number: a.public_phone_number,
    });

  return {
    profile: (ctx) => profileJson(account(ctx)),
    'profile/about': (ctx) => {
      const a = account(ctx);
      const {
        id,
        full_name,
        biography,
        is_private,
        is_business,
        category,
        followers,
        following,
        posts,
        external_url,
        profile_pic_url,
      } = profileJson(a);
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
        profile: {
          id,
          full_name,
          biography,
          is_private,
          is_business,
          category,
          followers,
          following,
          posts,
          external_url,
          profile_pic_url,
        },
      };
    },
    'profile/posts': (ctx) => {
      const a = account(ctx);
      const pinned = overlay.pinnedOf(a);
      const feed = pinned.length ? overlay.feedOf(a).filter((p) => !pinned.includes(p)) : overlay.feedOf(a);
      return pager.keyed(ctx, a.id, feed, PAGE_SIZE.posts, pinned);
    },
    'profile/reels': (ctx) => {
      const a = account(ctx);
      return pager.keyed(ctx, a.id, overlay.reelsOf(a), PAGE_SIZE.reels);
    },
    'profile/stories': (ctx) => {
      const a = account(ctx);
      // the world's time (explicit moves only), not the real-paced clock: the same moves, the same stories
      const now = clock.worldNow();
      const all = [...storiesOf(world, a, startedAt), ...moving.storiesOf(a)];
      const live = all.filter((s) => now - s.t < DAY && s.t <= now);
      return list(
        live.map(({ t, ...s }) => s),
        null,
      );
    },
    'profile/highlights': (ctx) => list(highlightsOf(world, account(ctx)), null),
    'profile/followers': (ctx) => {
      const a = account(ctx);
      return pager.offsetList(ctx, a.id, followersOf(world, a), PAGE_SIZE.followers);
    },
    'profile/following': (ctx) => {
      const a = account(ctx);
      return pager.offsetList(ctx, a.id, followingOf(world, a), PAGE_SIZE.following);
    },
    'insights/profile/engagement': (ctx) => {
      const a = account(ctx);
      return measured.engagement(a, windowOf(ctx, a));
    },
    'insights/profile/best-time': (ctx) => {
      const a = account(ctx);
      return measured.bestTime(a, windowOf(ctx, a), Number(ctx.params.timezone));
    },
    'insights/profile/stats': (ctx) => {
      const a = account(ctx);
      return measured.stats(a, windowOf(ctx, a));
    },
    'insights/profile/audit': (ctx) => {
      const a = account(ctx);
      return measured.audit(a, followersOf(world, a), Number(ctx.params.sample));
    },
    'insights/profile/qualify': (ctx) => {
      const a = account(ctx);
      return generated.qualify(a, windowOf(ctx, a), String(ctx.params.criteria));
    },
    'insights/profile/summary': (ctx) => {
      const a = account(ctx);
      return generated.summary(a, windowOf(ctx, a));
    },
    'insights/profile/niche': (ctx) => {
      const a = account(ctx);
      return generated.niche(a, windowOf(ctx, a));
    },
    'insights/profile/similar': (ctx) => generated.similar(world, account(ctx)),
    'insights/profile/caption': (ctx) => {
      const a = account(ctx);
      return generated.caption(a, overlay.feedOf(a).slice(0, 12), String(ctx.params.topic ?? ''));
    },
    'insights/profile/dm-opener': (ctx) => {
      const a = account(ctx);
      return generated.dmOpener(a, overlay.feedOf(a).slice(0, 12), String(ctx.params.context ?? ''));
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
            image_url: imageRef('p', `${p.shortcode}_${k + 1}`),
            video_url: video ? videoRef('v', `${p.shortcode}_${k + 1}`) : null,
          };
        });
      }
      return obj;
    },
    'post/comments': (ctx) => {
      const p = post(ctx);
      const { page, next } = pager.offset(ctx, p.id, commentsNow(p), PAGE_SIZE.comments);
      return list(
        page.map(({ sentiment, ...c }) => c),
        next,
      );
    },
    'post/likers': (ctx) => list(likersOf(world, post(ctx)), null),
    'insights/post/image': (ctx) => generated.postImage(post(ctx)),
    'insights/post/comments': (ctx) => {
      const p = post(ctx);
      return generated.commentInsights(p, commentsNow(p));
    },
    'hashtag/top': (ctx) => {
      const { h, name, recent } = hashtag(ctx);
      const top = moving.engagedAll((h?.top ?? []).filter(overlay.alive));
      const ranked = top.length ? top : recent.slice(0, 9);
      const { page, next } = pager.offset(ctx, name, ranked, PAGE_SIZE.hashtag);
      return listOf(page, next, postJson);
    },
    'hashtag/recent': (ctx) => {
      const { name, recent } = hashtag(ctx);
      return pager.keyed(ctx, name, recent, PAGE_SIZE.hashtag);
    },
    'insights/hashtag': (ctx) => {
      const { h, name, recent } = hashtag(ctx);
      const rec: HashtagRec = h ?? { name, id: '0', recent, top: recent.slice(0, 9), media_count: recent.length };
      return measured.hashtagInsights(rec, recent);
    },
    location: (ctx) => {
      const l = location(ctx);
      return {
        ...locationJson(l),
        slug: l.slug,
        media_count: postsAt(l).length,
        url: `https://www.instagram.com/explore/locations/${l.id}/${l.slug}/`,
      };
    },
    'location/posts': (ctx) => {
      const l = location(ctx);
      return pager.keyed(ctx, l.id, postsAt(l), PAGE_SIZE.location);
    },
    'search/users': (ctx) => {
      const q = String(ctx.params.q).toLowerCase().replace(/^@/, '');
      const hits = world.accounts
        .filter((a) => a.username.includes(q) || a.full_name.toLowerCase().includes(q))
        .map((a) => moving.account(a))
        .sort((x, y) => y.followers - x.followers || (x.username < y.username ? -1 : 1))
        .slice(0, SEARCH_LIMIT);
      return list(
        hits.map((a) => ({ ...a.summary, followers: a.followers, is_business: a.is_business })),
        null,
      );
    },
    'search/hashtags': (ctx) => {
      const q = String(ctx.params.q).toLowerCase().replace(/^#/, '');
      const hits = [...world.hashtags.values()]
        .filter((h) => h.name.includes(q))
        .sort((x, y) => y.media_count - x.media_count)
        .slice(0, SEARCH_LIMIT);
      return list(
        hits.map((h) => ({ id: h.id, name: h.name, media_count: h.media_count })),
        null,
      );
    },
    'search/locations': (ctx) => {
      const q = String(ctx.params.q).toLowerCase();
      const hits = world.locations
        .filter(
          (l) =>
            l.name.toLowerCase().includes(q) ||
            l.city.toLowerCase().includes(q) ||
            l.category.toLowerCase().includes(q),
        )
        .slice(0, SEARCH_LIMIT);
      return list(
        hits.map((l) => ({ ...locationJson(l), media_count: postsAt(l).length })),
        null,
      );
    },
    credits: () => ({}), // the pipeline answers this one itself: the balance needs the caller's key
  };
}
