/**
 * THE registry: every endpoint of the service, declared once. The Sheets functions, the n8n
 * operations, the sandbox routes, the OpenAPI document and the docs are all derived from this list.
 * Adding an endpoint is adding one entry here.
 */
import * as s from './schemas';
import type { CostRule, EndpointDef, ParamDef } from './types';

// Parameter builders keep each entry to the facts that differ.
const handle: ParamDef = {
  name: 'handle',
  kind: 'handle',
  required: true,
  description: 'Account as username, @username, numeric user id or profile URL',
  example: 'nasa',
};
const post: ParamDef = {
  name: 'post',
  kind: 'post',
  required: true,
  description: 'Post or reel as media id, shortcode or post/reel URL',
  // A post of @nasa in the sandbox (seed 42), so every example works there; see test/examples.test.ts.
  example: 'https://www.instagram.com/p/CmiJGWA9jpk/',
};
const tag: ParamDef = {
  name: 'tag',
  kind: 'tag',
  required: true,
  description: 'Hashtag, with or without the leading #',
  example: 'veganrecipes',
};
const query: ParamDef = { name: 'q', kind: 'text', required: true, description: 'Search keyword', example: 'coffee' };
const cursor: ParamDef = {
  name: 'cursor',
  kind: 'cursor',
  required: false,
  description: 'Value of next_cursor from the previous page; omit for the first page',
};
const posts = (dflt: number): ParamDef => ({
  name: 'posts',
  kind: 'integer',
  required: false,
  min: 1,
  max: 50,
  default: dflt,
  description: `How many recent posts to analyze (1-50, default ${dflt}); more posts cost more credits`,
});
const flat = (credits: number, exact = true): CostRule => ({ type: 'flat', credits, exact });
/** base + ceil(posts / per) * step: the spec's "2-6 by window" ranges, read as a rule. */
const byPosts = (base: number, per: number): CostRule => ({ type: 'window', param: 'posts', base, per, step: 1 });

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
const USER_COLUMNS = ['username', 'full_name', 'is_verified', 'is_private', 'id'];

export const endpoints: readonly EndpointDef[] = [
  // ---- Profiles (§4.2)
  {
    id: 'profile', group: 'Profiles', resource: 'Profile', operation: 'Get', fn: 'IGPROFILE',
    summary: 'Public profile of an account',
    description: 'Get an account\'s public profile: follower, following and post counts, bio, category, verified and business flags, contact fields.',
    params: [handle], shape: 'single', paginated: false, cost: flat(1), maxReuseHours: REUSE.setting, schema: s.profile,
    columns: ['username', 'full_name', 'followers', 'following', 'posts', 'is_verified', 'is_private', 'is_business', 'category', 'biography', 'external_url'],
    documented: true,
  },
  {
    id: 'profile/about', group: 'Profiles', resource: 'Profile', operation: 'Get About', fn: 'IGABOUT',
    summary: 'Account age, country of registration and former usernames',
    description: 'Get when an account was created (month and year), its country of registration and any former usernames.',
    params: [handle], shape: 'single', paginated: false, cost: flat(2), maxReuseHours: REUSE.setting, schema: s.about,
    columns: ['username', 'account_created', 'account_age_years', 'country_of_registration', 'has_changed_username', 'former_usernames', 'is_verified'],
    documented: true,
  },
  {
    id: 'profile/posts', group: 'Profiles', resource: 'Profile', operation: 'Get Posts', fn: 'IGPOSTS',
    exampleField: 'like_count',
    summary: 'Recent feed posts of an account, newest first',
    description: 'List an account\'s feed posts (photos, videos, carousels), newest first, with likes, comments, caption and location. Paged; 2 credits per page.',
    params: [handle, cursor], shape: 'list', paginated: true, pageSize: 12, cost: flat(2), maxReuseHours: REUSE.counts, schema: s.post,
    columns: POST_COLUMNS, documented: true,
  },
  {
    id: 'profile/reels', group: 'Profiles', resource: 'Profile', operation: 'Get Reels', fn: 'IGREELS',
    exampleField: 'view_count',
    summary: 'Reels of an account with view counts',
    description: 'List an account\'s reels with view, like and comment counts, newest first. Paged; 2 credits per page.',
    params: [handle, cursor], shape: 'list', paginated: true, pageSize: 12, cost: flat(2), maxReuseHours: REUSE.counts, schema: s.post,
    columns: ['shortcode', 'taken_at', 'view_count', 'like_count', 'comment_count', 'video_duration', 'caption', 'url'],
    documented: true,
  },
  {
    id: 'profile/stories', group: 'Profiles', resource: 'Profile', operation: 'Get Stories', fn: 'IGSTORIES',
    summary: 'Live stories of an account (last 24 hours)',
    description: 'List an account\'s live stories (stories expire after 24 hours). Not paged.',
    params: [handle], shape: 'list', paginated: false, cost: flat(2), maxReuseHours: REUSE.live, schema: s.story,
    columns: ['id', 'type', 'taken_at', 'image_url', 'video_url', 'video_duration'], documented: true,
  },
  {
    id: 'profile/highlights', group: 'Profiles', resource: 'Profile', operation: 'Get Highlights', fn: 'IGHIGHLIGHTS',
    summary: 'Story highlights of an account',
    description: 'List an account\'s story highlights with title, item count and cover image.',
    params: [handle], shape: 'list', paginated: false, cost: flat(2), maxReuseHours: REUSE.setting, schema: s.highlight,
    columns: ['id', 'title', 'media_count', 'created_at', 'cover_image_url'], documented: true,
  },
  {
    id: 'profile/followers', group: 'Profiles', resource: 'Profile', operation: 'Get Followers', fn: 'IGFOLLOWERS',
    exampleField: 'username',
    summary: 'Followers of a public account (about 25 per page)',
    description: 'List followers of a public account, about 25 per page, 2 credits per page. Many accounts cap the visible list at about 50.',
    params: [handle, cursor], shape: 'list', paginated: true, pageSize: 25, cost: flat(2), maxReuseHours: REUSE.setting, schema: s.userSummary,
    columns: USER_COLUMNS, documented: true,
  },
  {
    id: 'profile/following', group: 'Profiles', resource: 'Profile', operation: 'Get Following', fn: 'IGFOLLOWING',
    exampleField: 'username',
    summary: 'Accounts a public account follows (about 25 per page)',
    description: 'List the accounts a public account follows, about 25 per page, 2 credits per page.',
    params: [handle, cursor], shape: 'list', paginated: true, pageSize: 25, cost: flat(2), maxReuseHours: REUSE.setting, schema: s.userSummary,
    columns: USER_COLUMNS, documented: true,
  },
  // ---- Insights on a profile (§4.2)
  {
    id: 'insights/profile/engagement', group: 'Insights', resource: 'Profile Insight', operation: 'Get Engagement', fn: 'IGENGAGEMENT',
    exampleField: 'engagement_rate_pct',
    summary: 'Engagement rate from recent posts',
    description: 'Compute an account\'s engagement rate: average likes plus comments per recent post divided by followers (engagement_rate_pct is the percentage).',
    params: [handle, posts(12)], shape: 'single', paginated: false, cost: byPosts(1, 12), maxReuseHours: REUSE.setting, schema: s.engagement,
    columns: ['username', 'followers', 'posts_analyzed', 'avg_likes', 'avg_comments', 'avg_engagement', 'engagement_rate_pct'],
    documented: true,
  },
  {
    id: 'insights/profile/best-time', group: 'Insights', resource: 'Profile Insight', operation: 'Get Best Time', fn: 'IGBESTTIME',
    exampleField: 'recommendation',
    summary: 'Best hours and days to post',
    description: 'Find the hours and weekdays when an account\'s recent posts got the most engagement, in a given UTC offset.',
    params: [
      handle,
      posts(30),
      { name: 'timezone', kind: 'integer', required: false, min: -12, max: 14, default: 0, description: 'UTC offset in whole hours for the result (-12 to 14, default 0)' },
    ],
    shape: 'single', paginated: false, cost: byPosts(3, 17), maxReuseHours: REUSE.setting, schema: s.bestTime,
    columns: ['username', 'posts_analyzed', 'timezone_offset', 'recommendation', 'best_hours', 'best_days'], documented: true,
  },
  {
    id: 'insights/profile/stats', group: 'Insights', resource: 'Profile Insight', operation: 'Get Stats', fn: 'IGSTATS',
    exampleField: 'posts_per_week',
    summary: 'Posting frequency and format mix',
    description: 'Compute how often an account posts (posts per week, days between posts) and its mix of photo, video and carousel posts with the best-performing format.',
    params: [handle, posts(30)], shape: 'single', paginated: false, cost: byPosts(3, 17), maxReuseHours: REUSE.setting, schema: s.stats,
    columns: ['username', 'followers', 'posts_analyzed', 'posts_per_week', 'avg_days_between_posts', 'best_format', 'format_mix'],
    documented: true,
  },
  {
    id: 'insights/profile/audit', group: 'Insights', resource: 'Profile Insight', operation: 'Get Audit', fn: 'IGAUDIT',
    exampleField: 'suspected_fake_pct',
    summary: 'Fake-follower audit from a follower sample',
    description: 'Estimate the share of fake followers of an account from a sample of its followers, with a letter grade and the signals found.',
    params: [
      handle,
      { name: 'sample', kind: 'integer', required: false, min: 1, max: 500, default: 100, description: 'How many followers to sample (1-500, default 100); larger samples cost more' },
    ],
    shape: 'single', paginated: false, cost: { type: 'window', param: 'sample', base: 2, per: 50, step: 2 }, maxReuseHours: REUSE.setting, schema: s.audit,
    columns: ['username', 'followers_total', 'sampled', 'suspected_fake_pct', 'estimated_real_pct', 'estimated_real_followers', 'quality_grade'],
    documented: true,
  },
  {
    id: 'insights/profile/qualify', group: 'Insights', resource: 'Profile Insight', operation: 'Qualify', fn: 'IGQUALIFY',
    summary: 'Score an account against your ideal-lead criteria',
    description: 'Score (0-100) how well an account fits a plain-language description of your ideal lead, with a verdict, reasons and a recommended action.',
    params: [
      handle,
      { name: 'criteria', kind: 'text', required: true, description: 'Plain-language description of the ideal lead', example: 'vegan food creators in Europe' },
      posts(12),
    ],
    shape: 'single', paginated: false, cost: byPosts(2, 12), maxReuseHours: REUSE.setting, schema: s.qualify,
    columns: ['username', 'fit_score', 'verdict', 'recommended_action', 'reasons'], documented: true,
  },
  {
    id: 'insights/profile/summary', group: 'Insights', resource: 'Profile Insight', operation: 'Get Summary', fn: 'IGSUMMARY',
    summary: 'AI summary of who an account is',
    description: 'Summarize an account in plain words: one-liner, who they are, niche, audience, tone and recent focus.',
    params: [handle, posts(12)], shape: 'single', paginated: false, cost: byPosts(2, 12), maxReuseHours: REUSE.setting, schema: s.summary,
    columns: ['username', 'one_liner', 'niche', 'audience', 'tone', 'recent_focus', 'tags'], documented: true,
  },
  {
    id: 'insights/profile/niche', group: 'Insights', resource: 'Profile Insight', operation: 'Get Niche', fn: 'IGNICHE',
    summary: 'Niche, brand voice and content pillars',
    description: 'Classify an account\'s niche and sub-niche, brand voice, target audience and content pillars.',
    params: [handle, posts(12)], shape: 'single', paginated: false, cost: byPosts(2, 12), maxReuseHours: REUSE.setting, schema: s.niche,
    columns: ['username', 'niche', 'sub_niche', 'brand_voice', 'target_audience', 'content_pillars'], documented: true,
  },
  {
    id: 'insights/profile/similar', group: 'Insights', resource: 'Profile Insight', operation: 'Get Similar', fn: 'IGSIMILAR',
    exampleField: 'similar',
    summary: 'Accounts similar to a seed account',
    description: 'Find accounts similar to a seed account by niche, business type and audience, each with a similarity score and why.',
    params: [handle], shape: 'single', paginated: false, cost: flat(3), maxReuseHours: REUSE.setting, schema: s.similar,
    columns: ['seed.username', 'search_query', 'similar'], documented: true,
  },
  // ---- Posts (§4.2)
  {
    id: 'post', group: 'Posts', resource: 'Post', operation: 'Get', fn: 'IGPOST',
    exampleField: 'like_count',
    summary: 'A single post or reel',
    description: 'Get one post or reel by URL, shortcode or media id: likes, comments, views, caption, location and author.',
    params: [post], shape: 'single', paginated: false, cost: flat(1), maxReuseHours: REUSE.counts, schema: s.post,
    columns: ['shortcode', 'type', 'taken_at', 'like_count', 'comment_count', 'view_count', 'author.username', 'location.name', 'caption', 'url'],
    documented: true,
  },
  {
    id: 'post/comments', group: 'Posts', resource: 'Post', operation: 'Get Comments', fn: 'IGCOMMENTS',
    exampleField: 'text',
    summary: 'Comments on a post',
    description: 'List the comments on a post with their authors and like counts. Paged; 2 credits per page.',
    params: [post, cursor], shape: 'list', paginated: true, pageSize: 20, cost: flat(2), maxReuseHours: REUSE.activity, schema: s.comment,
    columns: ['author.username', 'text', 'like_count', 'created_at'], documented: true,
  },
  {
    id: 'post/likers', group: 'Posts', resource: 'Post', operation: 'Get Likers', fn: 'IGLIKERS',
    exampleField: 'username',
    summary: 'Accounts that liked a post',
    description: 'List accounts that liked a post; availability depends on the post\'s privacy and size.',
    params: [post], shape: 'list', paginated: false, cost: flat(2), maxReuseHours: REUSE.activity, schema: s.userSummary,
    columns: USER_COLUMNS, documented: true,
  },
  {
    id: 'insights/post/image', group: 'Insights', resource: 'Post', operation: 'Analyze Image', fn: 'IGPOSTIMAGE',
    exampleField: 'analysis.scene',
    summary: 'AI vision tags of a post\'s image',
    description: 'Describe a post\'s image with AI: subjects, scene, objects, colors, text in the image, mood, aesthetic score, brand safety and suggested alt text.',
    params: [post], shape: 'single', paginated: false, cost: flat(3), maxReuseHours: REUSE.setting, schema: s.postImage,
    columns: ['post', 'analysis.scene', 'analysis.subjects', 'analysis.mood', 'analysis.aesthetic_score', 'analysis.brand_safe', 'analysis.suggested_alt_text'],
    documented: true,
  },
  {
    id: 'insights/post/comments', group: 'Insights', resource: 'Post', operation: 'Analyze Comments', fn: 'IGCOMMENTINSIGHTS',
    summary: 'AI sentiment and themes over a post\'s comments',
    description: 'Summarize the sentiment and recurring themes of a post\'s comments with AI.',
    params: [post], shape: 'single', paginated: false, cost: flat(3, false), maxReuseHours: REUSE.activity, schema: s.anyObject,
    columns: [], documented: false,
  },
  // ---- Hashtags (§4.2)
  {
    id: 'hashtag/top', group: 'Hashtags', resource: 'Hashtag', operation: 'Get Top Posts', fn: 'IGHASHTAGTOP',
    exampleField: 'like_count',
    summary: 'Top (ranked) posts for a hashtag',
    description: 'List the top-ranked posts for a hashtag. Paged; 1 credit per page.',
    params: [tag, cursor], shape: 'list', paginated: true, pageSize: 30, cost: flat(1), maxReuseHours: REUSE.activity, schema: s.post,
    columns: ['shortcode', 'author.username', 'type', 'taken_at', 'like_count', 'comment_count', 'caption', 'url'],
    documented: true,
  },
  {
    id: 'hashtag/recent', group: 'Hashtags', resource: 'Hashtag', operation: 'Get Recent Posts', fn: 'IGHASHTAGRECENT',
    exampleField: 'caption',
    summary: 'Most recent posts for a hashtag, newest first',
    description: 'List the most recent posts for a hashtag, newest first; page back in time with the cursor. 1 credit per page. Use it to monitor a hashtag.',
    params: [tag, cursor], shape: 'list', paginated: true, pageSize: 30, cost: flat(1), maxReuseHours: REUSE.live, schema: s.post,
    columns: ['shortcode', 'author.username', 'type', 'taken_at', 'like_count', 'comment_count', 'caption', 'url'],
    documented: true,
  },
  {
    id: 'insights/hashtag', group: 'Insights', resource: 'Hashtag', operation: 'Analyze', fn: 'IGHASHTAG',
    summary: 'Hashtag difficulty, engagement needed and velocity',
    description: 'Analyze a hashtag: difficulty score 0-100, the average engagement a top post needs, and posts-per-hour velocity.',
    params: [tag], shape: 'single', paginated: false, cost: flat(2), maxReuseHours: REUSE.activity, schema: s.anyObject,
    columns: [], documented: true,
  },
  // ---- Locations
  {
    id: 'location', group: 'Locations', resource: 'Location', operation: 'Get', fn: 'IGLOCATION',
    summary: 'Details of a place',
    description: 'Get details of a place (name, category, address, coordinates) by location id or location URL.',
    params: [{ name: 'id', kind: 'location', required: true, description: 'Location id or location URL', example: '213385402' }],
    shape: 'single', paginated: false, cost: flat(1, false), maxReuseHours: REUSE.setting, schema: s.anyObject,
    columns: [], documented: false,
  },
  {
    id: 'location/posts', group: 'Locations', resource: 'Location', operation: 'Get Posts', fn: 'IGLOCATIONPOSTS',
    exampleField: 'caption',
    summary: 'Posts tagged at a location',
    description: 'List posts tagged at a place, by location id or location URL. Paged; 1 credit per page.',
    params: [{ name: 'id', kind: 'location', required: true, description: 'Location id or location URL', example: '213385402' }, cursor],
    shape: 'list', paginated: true, pageSize: 24, cost: flat(1), maxReuseHours: REUSE.live, schema: s.post,
    columns: ['shortcode', 'author.username', 'taken_at', 'like_count', 'comment_count', 'location.name', 'caption', 'url'],
    documented: true,
  },
  // ---- Search
  {
    id: 'search/users', group: 'Search', resource: 'Search', operation: 'Users', fn: 'IGSEARCHUSERS',
    exampleField: 'username',
    summary: 'Search accounts by keyword',
    description: 'Search accounts by keyword; returns matching accounts.',
    params: [query], shape: 'list', paginated: false, cost: flat(1, false), maxReuseHours: REUSE.activity, schema: s.anyObject,
    columns: ['username', 'full_name', 'is_verified', 'is_private', 'id'], documented: false,
  },
  {
    id: 'search/hashtags', group: 'Search', resource: 'Search', operation: 'Hashtags', fn: 'IGSEARCHHASHTAGS',
    summary: 'Search hashtags by keyword',
    description: 'Search hashtags by keyword; each result has its total media_count.',
    params: [query], shape: 'list', paginated: false, cost: flat(1), maxReuseHours: REUSE.activity, schema: s.hashtagSearchResult,
    columns: ['name', 'media_count'], documented: true,
  },
  {
    id: 'search/locations', group: 'Search', resource: 'Search', operation: 'Locations', fn: 'IGSEARCHLOCATIONS',
    summary: 'Search places by keyword',
    description: 'Search places by keyword; returns matching locations with their ids.',
    params: [query], shape: 'list', paginated: false, cost: flat(1, false), maxReuseHours: REUSE.activity, schema: s.anyObject,
    columns: ['id', 'name', 'city', 'category'], documented: false,
  },
  // ---- AI writing (§4.3)
  {
    id: 'insights/profile/caption', group: 'Insights', resource: 'Profile Insight', operation: 'Write Caption', fn: 'IGCAPTION',
    summary: 'Captions written in an account\'s own voice',
    description: 'Write captions in an account\'s own voice, optionally about a topic.',
    params: [handle, { name: 'topic', kind: 'text', required: false, description: 'What the caption should be about (optional)', example: 'new product launch' }],
    shape: 'single', paginated: false, cost: flat(3, false), maxReuseHours: REUSE.setting, schema: s.anyObject,
    columns: [], documented: false,
  },
  {
    id: 'insights/profile/dm-opener', group: 'Insights', resource: 'Profile Insight', operation: 'Write DM Opener', fn: 'IGDMOPENER',
    summary: 'Personalized cold-outreach opener for an account',
    description: 'Write a personalized first direct message to an account, optionally with context about your offer.',
    params: [handle, { name: 'context', kind: 'text', required: false, description: 'What you offer or why you reach out (optional)', example: 'we make vegan protein bars' }],
    shape: 'single', paginated: false, cost: flat(3, false), maxReuseHours: REUSE.setting, schema: s.anyObject,
    columns: [], documented: false,
  },
  // ---- Account
  {
    id: 'credits', group: 'Account', resource: 'Account', operation: 'Get Credits', fn: 'IGCREDITS',
    summary: 'Current credit balance (free)',
    description: 'Get the current credit balance of the API key. Free.',
    params: [], shape: 'single', paginated: false, cost: flat(0) /* free, as observed (../shared/spec/NOTES.md) */, maxReuseHours: REUSE.never, schema: s.anyObject,
    columns: ['credits_remaining'], documented: false,
  },
];

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
