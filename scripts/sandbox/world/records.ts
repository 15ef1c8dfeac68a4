/** The records of the synthetic world (what buildWorld makes) and the platform's visible-list caps. */
import type { Topic } from './vocabulary';

export interface LocationRec {
  id: string;
  name: string;
  category: string;
  address: string;
  city: string;
  zip: string;
  lat: number;
  lng: number;
  phone: string;
  website: string;
  external_id: string;
  slug: string;
}

export interface UserSummary {
  id: string;
  username: string;
  full_name: string;
  is_verified: boolean;
  is_private: boolean;
  profile_pic_url: string;
}

export interface Account {
  idx: number;
  id: string;
  username: string;
  full_name: string;
  biography: string;
  is_verified: boolean;
  is_private: boolean;
  is_business: boolean;
  category: string | null;
  followers: number;
  following: number;
  external_url: string | null;
  profile_pic_url: string;
  public_email: string | null;
  public_phone_number: string | null;
  created_year: number;
  created_month: number;
  country: string;
  former_usernames: string[];
  topic: Topic;
  /** The visible follower list is capped at FOLLOWER_CAP (huge and large accounts). */
  capped: boolean;
  /** Base engagement rate used to draw like counts. */
  er: number;
  postCount: number;
  liveStories: number;
  expiredStories: number;
  highlights: number;
  /** Posts of this account, newest first (filled by buildWorld). */
  posts: Post[];
  summary: UserSummary;
}

export interface Post {
  id: string;
  shortcode: string;
  type: 'photo' | 'video' | 'carousel';
  product_type: 'feed' | 'clips' | 'igtv';
  url: string;
  caption: string;
  taken_at: string;
  /** taken_at in ms, for sorting and insights. */
  t: number;
  like_count: number;
  comment_count: number;
  view_count: number | null;
  image_url: string;
  video_url: string | null;
  video_duration: number | null;
  location: LocationRec | null;
  author: Account;
  tags: string[];
  childCount: number;
}

export interface HashtagRec {
  name: string;
  id: string;
  /** Public posts carrying the tag, newest first. */
  recent: Post[];
  /** Ranked selection: up to TOP_LIMIT posts by likes + comments. */
  top: Post[];
  /** The platform-wide total shown in search (larger than what can be paged). */
  media_count: number;
}

export interface World {
  seed: number;
  accounts: Account[];
  byUsername: Map<string, Account>;
  byId: Map<string, Account>;
  /** Former usernames: not resolvable (a username change frees the old name), kept for reference. */
  formerUsernames: Map<string, Account>;
  postsById: Map<string, Post>;
  postsByShortcode: Map<string, Post>;
  hashtags: Map<string, HashtagRec>;
  locations: LocationRec[];
  locationsById: Map<string, LocationRec>;
  /** Public posts at each location, newest first. */
  locationPosts: Map<string, Post[]>;
  /** Memoised per-account lists (followers, following). */
  memo: Map<string, unknown>;
}

export const FOLLOWER_CAP = 50;
export const TOP_LIMIT = 90;
export const COMMENT_CAP = 300;
export const LIKER_CAP = 50;
