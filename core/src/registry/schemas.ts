/**
 * Response schemas, as plain data checked by core/src/shape.ts (a zod/mini version cost the Apps
 * Script bundle 21 KB and a third of its evaluation time: CONTRIBUTING.md, "Design decisions").
 * Objects are loose so that a field the service adds never breaks a user; identity fields are
 * required and every other documented field, when present, must have its documented type: that
 * catches a broken response.
 */
import type { Field, Shape } from './types';

const str: Shape = 'string';
const num: Shape = 'number';
/** A field that may be absent or null. */
const nullable = (shape: Shape): Field => ({ optional: shape, nullable: true });
/** A list field that may be absent. */
const optList = (item: Shape): Field => ({ optional: { array: item } });
const optStr = nullable('string');
const optNum = nullable('number');
const optBool = nullable('boolean');
/** A link to a picture or video on the CDN (may be absent or null): what products may download. */
const mediaLink: Field = { optional: 'string', nullable: true, media: true };
const optStrList = optList('string');
/**
 * Text other people wrote (may be absent or null): a spreadsheet would run it as a formula when it
 * starts like one, so products give it a twin that stays text (Field's `stranger`).
 */
const strangerText: Field = { optional: 'string', nullable: true, stranger: true };
/** A loose object: these fields, with their types; any other field passes. */
const object = (fields: Record<string, Field>): Shape => ({ object: fields });

export const anyObject = object({});

export const userSummary = object({
  id: str,
  username: str,
  full_name: strangerText,
  is_verified: optBool,
  is_private: optBool,
  profile_pic_url: mediaLink,
});

// A place is named and described by whoever added it.
const location = object({
  id: str,
  name: { required: str, stranger: true },
  category: optStr,
  address: strangerText,
  city: strangerText,
  zip: optStr,
  lat: optNum,
  lng: optNum,
  phone: strangerText,
  website: strangerText,
  external_id: optStr,
});

const profileFields = {
  full_name: strangerText,
  biography: strangerText,
  is_private: optBool,
  is_business: optBool,
  category: optStr,
  followers: optNum,
  following: optNum,
  posts: optNum,
  external_url: strangerText,
  profile_pic_url: mediaLink,
};

export const profile = object({
  id: str,
  username: str,
  is_verified: optBool,
  public_email: strangerText,
  public_phone_number: strangerText,
  ...profileFields,
});

export const about = object({
  username: str,
  account_created: optStr,
  account_created_year: optNum,
  account_created_month: optNum,
  account_age_years: optNum,
  country_of_registration: optStr,
  has_changed_username: optBool,
  former_usernames: optStrList,
  is_verified: optBool,
  profile: { optional: object({ id: { optional: str }, ...profileFields }) },
});

export const post = object({
  id: str,
  shortcode: str,
  type: str,
  product_type: optStr,
  url: optStr,
  caption: strangerText,
  taken_at: str,
  like_count: optNum,
  comment_count: optNum,
  view_count: optNum,
  image_url: mediaLink,
  video_url: mediaLink,
  video_duration: optNum,
  location: nullable(location),
  author: nullable(userSummary),
});

export const story = object({
  id: str,
  shortcode: optStr,
  type: str,
  taken_at: str,
  image_url: mediaLink,
  video_url: mediaLink,
  video_duration: optNum,
});

export const highlight = object({
  id: str,
  title: strangerText,
  media_count: optNum,
  created_at: optStr,
  cover_image_url: mediaLink,
});

export const comment = object({
  id: str,
  text: { optional: str, stranger: true },
  like_count: optNum,
  created_at: optStr,
  author: nullable(userSummary),
});

const slot = { posts: optNum, avg_engagement: optNum };
/** Best-time's posting slots, by hour of the day and by day of the week. */
const hourSlots = optList(object({ hour: num, ...slot }));
const daySlots = optList(object({ day: str, ...slot }));

export const engagement = object({
  username: str,
  followers: optNum,
  posts_analyzed: optNum,
  avg_likes: optNum,
  avg_comments: optNum,
  avg_engagement: optNum,
  engagement_rate: optNum,
  engagement_rate_pct: optNum,
});

export const bestTime = object({
  username: str,
  posts_analyzed: optNum,
  timezone_offset: optNum,
  best_hours: hourSlots,
  best_days: daySlots,
  recommendation: optStr,
  by_hour: hourSlots,
  by_day: daySlots,
});

export const stats = object({
  username: str,
  followers: optNum,
  posts_analyzed: optNum,
  avg_days_between_posts: optNum,
  posts_per_week: optNum,
  format_mix: optList(object({ type: str, posts: optNum, share_pct: optNum, avg_engagement: optNum })),
  best_format: optStr,
});

export const audit = object({
  username: str,
  followers_total: optNum,
  sampled: optNum,
  suspected_fake_pct: optNum,
  estimated_real_pct: optNum,
  estimated_real_followers: optNum,
  quality_grade: optStr,
  signal_breakdown: { optional: { record: num } },
  summary: optStr,
});

export const qualify = object({
  username: str,
  criteria: optStr,
  fit_score: optNum,
  verdict: optStr,
  reasons: optStrList,
  signals: { optional: object({ positive: optStrList, negative: optStrList }) },
  recommended_action: optStr,
});

export const summary = object({
  username: str,
  one_liner: optStr,
  who_they_are: optStr,
  niche: optStr,
  audience: optStr,
  tone: optStr,
  recent_focus: optStr,
  tags: optStrList,
});

export const niche = object({
  username: str,
  niche: optStr,
  sub_niche: optStr,
  brand_voice: optStr,
  target_audience: optStr,
  categories: optStrList,
  content_pillars: optStrList,
});

export const similar = object({
  seed: { optional: object({ username: optStr, category: optStr }) },
  search_query: optStr,
  similar: optList(object({ username: str, full_name: strangerText, similarity: optNum, why: optStr })),
});

export const postImage = object({
  post: optStr,
  caption: strangerText,
  analysis: {
    optional: object({
      subjects: optStrList,
      scene: optStr,
      objects: optStrList,
      dominant_colors: optStrList,
      // The text seen in the picture, as written there.
      text_in_image: strangerText,
      mood: optStr,
      aesthetic_score: optNum,
      brand_safe: optBool,
      brand_safety_notes: optStr,
      suggested_alt_text: optStr,
    }),
  },
});

/** §4.2 says each hashtag search result has `media_count`; its other fields are not shown. */
export const hashtagSearchResult = object({ media_count: optNum });
