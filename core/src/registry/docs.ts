/**
 * The registry's documentation, apart from its runtime facts (endpoints.ts), as octokit keeps its
 * endpoint docs apart from the routes: each endpoint's summary, agent-facing description, docs
 * group, n8n resource and operation names and example field, by endpoint id; each parameter's
 * description and example value, by parameter name. Read by the README reference
 * (scripts/docs.mjs), the generated Sheets JSDoc and function table (sheets-addon/src/codegen.ts),
 * the sidebar's endpoint list (written into Sidebar.html at build time), the n8n node's operations
 * and fields and the OpenAPI document. Nothing at run time reads it: the Sheets bundle leaves this
 * module out (esbuild drops it; the build checks its metafile). test/registry.test.ts fails when an
 * endpoint lacks its docs or a parameter its description.
 */
import { endpoints } from './endpoints';
import type { DocumentedEndpoint, DocumentedParam, EndpointDef, EndpointDoc, ParamDef, ParamDoc } from './types';

/** By parameter name: the same name means the same thing on every endpoint. */
const paramDocs: Readonly<Record<string, ParamDoc>> = {
  handle: { description: 'Account as username, @username, numeric user id or profile URL', example: 'nasa' },
  // A post of @nasa in the sandbox (seed 42), so every example works there; see test/examples.test.ts.
  post: {
    description: 'Post or reel as media id, shortcode or post/reel URL',
    example: 'https://www.instagram.com/p/CmiJGWA9jpk/',
  },
  tag: { description: 'Hashtag, with or without the leading #', example: 'veganrecipes' },
  id: { description: 'Location id or location URL', example: '213385402' },
  cursor: { description: 'Value of next_cursor from the previous page; omit for the first page' },
  posts: {
    description: (p) =>
      `How many recent posts to analyze (${p.min}-${p.max}, default ${p.default}); more posts cost more credits`,
  },
  timezone: { description: 'UTC offset in whole hours for the result (-12 to 14, default 0)' },
  sample: { description: 'How many followers to sample (1-500, default 100); larger samples cost more' },
  // Text parameters: their description is a runtime fact (endpoints.ts), quoted by validation messages.
  q: { example: 'coffee' },
  criteria: { example: 'vegan food creators in Europe' },
  topic: { example: 'new product launch' },
  context: { example: 'we make vegan protein bars' },
};

/** By endpoint id, in the registry's order. */
export const endpointDocs: Readonly<Record<string, EndpointDoc>> = {
  // ---- Profiles (§4.2)
  profile: {
    group: 'Profiles',
    resource: 'Profile',
    operation: 'Get',
    summary: 'Public profile of an account',
    description:
      "Get an account's public profile: follower, following and post counts, " +
      'bio, category, verified and business flags, contact fields.',
  },
  'profile/about': {
    group: 'Profiles',
    resource: 'Profile',
    operation: 'Get About',
    summary: 'Account age, country of registration and former usernames',
    description:
      'Get when an account was created (month and year), its country of registration and any former usernames.',
  },
  'profile/posts': {
    group: 'Profiles',
    resource: 'Profile',
    operation: 'Get Posts',
    exampleField: 'like_count',
    summary: 'Recent feed posts of an account, newest first',
    description:
      "List an account's feed posts (photos, videos, carousels), newest first, " +
      'with likes, comments, caption and location. Paged; 2 credits per page.',
  },
  'profile/reels': {
    group: 'Profiles',
    resource: 'Profile',
    operation: 'Get Reels',
    exampleField: 'view_count',
    summary: 'Reels of an account with view counts',
    description: "List an account's reels with view, like and comment counts, newest first. Paged; 2 credits per page.",
  },
  'profile/stories': {
    group: 'Profiles',
    resource: 'Profile',
    operation: 'Get Stories',
    summary: 'Live stories of an account (last 24 hours)',
    description: "List an account's live stories (stories expire after 24 hours). Not paged.",
  },
  'profile/highlights': {
    group: 'Profiles',
    resource: 'Profile',
    operation: 'Get Highlights',
    summary: 'Story highlights of an account',
    description: "List an account's story highlights with title, item count and cover image.",
  },
  'profile/followers': {
    group: 'Profiles',
    resource: 'Profile',
    operation: 'Get Followers',
    exampleField: 'username',
    summary: 'Followers of a public account (about 25 per page)',
    description:
      'List followers of a public account, about 25 per page, 2 credits ' +
      'per page. Many accounts cap the visible list at about 50.',
  },
  'profile/following': {
    group: 'Profiles',
    resource: 'Profile',
    operation: 'Get Following',
    exampleField: 'username',
    summary: 'Accounts a public account follows (about 25 per page)',
    description: 'List the accounts a public account follows, about 25 per page, 2 credits per page.',
  },
  // ---- Insights on a profile (§4.2)
  'insights/profile/engagement': {
    group: 'Insights',
    resource: 'Profile Insight',
    operation: 'Get Engagement',
    exampleField: 'engagement_rate_pct',
    summary: 'Engagement rate from recent posts',
    description:
      "Compute an account's engagement rate: average likes plus comments per recent post " +
      'divided by followers (engagement_rate_pct is the percentage).',
  },
  'insights/profile/best-time': {
    group: 'Insights',
    resource: 'Profile Insight',
    operation: 'Get Best Time',
    exampleField: 'recommendation',
    summary: 'Best hours and days to post',
    description:
      "Find the hours and weekdays when an account's recent posts got the most engagement, in a given UTC offset.",
  },
  'insights/profile/stats': {
    group: 'Insights',
    resource: 'Profile Insight',
    operation: 'Get Stats',
    exampleField: 'posts_per_week',
    summary: 'Posting frequency and format mix',
    description:
      'Compute how often an account posts (posts per week, days between posts) and its ' +
      'mix of photo, video and carousel posts with the best-performing format.',
  },
  'insights/profile/audit': {
    group: 'Insights',
    resource: 'Profile Insight',
    operation: 'Get Audit',
    exampleField: 'suspected_fake_pct',
    summary: 'Fake-follower audit from a follower sample',
    description:
      'Estimate the share of fake followers of an account from a sample of ' +
      'its followers, with a letter grade and the signals found.',
  },
  'insights/profile/qualify': {
    group: 'Insights',
    resource: 'Profile Insight',
    operation: 'Qualify',
    makes: 'Lead Score',
    summary: 'Score an account against your ideal-lead criteria',
    description:
      'Score (0-100) how well an account fits a plain-language description of ' +
      'your ideal lead, with a verdict, reasons and a recommended action.',
  },
  'insights/profile/summary': {
    group: 'Insights',
    resource: 'Profile Insight',
    operation: 'Get Summary',
    makes: 'Account Summary',
    summary: 'AI summary of who an account is',
    description:
      'Summarize an account in plain words: one-liner, who they are, niche, audience, tone and recent focus.',
  },
  'insights/profile/niche': {
    group: 'Insights',
    resource: 'Profile Insight',
    operation: 'Get Niche',
    makes: 'Niche Analysis',
    summary: 'Niche, brand voice and content pillars',
    description: "Classify an account's niche and sub-niche, brand voice, target audience and content pillars.",
  },
  'insights/profile/similar': {
    group: 'Insights',
    resource: 'Profile Insight',
    operation: 'Get Similar',
    exampleField: 'similar',
    summary: 'Accounts similar to a seed account',
    description:
      'Find accounts similar to a seed account by niche, business ' +
      'type and audience, each with a similarity score and why.',
  },
  // ---- Posts (§4.2)
  post: {
    group: 'Posts',
    resource: 'Post',
    operation: 'Get',
    exampleField: 'like_count',
    summary: 'A single post or reel',
    description:
      'Get one post or reel by URL, shortcode or media id: likes, comments, views, caption, location and author.',
  },
  'post/comments': {
    group: 'Posts',
    resource: 'Post',
    operation: 'Get Comments',
    exampleField: 'text',
    summary: 'Comments on a post',
    description: 'List the comments on a post with their authors and like counts. Paged; 2 credits per page.',
  },
  'post/likers': {
    group: 'Posts',
    resource: 'Post',
    operation: 'Get Likers',
    exampleField: 'username',
    summary: 'Accounts that liked a post',
    description: "List accounts that liked a post; availability depends on the post's privacy and size.",
  },
  'insights/post/image': {
    group: 'Insights',
    resource: 'Post',
    operation: 'Analyze Image',
    makes: 'Image Analysis',
    exampleField: 'analysis.scene',
    summary: "AI vision tags of a post's image",
    description:
      "Describe a post's image with AI: subjects, scene, objects, colors, text in the image, " +
      'mood, aesthetic score, brand safety and suggested alt text.',
  },
  'insights/post/comments': {
    group: 'Insights',
    resource: 'Post',
    operation: 'Analyze Comments',
    makes: 'Comment Analysis',
    documented: false,
    summary: "AI sentiment and themes over a post's comments",
    description: "Summarize the sentiment and recurring themes of a post's comments with AI.",
  },
  // ---- Hashtags (§4.2)
  'hashtag/top': {
    group: 'Hashtags',
    resource: 'Hashtag',
    operation: 'Get Top Posts',
    exampleField: 'like_count',
    summary: 'Top (ranked) posts for a hashtag',
    description: 'List the top-ranked posts for a hashtag. Paged; 1 credit per page.',
  },
  'hashtag/recent': {
    group: 'Hashtags',
    resource: 'Hashtag',
    operation: 'Get Recent Posts',
    exampleField: 'caption',
    summary: 'Most recent posts for a hashtag, newest first',
    description:
      'List the most recent posts for a hashtag, newest first; page back in time ' +
      'with the cursor. 1 credit per page. Use it to monitor a hashtag.',
  },
  'insights/hashtag': {
    group: 'Insights',
    resource: 'Hashtag',
    operation: 'Analyze',
    summary: 'Hashtag difficulty, engagement needed and velocity',
    description:
      'Analyze a hashtag: difficulty score 0-100, the average ' +
      'engagement a top post needs, and posts-per-hour velocity.',
  },
  // ---- Locations
  location: {
    group: 'Locations',
    resource: 'Location',
    operation: 'Get',
    documented: false,
    summary: 'Details of a place',
    description: 'Get details of a place (name, category, address, coordinates) by location id or location URL.',
  },
  'location/posts': {
    group: 'Locations',
    resource: 'Location',
    operation: 'Get Posts',
    exampleField: 'caption',
    summary: 'Posts tagged at a location',
    description: 'List posts tagged at a place, by location id or location URL. Paged; 1 credit per page.',
  },
  // ---- Search
  'search/users': {
    group: 'Search',
    resource: 'Search',
    operation: 'Users',
    exampleField: 'username',
    documented: false,
    summary: 'Search accounts by keyword',
    description: 'Search accounts by keyword; returns matching accounts.',
  },
  'search/hashtags': {
    group: 'Search',
    resource: 'Search',
    operation: 'Hashtags',
    summary: 'Search hashtags by keyword',
    description: 'Search hashtags by keyword; each result has its total media_count.',
  },
  'search/locations': {
    group: 'Search',
    resource: 'Search',
    operation: 'Locations',
    documented: false,
    summary: 'Search places by keyword',
    description: 'Search places by keyword; returns matching locations with their ids.',
  },
  // ---- AI writing (§4.3)
  'insights/profile/caption': {
    group: 'Insights',
    resource: 'Profile Insight',
    operation: 'Write Caption',
    makes: 'Caption',
    documented: false,
    summary: "Captions written in an account's own voice",
    description: "Write captions in an account's own voice, optionally about a topic.",
  },
  'insights/profile/dm-opener': {
    group: 'Insights',
    resource: 'Profile Insight',
    operation: 'Write DM Opener',
    makes: 'DM Opener',
    documented: false,
    summary: 'Personalized cold-outreach opener for an account',
    description: 'Write a personalized first direct message to an account, optionally with context about your offer.',
  },
  // ---- Account
  credits: {
    group: 'Account',
    resource: 'Account',
    operation: 'Get Credits',
    documented: false,
    summary: 'Current credit balance (free)',
    description: 'Get the current credit balance of the API key. Free.',
  },
};

/** A parameter with its documentation. Throws for one that has no description. */
export function documentedParam(p: ParamDef): DocumentedParam {
  const doc = paramDocs[p.name] ?? {};
  const description = typeof doc.description === 'function' ? doc.description(p) : (doc.description ?? p.description);
  if (description === undefined)
    throw new Error(`The registry's parameter "${p.name}" has no description (core/src/registry/docs.ts)`);
  return { ...p, description, ...(doc.example === undefined ? {} : { example: doc.example }) };
}

/** An endpoint with its documentation. Throws for an endpoint docs.ts does not describe. */
export function documented(e: EndpointDef): DocumentedEndpoint {
  const doc = endpointDocs[e.id];
  if (!doc) throw new Error(`The registry's endpoint "${e.id}" has no docs (core/src/registry/docs.ts)`);
  return { ...e, ...doc, documented: doc.documented !== false, params: e.params.map(documentedParam) };
}

/** Every endpoint with its documentation, in the registry's order. */
export const documentedEndpoints: readonly DocumentedEndpoint[] = endpoints.map(documented);
