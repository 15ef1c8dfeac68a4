/**
 * THE registry: every endpoint of the service, declared once, as runtime facts: what the products
 * need to validate, send, bill, check, cache and tabulate a call. The Sheets functions, the n8n
 * operations, the sandbox routes and the OpenAPI document are all derived from this list, with
 * each endpoint's documentation (summary, description, n8n names, examples), which lives in
 * docs.ts by endpoint id: the Sheets bundle, paid for on every custom-function call, imports this
 * module and not that one. Adding an endpoint is adding one entry here and one in docs.ts.
 */
import * as s from './schemas';
import type { CostRule, EndpointDef, ParamDef } from './types';

// Parameter builders keep each entry to the facts that differ.
/** A required parameter of an identifier kind, named after its kind unless the API names it otherwise. */
const identifierParam = (kind: ParamDef['kind'], name: string = kind): ParamDef => ({ name, kind, required: true });
const handle = identifierParam('handle');
const post = identifierParam('post');
const tag = identifierParam('tag');
const location = identifierParam('location', 'id');
/** A text parameter; its description is quoted by its validation message. */
const textParam = (name: string, description: string, required = true): ParamDef => ({
  name,
  kind: 'text',
  required,
  description,
});
const query = textParam('q', 'Search keyword');
/** An optional whole number within min..max, sent as `dflt` when left out. */
const integerParam = (name: string, min: number, max: number, dflt: number): ParamDef => ({
  name,
  kind: 'integer',
  required: false,
  min,
  max,
  default: dflt,
});
const posts = (dflt: number): ParamDef => integerParam('posts', 1, 50, dflt);
const cursor: ParamDef = { name: 'cursor', kind: 'cursor', required: false };
const flat = (credits: number, exact = true): CostRule => ({ type: 'flat', credits, exact });
/** base + ceil(posts / per) * perWindow: the spec's "2-6 by window" ranges, read as a rule. */
const byPosts = (base: number, per: number): CostRule => ({ type: 'window', param: 'posts', base, per, perWindow: 1 });

/**
 * How long an answer may be reused (EndpointDef.maxReuseHours), by what the data is. The products'
 * own setting (Sheets: 1 hour to 30 days, default 7 days) applies up to these.
 */
const REUSE = {
  /**
   * Live lists: stories expire 24 hours after they are posted (spec §2.6, §8), and a hashtag's or a
   * place's recent posts are a newest-first feed that changes by the minute (§4 rule 4 monitors it
   * by polling). An hour-old story list lists no story that expired more than an hour ago and misses
   * at most an hour of new ones; an hour is also the shortest freshness setting.
   */
  live: 1,
  /**
   * Activity on a post or a tag: comments, likers, their analysis, a hashtag's velocity (posts per
   * hour) and ranked top posts, search results. They move within a day; six hours keeps a sheet
   * recalculated through a working day consistent without showing yesterday's conversation.
   */
  activity: 6,
  /** Counts on recent posts (likes, comments, views) and which posts are recent: they change daily. */
  counts: 24,
  /** Profiles, their insights, highlights, follower lists, places, AI texts: the user's setting. */
  setting: null,
  /** The balance: never reused. */
  never: 0,
} as const;

const POST_COLUMNS = ['shortcode', 'type', 'taken_at', 'like_count', 'comment_count', 'view_count', 'caption', 'url'];
const TAG_POST_COLUMNS = [
  'shortcode',
  'author.username',
  'type',
  'taken_at',
  'like_count',
  'comment_count',
  'caption',
  'url',
];
const USER_COLUMNS = ['username', 'full_name', 'is_verified', 'is_private', 'id'];

/**
 * An endpoint as written below: the facts that differ from the usual, which `define` fills in. A
 * list is paged with `cursor` exactly when it has a page size; an answer is one object unless the
 * entry has a page size or says `list`; it is reused by the user's setting unless the data is
 * shorter-lived; an answer whose shape the spec does not show is checked as any object and has no
 * default columns.
 */
type Entry = Omit<EndpointDef, 'paginated' | 'shape' | 'maxReuseHours' | 'schema' | 'columns'> &
  Partial<Pick<EndpointDef, 'shape' | 'maxReuseHours' | 'schema' | 'columns'>>;

const define = ({
  shape,
  maxReuseHours = REUSE.setting,
  schema = s.anyObject,
  columns = [],
  ...e
}: Entry): EndpointDef => ({
  ...e,
  shape: shape ?? (e.pageSize === undefined ? 'single' : 'list'),
  paginated: e.pageSize !== undefined,
  maxReuseHours,
  schema,
  columns,
});

export const endpoints: readonly EndpointDef[] = (
  [
    // ---- Profiles (§4.2)
    {
      id: 'profile',
      fn: 'IGPROFILE',
      params: [handle],
      cost: flat(1),
      tracker: { idField: 'id' },
      schema: s.profile,
      columns: [
        'username',
        'full_name',
        'followers',
        'following',
        'posts',
        'is_verified',
        'is_private',
        'is_business',
        'category',
        'biography',
        'external_url',
      ],
    },
    {
      id: 'profile/about',
      fn: 'IGABOUT',
      params: [handle],
      cost: flat(2),
      schema: s.about,
      columns: [
        'username',
        'account_created',
        'account_age_years',
        'country_of_registration',
        'has_changed_username',
        'former_usernames',
        'is_verified',
      ],
    },
    {
      id: 'profile/posts',
      fn: 'IGPOSTS',
      params: [handle, cursor],
      pageSize: 12,
      cost: flat(2),
      maxReuseHours: REUSE.counts,
      schema: s.post,
      columns: POST_COLUMNS,
    },
    {
      id: 'profile/reels',
      fn: 'IGREELS',
      params: [handle, cursor],
      pageSize: 12,
      cost: flat(2),
      maxReuseHours: REUSE.counts,
      schema: s.post,
      columns: [
        'shortcode',
        'taken_at',
        'view_count',
        'like_count',
        'comment_count',
        'video_duration',
        'caption',
        'url',
      ],
    },
    {
      id: 'profile/stories',
      fn: 'IGSTORIES',
      params: [handle],
      shape: 'list',
      cost: flat(2),
      maxReuseHours: REUSE.live,
      schema: s.story,
      columns: ['id', 'type', 'taken_at', 'image_url', 'video_url', 'video_duration'],
    },
    {
      id: 'profile/highlights',
      fn: 'IGHIGHLIGHTS',
      params: [handle],
      shape: 'list',
      cost: flat(2),
      schema: s.highlight,
      columns: ['id', 'title', 'media_count', 'created_at', 'cover_image_url'],
    },
    {
      id: 'profile/followers',
      fn: 'IGFOLLOWERS',
      params: [handle, cursor],
      pageSize: 25,
      cost: flat(2),
      schema: s.userSummary,
      columns: USER_COLUMNS,
    },
    {
      id: 'profile/following',
      fn: 'IGFOLLOWING',
      params: [handle, cursor],
      pageSize: 25,
      cost: flat(2),
      schema: s.userSummary,
      columns: USER_COLUMNS,
    },
    // ---- Insights on a profile (§4.2)
    {
      id: 'insights/profile/engagement',
      fn: 'IGENGAGEMENT',
      params: [handle, posts(12)],
      cost: byPosts(1, 12),
      tracker: {},
      schema: s.engagement,
      columns: [
        'username',
        'followers',
        'posts_analyzed',
        'avg_likes',
        'avg_comments',
        'avg_engagement',
        'engagement_rate_pct',
      ],
    },
    {
      id: 'insights/profile/best-time',
      fn: 'IGBESTTIME',
      params: [handle, posts(30), integerParam('timezone', -12, 14, 0)],
      cost: byPosts(3, 17),
      schema: s.bestTime,
      columns: ['username', 'posts_analyzed', 'timezone_offset', 'recommendation', 'best_hours', 'best_days'],
    },
    {
      id: 'insights/profile/stats',
      fn: 'IGSTATS',
      params: [handle, posts(30)],
      cost: byPosts(3, 17),
      tracker: {},
      schema: s.stats,
      columns: [
        'username',
        'followers',
        'posts_analyzed',
        'posts_per_week',
        'avg_days_between_posts',
        'best_format',
        'format_mix',
      ],
    },
    {
      id: 'insights/profile/audit',
      fn: 'IGAUDIT',
      params: [handle, integerParam('sample', 1, 500, 100)],
      cost: { type: 'window', param: 'sample', base: 2, per: 50, perWindow: 2 },
      tracker: {},
      schema: s.audit,
      columns: [
        'username',
        'followers_total',
        'sampled',
        'suspected_fake_pct',
        'estimated_real_pct',
        'estimated_real_followers',
        'quality_grade',
      ],
    },
    {
      id: 'insights/profile/qualify',
      fn: 'IGQUALIFY',
      params: [handle, textParam('criteria', 'Plain-language description of the ideal lead'), posts(12)],
      cost: byPosts(2, 12),
      schema: s.qualify,
      columns: ['username', 'fit_score', 'verdict', 'recommended_action', 'reasons'],
    },
    {
      id: 'insights/profile/summary',
      fn: 'IGSUMMARY',
      params: [handle, posts(12)],
      cost: byPosts(2, 12),
      schema: s.summary,
      columns: ['username', 'one_liner', 'niche', 'audience', 'tone', 'recent_focus', 'tags'],
    },
    {
      id: 'insights/profile/niche',
      fn: 'IGNICHE',
      params: [handle, posts(12)],
      cost: byPosts(2, 12),
      schema: s.niche,
      columns: ['username', 'niche', 'sub_niche', 'brand_voice', 'target_audience', 'content_pillars'],
    },
    {
      id: 'insights/profile/similar',
      fn: 'IGSIMILAR',
      params: [handle],
      cost: flat(3),
      schema: s.similar,
      columns: ['seed.username', 'search_query', 'similar'],
    },
    // ---- Posts (§4.2)
    {
      id: 'post',
      fn: 'IGPOST',
      params: [post],
      cost: flat(1),
      maxReuseHours: REUSE.counts,
      schema: s.post,
      columns: [
        'shortcode',
        'type',
        'taken_at',
        'like_count',
        'comment_count',
        'view_count',
        'author.username',
        'location.name',
        'caption',
        'url',
      ],
    },
    {
      id: 'post/comments',
      fn: 'IGCOMMENTS',
      params: [post, cursor],
      pageSize: 20,
      cost: flat(2),
      maxReuseHours: REUSE.activity,
      schema: s.comment,
      columns: ['author.username', 'text', 'like_count', 'created_at'],
    },
    {
      id: 'post/likers',
      fn: 'IGLIKERS',
      params: [post],
      shape: 'list',
      cost: flat(2),
      maxReuseHours: REUSE.activity,
      schema: s.userSummary,
      columns: USER_COLUMNS,
    },
    {
      id: 'insights/post/image',
      fn: 'IGPOSTIMAGE',
      params: [post],
      cost: flat(3),
      schema: s.postImage,
      columns: [
        'post',
        'analysis.scene',
        'analysis.subjects',
        'analysis.mood',
        'analysis.aesthetic_score',
        'analysis.brand_safe',
        'analysis.suggested_alt_text',
      ],
    },
    {
      id: 'insights/post/comments',
      fn: 'IGCOMMENTINSIGHTS',
      params: [post],
      cost: flat(3, false),
      maxReuseHours: REUSE.activity,
    },
    // ---- Hashtags (§4.2)
    {
      id: 'hashtag/top',
      fn: 'IGHASHTAGTOP',
      params: [tag, cursor],
      pageSize: 30,
      cost: flat(1),
      maxReuseHours: REUSE.activity,
      schema: s.post,
      columns: TAG_POST_COLUMNS,
    },
    {
      id: 'hashtag/recent',
      fn: 'IGHASHTAGRECENT',
      params: [tag, cursor],
      pageSize: 30,
      cost: flat(1),
      maxReuseHours: REUSE.live,
      schema: s.post,
      columns: TAG_POST_COLUMNS,
    },
    {
      id: 'insights/hashtag',
      fn: 'IGHASHTAG',
      params: [tag],
      cost: flat(2),
      maxReuseHours: REUSE.activity,
    },
    // ---- Locations
    {
      id: 'location',
      fn: 'IGLOCATION',
      params: [location],
      cost: flat(1, false),
    },
    {
      id: 'location/posts',
      fn: 'IGLOCATIONPOSTS',
      params: [location, cursor],
      pageSize: 24,
      cost: flat(1),
      maxReuseHours: REUSE.live,
      schema: s.post,
      columns: [
        'shortcode',
        'author.username',
        'taken_at',
        'like_count',
        'comment_count',
        'location.name',
        'caption',
        'url',
      ],
    },
    // ---- Search
    {
      id: 'search/users',
      fn: 'IGSEARCHUSERS',
      params: [query],
      shape: 'list',
      cost: flat(1, false),
      maxReuseHours: REUSE.activity,
      columns: USER_COLUMNS,
    },
    {
      id: 'search/hashtags',
      fn: 'IGSEARCHHASHTAGS',
      params: [query],
      shape: 'list',
      cost: flat(1),
      maxReuseHours: REUSE.activity,
      schema: s.hashtagSearchResult,
      columns: ['name', 'media_count'],
    },
    {
      id: 'search/locations',
      fn: 'IGSEARCHLOCATIONS',
      params: [query],
      shape: 'list',
      cost: flat(1, false),
      maxReuseHours: REUSE.activity,
      columns: ['id', 'name', 'city', 'category'],
    },
    // ---- AI writing (§4.3)
    {
      id: 'insights/profile/caption',
      fn: 'IGCAPTION',
      params: [handle, textParam('topic', 'What the caption should be about (optional)', false)],
      cost: flat(3, false),
    },
    {
      id: 'insights/profile/dm-opener',
      fn: 'IGDMOPENER',
      params: [handle, textParam('context', 'What you offer or why you reach out (optional)', false)],
      cost: flat(3, false),
    },
    // ---- Account
    {
      id: 'credits',
      fn: 'IGCREDITS',
      params: [],
      cost: flat(0) /* free, as observed (../shared/spec/NOTES.md) */,
      maxReuseHours: REUSE.never,
      columns: ['credits_remaining'],
    },
  ] satisfies Entry[]
).map(define);

const byId = new Map(endpoints.map((e) => [e.id, e]));

/** Look an endpoint up by id (`profile/posts`), with or without a leading `/v1/` or `/`. */
export function findEndpoint(id: string): EndpointDef | undefined {
  return byId.get(id.replace(/^\/?(v1\/)?/, ''));
}

export function getEndpoint(id: string): EndpointDef {
  const e = findEndpoint(id);
  if (!e) throw new Error(`Unknown endpoint "${id}". Known: ${endpoints.map((x) => x.id).join(', ')}`);
  return e;
}

export const pathOf = (e: EndpointDef): string => `/v1/${e.id}`;
