/**
 * Response schemas (zod/mini keeps the Apps Script bundle small). Objects are loose so that a field
 * the service adds never breaks a user; identity fields are required and every other documented
 * field, when present, must have its documented type: that catches a broken response.
 */
import * as z from 'zod/mini';

const str = z.string();
const optStr = z.optional(z.nullable(z.string()));
const optNum = z.optional(z.nullable(z.number()));
const optBool = z.optional(z.nullable(z.boolean()));
const optStrList = z.optional(z.array(z.string()));

export const anyObject = z.looseObject({});

export const userSummary = z.looseObject({
  id: str,
  username: str,
  full_name: optStr,
  is_verified: optBool,
  is_private: optBool,
  profile_pic_url: optStr,
});

const location = z.looseObject({
  id: str,
  name: str,
  category: optStr,
  address: optStr,
  city: optStr,
  zip: optStr,
  lat: optNum,
  lng: optNum,
  phone: optStr,
  website: optStr,
  external_id: optStr,
});

const profileFields = {
  full_name: optStr,
  biography: optStr,
  is_private: optBool,
  is_business: optBool,
  category: optStr,
  followers: optNum,
  following: optNum,
  posts: optNum,
  external_url: optStr,
  profile_pic_url: optStr,
};

export const profile = z.looseObject({
  id: str,
  username: str,
  is_verified: optBool,
  public_email: optStr,
  public_phone_number: optStr,
  ...profileFields,
});

export const about = z.looseObject({
  username: str,
  account_created: optStr,
  account_created_year: optNum,
  account_created_month: optNum,
  account_age_years: optNum,
  country_of_registration: optStr,
  has_changed_username: optBool,
  former_usernames: optStrList,
  is_verified: optBool,
  profile: z.optional(z.looseObject({ id: z.optional(str), ...profileFields })),
});

export const post = z.looseObject({
  id: str,
  shortcode: str,
  type: str,
  product_type: optStr,
  url: optStr,
  caption: optStr,
  taken_at: str,
  like_count: optNum,
  comment_count: optNum,
  view_count: optNum,
  image_url: optStr,
  video_url: optStr,
  video_duration: optNum,
  location: z.optional(z.nullable(location)),
  author: z.optional(z.nullable(userSummary)),
});

export const story = z.looseObject({
  id: str,
  shortcode: optStr,
  type: str,
  taken_at: str,
  image_url: optStr,
  video_url: optStr,
  video_duration: optNum,
});

export const highlight = z.looseObject({
  id: str,
  title: optStr,
  media_count: optNum,
  created_at: optStr,
  cover_image_url: optStr,
});

export const comment = z.looseObject({
  id: str,
  text: z.optional(z.string()),
  like_count: optNum,
  created_at: optStr,
  author: z.optional(z.nullable(userSummary)),
});

const slot = { posts: optNum, avg_engagement: optNum };

export const engagement = z.looseObject({
  username: str,
  followers: optNum,
  posts_analyzed: optNum,
  avg_likes: optNum,
  avg_comments: optNum,
  avg_engagement: optNum,
  engagement_rate: optNum,
  engagement_rate_pct: optNum,
});

export const bestTime = z.looseObject({
  username: str,
  posts_analyzed: optNum,
  timezone_offset: optNum,
  best_hours: z.optional(z.array(z.looseObject({ hour: z.number(), ...slot }))),
  best_days: z.optional(z.array(z.looseObject({ day: z.string(), ...slot }))),
  recommendation: optStr,
  by_hour: z.optional(z.array(z.looseObject({ hour: z.number(), ...slot }))),
  by_day: z.optional(z.array(z.looseObject({ day: z.string(), ...slot }))),
});

export const stats = z.looseObject({
  username: str,
  followers: optNum,
  posts_analyzed: optNum,
  avg_days_between_posts: optNum,
  posts_per_week: optNum,
  format_mix: z.optional(
    z.array(z.looseObject({ type: z.string(), posts: optNum, share_pct: optNum, avg_engagement: optNum })),
  ),
  best_format: optStr,
});

export const audit = z.looseObject({
  username: str,
  followers_total: optNum,
  sampled: optNum,
  suspected_fake_pct: optNum,
  estimated_real_pct: optNum,
  estimated_real_followers: optNum,
  quality_grade: optStr,
  signal_breakdown: z.optional(z.record(z.string(), z.number())),
  summary: optStr,
});

export const qualify = z.looseObject({
  username: str,
  criteria: optStr,
  fit_score: optNum,
  verdict: optStr,
  reasons: optStrList,
  signals: z.optional(z.looseObject({ positive: optStrList, negative: optStrList })),
  recommended_action: optStr,
});

export const summary = z.looseObject({
  username: str,
  one_liner: optStr,
  who_they_are: optStr,
  niche: optStr,
  audience: optStr,
  tone: optStr,
  recent_focus: optStr,
  tags: optStrList,
});

export const niche = z.looseObject({
  username: str,
  niche: optStr,
  sub_niche: optStr,
  brand_voice: optStr,
  target_audience: optStr,
  categories: optStrList,
  content_pillars: optStrList,
});

export const similar = z.looseObject({
  seed: z.optional(z.looseObject({ username: optStr, category: optStr })),
  search_query: optStr,
  similar: z.optional(
    z.array(z.looseObject({ username: str, full_name: optStr, similarity: optNum, why: optStr })),
  ),
});

export const postImage = z.looseObject({
  post: optStr,
  caption: optStr,
  analysis: z.optional(
    z.looseObject({
      subjects: optStrList,
      scene: optStr,
      objects: optStrList,
      dominant_colors: optStrList,
      text_in_image: optStr,
      mood: optStr,
      aesthetic_score: optNum,
      brand_safe: optBool,
      brand_safety_notes: optStr,
      suggested_alt_text: optStr,
    }),
  ),
});

/** §4.2 says each hashtag search result has `media_count`; its other fields are not shown. */
export const hashtagSearchResult = z.looseObject({ media_count: optNum });
