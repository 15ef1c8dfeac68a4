/**
 * The sandbox's synthetic world: accounts, posts, comments, stories, highlights, hashtags and
 * locations, all derived from one seed by a small PRNG (no Math.random), against a fixed reference
 * clock, so that the same seed always gives the same data. Stories are the one exception: they are
 * placed relative to the server's start time (they must be "live").
 *
 * The world is immutable and cached per seed (several sandboxes in one process share it); what a
 * running sandbox changes (published or deleted posts) lives in its own overlay (overlay.ts).
 */

// ---------------------------------------------------------------- PRNG and hashing

/** 32-bit string hash (FNV-1a followed by a murmur finaliser). */
export function hash32(...parts: (string | number)[]): number {
  let h = 0x811c9dc5;
  const s = parts.join('\u0001');
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** mulberry32: a tiny seeded PRNG returning floats in [0, 1). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class Rng {
  readonly next: () => number;
  constructor(seed: number) {
    this.next = prng(seed);
  }
  static of(...parts: (string | number)[]): Rng {
    return new Rng(hash32(...parts));
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)];
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  /** Log-uniform integer in [lo, hi]. */
  logInt(lo: number, hi: number): number {
    return Math.round(Math.exp(Math.log(lo) + this.next() * (Math.log(hi) - Math.log(lo))));
  }
}

// ---------------------------------------------------------------- constants

/** The fixed reference clock: every post, comment and highlight is dated before it. */
export const REFERENCE_TIME = Date.UTC(2025, 5, 1, 12, 0, 0); // 2025-06-01T12:00:00Z
export const MEDIA_HOST = 'https://media.sandbox.igdata.dev';
export const DEFAULT_AVATAR = `${MEDIA_HOST}/avatars/default-avatar.jpg`;
export const HOUR = 3600_000;
export const DAY = 24 * HOUR;

export type TopicKey = 'space' | 'travel' | 'vegan' | 'fitness' | 'photo' | 'coffee' | 'fashion' | 'tech' | 'pets' | 'art' | 'news' | 'life';

export interface Topic {
  key: TopicKey;
  label: string;
  words: string[];
  tags: string[];
  categories: string[];
  captions: string[];
  subjects: string[];
  scenes: string[];
  tone: string;
  audience: string;
}

const T = (key: TopicKey, label: string, words: string, tags: string, categories: string[], captions: string[], subjects: string, scenes: string, tone: string, audience: string): Topic => ({
  key, label, words: words.split(' '), tags: tags.split(' '), categories, captions, subjects: subjects.split(','), scenes: scenes.split(','), tone, audience,
});

export const TOPICS: Record<TopicKey, Topic> = {
  space: T('space', 'Science & space', 'space astro cosmos orbit star galaxy rocket lunar', 'space astronomy science stars moon nasa universe',
    ['Science, Technology & Engineering', 'Government organization'],
    ['A new look at {thing} from orbit.', 'This week in space: {thing}.', 'Our {thing} team shares an update.', 'Look up tonight: {thing} is visible.'],
    'planet,nebula,astronaut,rocket,moon surface,galaxy', 'outer space,launch pad,mission control,night sky', 'informative and awe-struck', 'science fans and students'),
  travel: T('travel', 'Travel', 'travel wander roam journey atlas trail compass nomad', 'travel wanderlust travelphotography explore adventure natgeo',
    ['Travel company', 'Media/news company'],
    ['Morning light over {place}.', 'Lost in the streets of {place}.', 'Three days in {place}: {thing}.', 'Where should we go after {place}?'],
    'mountains,coastline,old town,market,desert,waterfall', 'landscape,city street,beach,mountain pass', 'curious and storytelling', 'travellers aged 25-44'),
  vegan: T('vegan', 'Vegan food', 'vegan plant green sprout kale tofu lentil herb', 'veganrecipes vegan plantbased veganfood healthyfood recipe',
    ['Food & beverage', 'Chef', 'Blogger'],
    ['{thing}, ready in 20 minutes.', 'Meal prep Sunday: {thing}.', 'Recipe: creamy {thing} with no dairy.', 'Five ingredients, one pan: {thing}.'],
    'bowl of food,vegetables,plated dish,smoothie,salad', 'kitchen counter,dining table,market stall', 'warm and encouraging', 'home cooks going plant-based'),
  fitness: T('fitness', 'Fitness', 'fit lift run gym strong core sweat pace', 'fitness workout gym running health motivation',
    ['Fitness trainer', 'Sportswear store'],
    ['Leg day: {thing}.', 'New PR on {thing} today.', 'Try this {thing} circuit.', 'Rest days matter: {thing}.'],
    'athlete,dumbbells,running shoes,yoga mat', 'gym,running track,park', 'energetic and direct', 'gym-goers and runners'),
  photo: T('photo', 'Photography', 'lens shutter frame focus aperture film light grain', 'photography photooftheday nature landscape portrait naturephotography',
    ['Photographer', 'Artist'],
    ['Shot on film: {thing}.', 'Golden hour, {thing}.', 'From the archive: {place}.', 'Patience pays: {thing}.'],
    'landscape,portrait,wildlife,cityscape', 'forest,lake,street,studio', 'calm and visual', 'photographers and nature lovers'),
  coffee: T('coffee', 'Coffee', 'coffee brew bean roast latte crema espresso mocha', 'coffee coffeetime latteart espresso cafe barista',
    ['Coffee shop', 'Food & beverage'],
    ['Today\'s pour: {thing}.', 'New single origin: {thing}.', 'Latte art practice: {thing}.', 'Your usual? {thing}.'],
    'coffee cup,latte art,coffee beans,barista', 'cafe counter,roastery,table by the window', 'cosy and friendly', 'coffee lovers and remote workers'),
  fashion: T('fashion', 'Fashion', 'style vogue thread chic denim silk trend mode', 'fashion style ootd streetstyle sneakers outfit',
    ['Clothing (brand)', 'Fashion designer'],
    ['New drop: {thing}.', 'Styled three ways: {thing}.', 'Behind the seams: {thing}.', 'Just do it: {thing}.'],
    'model,sneakers,jacket,runway', 'studio,street,runway', 'bold and confident', 'style-conscious shoppers 18-34'),
  tech: T('tech', 'Technology', 'tech code byte pixel chip cloud data dev', 'tech coding programming gadgets developer ai',
    ['Software company', 'Science, Technology & Engineering'],
    ['Shipping {thing} today.', 'Desk setup: {thing}.', 'How we built {thing}.', 'Hot take on {thing}.'],
    'laptop,keyboard,circuit board,phone', 'desk,office,conference stage', 'precise and playful', 'developers and tech enthusiasts'),
  pets: T('pets', 'Pets', 'paws pup kitty whisker bark purr fluffy tail', 'dogsofinstagram catsofinstagram pets puppy cute dog',
    ['Pet supplies', 'Personal blog'],
    ['{thing} and a very good nap.', 'Walk o\'clock: {thing}.', 'Guess who found {thing}.', 'Caught mid-zoomies: {thing}.'],
    'dog,cat,puppy,kitten', 'living room,park,garden', 'playful and wholesome', 'pet owners'),
  art: T('art', 'Art', 'art ink brush canvas sketch paint color studio', 'art artist painting drawing illustration sketchbook',
    ['Artist', 'Art gallery'],
    ['Work in progress: {thing}.', 'Finished: {thing}.', 'Sketchbook page: {thing}.', 'Studio day: {thing}.'],
    'painting,sketch,canvas,brushes', 'studio,gallery wall,desk', 'reflective and expressive', 'art collectors and creatives'),
  news: T('news', 'News', 'news daily report brief wire press', 'news breakingnews worldnews politics journalism',
    ['Media/news company', 'News & media website'],
    ['Today: {thing}.', 'What we know about {thing}.', 'In pictures: {thing}.', 'Explained: {thing}.'],
    'crowd,building,press conference,city', 'street,newsroom,parliament', 'factual and neutral', 'news readers'),
  life: T('life', 'Lifestyle', 'daily life moments sunny home happy', 'lifestyle love instagood happy weekend friends',
    ['Personal blog', 'Digital creator'],
    ['Weekend mood: {thing}.', 'Little things: {thing}.', 'Back home after {place}.', 'Sunday reset: {thing}.'],
    'people,food,sunset,street', 'home,cafe,beach,city', 'casual and personal', 'friends and followers of everyday life'),
};

const THINGS: Record<TopicKey, string[]> = {
  space: ['the Artemis rocket', 'a spiral galaxy', 'the ISS', 'Saturn\'s rings', 'a solar flare', 'the Webb telescope'],
  travel: ['slow mornings', 'hidden beaches', 'night markets', 'mountain huts', 'old bridges'],
  vegan: ['chickpea curry', 'lentil bolognese', 'tofu scramble', 'cashew mac', 'mango chia pudding', 'black bean tacos', 'miso ramen'],
  fitness: ['deadlifts', 'a 10k tempo run', 'kettlebell swings', 'mobility drills', 'a HIIT session'],
  photo: ['fog in the valley', 'a fox at dawn', 'reflections', 'long exposures', 'street portraits'],
  coffee: ['an Ethiopian natural', 'oat flat whites', 'a cold brew', 'a rosetta', 'cardamom lattes'],
  fashion: ['the spring collection', 'white sneakers', 'oversized blazers', 'denim on denim', 'a linen set'],
  tech: ['a tiny compiler', 'dark mode', 'our new API', 'mechanical keyboards', 'edge functions'],
  pets: ['a squeaky toy', 'the couch', 'a sunbeam', 'the mailman', 'a stick twice his size'],
  art: ['a blue portrait', 'ink botanicals', 'a mural', 'a risograph print', 'still life with lemons'],
  news: ['the election', 'the heatwave', 'the summit', 'new transport plans', 'the budget'],
  life: ['fresh flowers', 'a long brunch', 'a new plant', 'clean sheets', 'farmers market finds'],
};

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

const LOCATION_SEED: [string, string, string, string, string, number, number][] = [
  // name, category, address, city, zip, lat, lng
  ['New York, New York', 'City', '', 'New York', '', 40.7143, -74.006],
  ['Paris, France', 'City', '', 'Paris', '', 48.8566, 2.3522],
  ['London, United Kingdom', 'City', '', 'London', '', 51.5072, -0.1276],
  ['Tokyo, Japan', 'City', '', 'Tokyo', '', 35.6762, 139.6503],
  ['Berlin, Germany', 'City', '', 'Berlin', '', 52.52, 13.405],
  ['Lisbon, Portugal', 'City', '', 'Lisbon', '', 38.7223, -9.1393],
  ['Barcelona, Spain', 'City', '', 'Barcelona', '', 41.3874, 2.1686],
  ['Cape Canaveral', 'City', '', 'Cape Canaveral', '32920', 28.3922, -80.6077],
  ['Kennedy Space Center', 'Museum', 'Space Commerce Way', 'Merritt Island', '32953', 28.5729, -80.649],
  ['Yosemite National Park', 'Park', '', 'Yosemite Valley', '95389', 37.8651, -119.5383],
  ['Grand Canyon', 'Park', '', 'Grand Canyon Village', '86023', 36.1069, -112.1129],
  ['Central Park', 'Park', '59th to 110th Street', 'New York', '10022', 40.7829, -73.9654],
  ['Blue Bottle Coffee', 'Cafe', '300 Webster St', 'Oakland', '94607', 37.7986, -122.2682],
  ['The Green Table', 'Vegan Restaurant', '12 Market St', 'Berlin', '10115', 52.5309, 13.3847],
  ['Plant Power Kitchen', 'Vegan Restaurant', '88 Rua Augusta', 'Lisbon', '1100-053', 38.7107, -9.1379],
  ['Borough Market', 'Market', '8 Southwark St', 'London', 'SE1 1TL', 51.5055, -0.0909],
  ['Shibuya Crossing', 'Landmark', '2-2-1 Dogenzaka', 'Tokyo', '150-0043', 35.6595, 139.7005],
  ['Louvre Museum', 'Museum', 'Rue de Rivoli', 'Paris', '75001', 48.8606, 2.3376],
  ['Venice Beach', 'Beach', '1800 Ocean Front Walk', 'Los Angeles', '90291', 33.985, -118.4695],
  ['Bondi Beach', 'Beach', 'Queen Elizabeth Dr', 'Sydney', '2026', -33.8908, 151.2743],
  ['Iron Gym', 'Gym', '401 5th Ave', 'New York', '10016', 40.7505, -73.9831],
  ['Golden Gate Park', 'Park', '', 'San Francisco', '94117', 37.7694, -122.4862],
  ['Reykjavik, Iceland', 'City', '', 'Reykjavik', '', 64.1466, -21.9426],
  ['Marrakech, Morocco', 'City', '', 'Marrakech', '', 31.6295, -7.9811],
  ['Cafe Central', 'Cafe', 'Herrengasse 14', 'Vienna', '1010', 48.2104, 16.3655],
  ['Tate Modern', 'Museum', 'Bankside', 'London', 'SE1 9TG', 51.5076, -0.0994],
  ['Kyoto, Japan', 'City', '', 'Kyoto', '', 35.0116, 135.7681],
  ['Banff National Park', 'Park', '', 'Banff', 'T1L', 51.4968, -115.9281],
  ['Mission Control Houston', 'Government Organization', '2101 E NASA Pkwy', 'Houston', '77058', 29.5593, -95.09],
  ['Brooklyn Bridge', 'Landmark', '', 'New York', '10038', 40.7061, -73.9969],
  ['Amsterdam, Netherlands', 'City', '', 'Amsterdam', '', 52.3676, 4.9041],
  ['Seoul, South Korea', 'City', '', 'Seoul', '', 37.5665, 126.978],
];

const TOPIC_LOCATIONS: Record<TopicKey, number[]> = {
  space: [7, 8, 28, 0],
  travel: [1, 3, 5, 9, 10, 22, 23, 26, 27, 19, 30, 31],
  vegan: [13, 14, 4, 5, 15, 0],
  fitness: [20, 11, 21, 18],
  photo: [9, 10, 27, 22, 29, 16],
  coffee: [12, 24, 4, 30],
  fashion: [1, 2, 0, 16, 31],
  tech: [21, 0, 4, 31],
  pets: [11, 21, 18, 19],
  art: [17, 25, 2, 1],
  news: [2, 0, 1, 4],
  life: [0, 1, 2, 5, 6, 18, 19],
};

const COUNTRIES = ['United States', 'United Kingdom', 'Germany', 'France', 'Portugal', 'Spain', 'Japan', 'Brazil', 'India', 'Canada', 'Australia', 'Netherlands', 'Italy', 'Mexico'];
const FIRST = ['Ana', 'Ben', 'Chloe', 'Dev', 'Elena', 'Finn', 'Grace', 'Hugo', 'Ines', 'Jonas', 'Kira', 'Leo', 'Maya', 'Nina', 'Omar', 'Priya', 'Quinn', 'Rosa', 'Sam', 'Tara', 'Umar', 'Vera', 'Wes', 'Yara', 'Zoe', 'Paula', 'Marco', 'Lena', 'Ravi', 'Ida'];
const LAST = ['Silva', 'Meyer', 'Khan', 'Rossi', 'Novak', 'Garcia', 'Tanaka', 'Dubois', 'Okafor', 'Larsen', 'Costa', 'Weber', 'Ito', 'Moreau', 'Patel'];
const GENERIC = ['daily', 'studio', 'club', 'life', 'hq', 'co', 'world', 'lab', 'house', 'diary', 'journal', 'notes'];
const COMMENTS_POS = ['Love this!', 'So good', 'Amazing shot', 'This is beautiful', 'Saving this for later', 'Incredible work', 'Need to try this', 'Wow 😍', 'Goals', 'Thanks for sharing'];
const COMMENTS_NEU = ['Where is this?', 'What camera do you use?', 'Recipe please?', 'Is this available in Europe?', 'How long did it take?', 'First!', 'Tagging my friend'];
const COMMENTS_NEG = ['Not a fan of this one', 'Too expensive', 'This looks fake', 'Meh', 'Overrated'];
export type Sentiment = 'positive' | 'neutral' | 'negative';

// ---------------------------------------------------------------- records

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

// ---------------------------------------------------------------- building

interface Special {
  username: string;
  full_name: string;
  topic: TopicKey;
  followers: number;
  following: number;
  posts: number;
  verified?: boolean;
  business?: boolean;
  category?: string;
  private?: boolean;
  former?: string[];
  bio: string;
  url?: string;
  country?: string;
  created?: [number, number];
  er?: number;
  stories?: number;
}

/** Well-known and test-friendly accounts, always present whatever the seed. */
const SPECIALS: Special[] = [
  { username: 'nasa', full_name: 'NASA', topic: 'space', followers: 97_400_000, following: 82, posts: 320, verified: true, business: true, category: 'Government organization', bio: 'Exploring the universe and our home planet.', url: 'https://www.nasa.gov', country: 'United States', created: [2012, 4], er: 0.004, stories: 3 },
  { username: 'natgeo', full_name: 'National Geographic', topic: 'travel', followers: 283_000_000, following: 160, posts: 300, verified: true, business: true, category: 'Media/news company', bio: 'Inspiring people to care about the planet.', url: 'https://www.nationalgeographic.com', country: 'United States', created: [2012, 1], er: 0.0015, stories: 4 },
  { username: 'nike', full_name: 'Nike', topic: 'fashion', followers: 301_000_000, following: 190, posts: 250, verified: true, business: true, category: 'Sportswear store', bio: 'Just Do It.', url: 'https://www.nike.com', country: 'United States', created: [2011, 11], er: 0.001, stories: 2 },
  { username: 'starbucks', full_name: 'Starbucks Coffee', topic: 'coffee', followers: 17_900_000, following: 140, posts: 200, verified: true, business: true, category: 'Coffee shop', bio: 'Inspiring and nurturing the human spirit, one cup at a time.', url: 'https://www.starbucks.com', country: 'United States', created: [2011, 10], er: 0.003, stories: 1 },
  { username: 'bbcnews', full_name: 'BBC News', topic: 'news', followers: 26_300_000, following: 90, posts: 220, verified: true, business: true, category: 'Media/news company', bio: 'News from the BBC.', url: 'https://www.bbc.co.uk/news', country: 'United Kingdom', created: [2013, 3], er: 0.002, stories: 2 },
  { username: 'instagram', full_name: 'Instagram', topic: 'life', followers: 688_000_000, following: 220, posts: 240, verified: true, business: true, category: 'Digital creator', bio: 'Bringing you closer to the people and things you love.', url: 'https://about.instagram.com', country: 'United States', created: [2010, 10], er: 0.0008, stories: 5 },
  // normal public accounts whose whole follower list pages to the end
  { username: 'veganfoodie', full_name: 'Vegan Foodie', topic: 'vegan', followers: 240, following: 180, posts: 110, business: true, category: 'Blogger', bio: 'Easy plant-based recipes every day. 🌱', url: 'https://veganfoodie.example', country: 'Portugal', created: [2018, 6], er: 0.09, stories: 2 },
  { username: 'plantbasedpaula', full_name: 'Paula Costa', topic: 'vegan', followers: 180, following: 250, posts: 105, category: 'Chef', bio: 'Chef. Vegan comfort food from Lisbon.', country: 'Portugal', created: [2019, 2], er: 0.08 },
  { username: 'trailrunner.leo', full_name: 'Leo Meyer', topic: 'fitness', followers: 300, following: 120, posts: 60, bio: 'Running the Alps one trail at a time.', country: 'Germany', created: [2016, 8], er: 0.06 },
  { username: 'small.cafe', full_name: 'Small Cafe', topic: 'coffee', followers: 120, following: 60, posts: 40, business: true, category: 'Coffee shop', bio: 'Tiny cafe, big flavours. Open 8-16.', country: 'Netherlands', created: [2020, 3], er: 0.07 },
  // renamed accounts (the id stays stable; the old names do not resolve)
  { username: 'green.kitchen', full_name: 'Green Kitchen Stories', topic: 'vegan', followers: 260, following: 140, posts: 95, business: true, category: 'Food & beverage', former: ['greenkitchen_old', 'gk.recipes'], bio: 'Formerly @greenkitchen_old. Vegetarian and vegan recipes.', country: 'Germany', created: [2015, 9], er: 0.07, stories: 1 },
  { username: 'ida.shoots', full_name: 'Ida Larsen', topic: 'photo', followers: 45_000, following: 300, posts: 80, category: 'Photographer', former: ['ida_larsen_photo'], bio: 'Nordic light. Film and digital.', country: 'Norway', created: [2014, 1], er: 0.03 },
  // private accounts
  { username: 'locked_acc', full_name: 'Locked Account', topic: 'life', followers: 312, following: 280, posts: 44, private: true, bio: 'Private.', country: 'Canada', created: [2017, 7] },
  { username: 'private.jane', full_name: 'Jane', topic: 'life', followers: 88, following: 95, posts: 12, private: true, bio: '', country: 'United States', created: [2021, 12] },
  // an empty public account
  { username: 'empty.account', full_name: '', topic: 'life', followers: 0, following: 0, posts: 0, bio: '', country: 'Brazil', created: [2024, 11] },
];

const N_ACCOUNTS = 400;
const N_VEGAN = 30;

function toShortcode(id: string): string {
  const ALPHA = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  let n = BigInt(id);
  let out = '';
  while (n > 0n) {
    out = ALPHA[Number(n % 64n)] + out;
    n /= 64n;
  }
  return out;
}

export const iso = (t: number): string => new Date(t).toISOString().replace(/\.\d{3}Z$/, 'Z');

function summaryOf(a: Account): UserSummary {
  return { id: a.id, username: a.username, full_name: a.full_name, is_verified: a.is_verified, is_private: a.is_private, profile_pic_url: a.profile_pic_url };
}

function makeAccount(world: World, idx: number, seed: number, spec: Partial<Special> & { username: string; topic: TopicKey }, rng: Rng): Account {
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
    profile_pic_url: `${MEDIA_HOST}/avatars/${id}.jpg`,
    public_email: spec.business ? `hello@${spec.username.replace(/[._]/g, '')}.example` : null,
    public_phone_number: spec.business && rng.chance(0.4) ? `+1 555 01${String(rng.int(0, 99)).padStart(2, '0')}` : null,
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
        style === 0 ? `${first.toLowerCase()}.${word}` :
        style === 1 ? `${word}${rng.pick(['_', '.', ''])}${rng.pick(GENERIC)}` :
        style === 2 ? `${first.toLowerCase()}_${rng.pick(LAST).toLowerCase()}` :
        `${word}with${first.toLowerCase()}`;
      if (tries > 2) username += rng.int(2, 99);
      fullName = style === 1 ? `${word[0].toUpperCase()}${word.slice(1)} ${rng.pick(GENERIC)}` : `${first} ${rng.pick(LAST)}`;
    }
  }
  const isPrivate = !vegan && (bot ? rng.chance(0.5) : rng.chance(0.1));
  const big = !vegan && !bot && rng.chance(0.35);
  const followers = bot ? rng.int(0, 40) : big ? rng.logInt(1500, 2_500_000) : rng.int(vegan ? 60 : 20, 340);
  const business = !bot && rng.chance(big ? 0.6 : 0.25);
  const renamed = !bot && rng.chance(0.06);
  makeAccount(world, idx, seed, {
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
  }, rng);
  const a = world.accounts[world.accounts.length - 1];
  if (bot) a.profile_pic_url = rng.chance(0.7) ? DEFAULT_AVATAR : a.profile_pic_url;
  a.summary = summaryOf(a);
}

function buildPosts(world: World, a: Account, seed: number): void {
  const rng = Rng.of(seed, 'posts', a.idx);
  const topic = a.topic;
  const locs = TOPIC_LOCATIONS[topic.key];
  let t = REFERENCE_TIME - rng.int(1, 48) * HOUR;
  const gapDays = a.postCount > 150 ? 1.2 : a.topic.key === 'vegan' ? 2.2 : 4;
  for (let j = 0; j < a.postCount; j++) {
    if (j > 0) t -= Math.round((0.15 + rng.next() * 2 * gapDays) * DAY);
    // snap to a "posting habit": most posts in the account's favourite hours
    const d = new Date(t);
    const favHour = (hash32(seed, 'hour', a.idx) % 12) + 8;
    if (rng.chance(0.6)) d.setUTCHours(favHour + rng.int(0, 2), rng.int(0, 59), rng.int(0, 59));
    t = Math.min(d.getTime(), t);
    const id = `3${String(a.idx).padStart(4, '0')}${String(a.postCount - j).padStart(5, '0')}${String(hash32(seed, 'pid', a.idx, j) % 100000).padStart(5, '0')}${String(hash32(seed, 'pid2', a.idx, j) % 10000).padStart(4, '0')}`;
    const shortcode = toShortcode(id);
    const r = rng.next();
    const type: Post['type'] = r < 0.45 ? 'photo' : r < 0.7 ? 'carousel' : 'video';
    const product_type: Post['product_type'] = type !== 'video' ? 'feed' : rng.chance(0.75) ? 'clips' : rng.chance(0.4) ? 'igtv' : 'feed';
    const mult = type === 'video' ? 1.3 : type === 'carousel' ? 1.15 : 1;
    const hourBoost = new Date(t).getUTCHours() >= 17 && new Date(t).getUTCHours() <= 21 ? 1.25 : 1;
    const like_count = Math.max(0, Math.round(a.followers * a.er * mult * hourBoost * (0.4 + rng.next() * 1.2)));
    const comment_count = Math.round(like_count * (0.01 + rng.next() * 0.04)) + (rng.chance(0.5) ? rng.int(0, 3) : 0);
    const place = LOCATION_SEED[rng.pick(locs)][0].split(',')[0];
    const thing = rng.pick(THINGS[topic.key]);
    const tags = new Set<string>();
    if (topic.key === 'vegan' && rng.chance(0.96)) tags.add('veganrecipes');
    const nTags = rng.int(1, 3);
    for (let k = 0; k < nTags; k++) tags.add(rng.pick(topic.tags));
    const caption = `${rng.pick(topic.captions).replace('{thing}', thing).replace('{place}', place)} ${[...tags].map((x) => `#${x}`).join(' ')}`;
    const location = rng.chance(0.55) ? world.locations[rng.pick(locs)] : null;
    const video_duration = type !== 'video' ? null : product_type === 'igtv' ? rng.int(600, 9000) / 10 : product_type === 'clips' ? rng.int(50, 900) / 10 : rng.int(100, 600) / 10;
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
      view_count: type === 'video' ? Math.round(like_count * (8 + rng.next() * 25)) + rng.int(10, 500) : null,
      image_url: `${MEDIA_HOST}/p/${shortcode}.jpg`,
      video_url: type === 'video' ? `${MEDIA_HOST}/v/${shortcode}.mp4` : null,
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
    const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
    const rec: LocationRec = {
      id, name, category, address, city, zip, lat, lng,
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
    const top = [...list].sort((x, y) => y.like_count + y.comment_count - (x.like_count + x.comment_count) || byTimeDesc(x, y)).slice(0, TOP_LIMIT);
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

// ---------------------------------------------------------------- lazily derived lists

function memo<T>(world: World, key: string, make: () => T): T {
  if (world.memo.has(key)) return world.memo.get(key) as T;
  const v = make();
  world.memo.set(key, v);
  return v;
}

/** `count` distinct other accounts, in a seeded order. */
function pickAccounts(world: World, a: Account, salt: string, count: number): Account[] {
  const rng = Rng.of(world.seed, salt, a.idx);
  const pool = world.accounts.filter((x) => x !== a);
  const n = Math.min(count, pool.length);
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(rng.next() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return pool.slice(0, n);
}

/** The visible follower list: the whole list, or FOLLOWER_CAP accounts when the account is capped. */
export function followersOf(world: World, a: Account): UserSummary[] {
  return memo(world, `followers:${a.id}`, () =>
    pickAccounts(world, a, 'followers', a.capped ? FOLLOWER_CAP : a.followers).map((x) => x.summary),
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
  return memo(world, `comments:${p.id}`, () => {
    const n = Math.min(p.comment_count, COMMENT_CAP);
    const rng = Rng.of(world.seed, 'comments', p.id);
    const out: CommentRec[] = [];
    let t = p.t;
    for (let k = 0; k < n; k++) {
      t += rng.int(1, 240) * 60_000;
      const r = rng.next();
      const sentiment: Sentiment = r < 0.62 ? 'positive' : r < 0.9 ? 'neutral' : 'negative';
      const text = rng.pick(sentiment === 'positive' ? COMMENTS_POS : sentiment === 'neutral' ? COMMENTS_NEU : COMMENTS_NEG);
      const author = world.accounts[rng.int(0, world.accounts.length - 1)];
      out.push({ id: `18${p.id.slice(1)}${String(k).padStart(3, '0')}`, text, like_count: rng.chance(0.6) ? 0 : rng.logInt(1, 500), created_at: iso(t), author: author.summary, sentiment });
    }
    return out;
  });
}

export function likersOf(world: World, p: Post): UserSummary[] {
  return memo(world, `likers:${p.id}`, () => pickAccounts(world, p.author, `likers:${p.id}`, Math.min(p.like_count, LIKER_CAP)).map((x) => x.summary));
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
      id, shortcode, type: video ? 'video' : 'photo', taken_at: iso(t), t,
      image_url: `${MEDIA_HOST}/s/${shortcode}.jpg`,
      video_url: video ? `${MEDIA_HOST}/s/${shortcode}.mp4` : null,
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
        cover_image_url: `${MEDIA_HOST}/h/${id}.jpg`,
      });
    }
    return out;
  });
}

export function sentimentOf(text: string): Sentiment {
  return COMMENTS_POS.includes(text) ? 'positive' : COMMENTS_NEG.includes(text) ? 'negative' : 'neutral';
}

export { THINGS, toShortcode, summaryOf };
