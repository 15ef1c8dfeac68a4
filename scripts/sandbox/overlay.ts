/**
 * What changes while a sandbox runs: posts published (for trigger tests), posts deleted, posts
 * pinned at the head of an account's feed (as Instagram profiles show up to three) and accounts
 * added (with the text fields a test chooses: a biography that is a formula, a name of digits),
 * kept apart from the seeded world because that world is shared, read-only, by every sandbox with
 * the same seed.
 */
import type { Account, Post, World } from './world/records';
import { hash32, Rng } from './world/random';
import { byTimeDesc, iso, toShortcode } from './world/build';
import type { MovingWorld } from './world/moving';
import { imageRef } from './world/media';
import type { PublishedPost } from './types';

export class Overlay {
  private readonly deleted = new Set<string>();
  /** Published posts per tag and per author, newest first. */
  private readonly byTag = new Map<string, Post[]>();
  private readonly byAuthor = new Map<string, Post[]>();
  private readonly byId = new Map<string, Post>();
  private readonly byShortcode = new Map<string, Post>();
  /** Pinned post ids per account id, in the order they are shown. */
  private readonly pinned = new Map<string, string[]>();
  private counter = 0;
  private lastT = 0;
  /** Added accounts by username and by id; the profile fields each one's answers leave out. */
  private readonly added = new Map<string, Account>();
  private readonly omitted = new Map<Account, string[]>();

  constructor(
    private readonly world: World,
    private readonly seed: number,
    /** The sandbox's clock: a published post is taken "now". */
    private readonly now: () => number,
    /** Posts since the start as the world's clock moves (world/moving.ts). */
    private readonly moving: MovingWorld,
  ) {}

  /** An arrow property, not a method, so it can be handed to filter() without a bind per call. */
  readonly alive = (p: Post): boolean => !this.deleted.has(p.id);

  /** A seeded list with the published posts in front and the deleted ones left out. */
  merge(base: Post[], extra: Post[] | undefined): Post[] {
    const merged = extra && extra.length ? [...extra, ...base] : base;
    return this.deleted.size ? merged.filter(this.alive) : merged;
  }

  /** Posts published here and posts of the moving world, both newer than the seeded ones, newest first. */
  private newer(published: Post[] | undefined, moved: Post[]): Post[] | undefined {
    if (!moved.length) return published;
    if (!published?.length) return moved;
    return [...published, ...moved].sort(byTimeDesc);
  }

  feedOf(a: Account): Post[] {
    return this.moving.engagedAll(this.merge(a.posts, this.newer(this.byAuthor.get(a.id), this.moving.feedOf(a))));
  }

  locationPosts(id: string): Post[] {
    return this.moving.engagedAll(this.merge(this.world.locationPosts.get(id) ?? [], this.moving.located(id)));
  }

  /** The account's pinned posts still alive, shown first on the first page of profile/posts. */
  pinnedOf(a: Account): Post[] {
    const ids = this.pinned.get(a.id);
    if (!ids?.length) return [];
    return ids.map((id) => this.findPost(id)).filter((p): p is Post => p !== undefined && this.alive(p));
  }

  /**
   * Pin the account's `count` oldest posts (0 unpins): profile/posts then shows them first on its
   * first page, out of their place further down, as a profile shows older pinned posts. At most 3,
   * as Instagram allows.
   */
  pinPosts(handle: string, count: number): PublishedPost[] {
    const a = this.world.byUsername.get(handle.replace(/^@/, '').toLowerCase());
    if (!a) throw new Error(`No account "${handle}"`);
    if (!Number.isInteger(count) || count < 0 || count > 3) throw new Error('count must be a whole number from 0 to 3');
    const feed = this.feedOf(a);
    const chosen = count ? feed.slice(-count) : [];
    this.pinned.set(
      a.id,
      chosen.map((p) => p.id),
    );
    return chosen.map((p) => ({
      id: p.id,
      shortcode: p.shortcode,
      url: p.url,
      taken_at: p.taken_at,
      author: a.username,
    }));
  }

  reelsOf(a: Account): Post[] {
    return this.feedOf(a).filter((p) => p.product_type === 'clips');
  }

  recentOf(tag: string, seeded: Post[]): Post[] {
    return this.moving.engagedAll(this.merge(seeded, this.newer(this.byTag.get(tag), this.moving.tagged(tag))));
  }

  /** A post by id or shortcode, seeded or published, deleted or not (with its author's engagement steps). */
  findPost(ref: string): Post | undefined {
    const { world } = this;
    const p =
      world.postsById.get(ref) ??
      this.byId.get(ref) ??
      world.postsByShortcode.get(ref) ??
      this.byShortcode.get(ref) ??
      this.moving.find(ref);
    return p && this.moving.engaged(p);
  }

  addPosts(tagInput: string, n: number, caption?: string): PublishedPost[] {
    const { world, seed } = this;
    const tag = tagInput.replace(/^#/, '').toLowerCase();
    if (!/^[\p{L}\p{N}_]{1,150}$/u.test(tag)) throw new Error(`Not a hashtag: ${tagInput}`);
    if (!Number.isInteger(n) || n < 1 || n > 1000) throw new Error('count must be a whole number from 1 to 1000');
    const authors = world.accounts.filter((a) => !a.is_private && a.full_name && a.topic.tags.includes(tag));
    const pool = authors.length ? authors : world.accounts.filter((a) => !a.is_private && a.full_name);
    const out: PublishedPost[] = [];
    for (let k = 0; k < n; k++) {
      const c = ++this.counter;
      const rng = Rng.of(seed, 'publish', c);
      const author = pool[rng.int(0, pool.length - 1)];
      const t = Math.max(Math.floor(this.now() / 1000) * 1000, this.lastT + 1000);
      this.lastT = t;
      const id = `39${String(c).padStart(8, '0')}${String(hash32(seed, 'pub', c) % 1e9).padStart(9, '0')}`;
      const shortcode = toShortcode(id);
      const likes = rng.int(0, 40);
      const p: Post = {
        id,
        shortcode,
        type: 'photo',
        product_type: 'feed',
        url: `https://www.instagram.com/p/${shortcode}/`,
        caption: caption ?? `Fresh post ${c} #${tag}`,
        taken_at: iso(t),
        t,
        like_count: likes,
        comment_count: rng.int(0, 3),
        view_count: null,
        image_url: imageRef('p', shortcode),
        video_url: null,
        video_duration: null,
        location: null,
        author,
        tags: [tag],
        childCount: 0,
      };
      this.byId.set(id, p);
      this.byShortcode.set(shortcode, p);
      this.byTag.set(tag, [p, ...(this.byTag.get(tag) ?? [])]);
      this.byAuthor.set(author.id, [p, ...(this.byAuthor.get(author.id) ?? [])]);
      out.push({ id, shortcode, url: p.url, taken_at: p.taken_at, author: author.username });
    }
    return out.reverse(); // newest first, like the feed
  }

  /** An added account by username or id. */
  account(handle: string): Account | undefined {
    return this.added.get(handle);
  }

  /** The profile fields `a`'s answers leave out (an answer missing a documented field). */
  omits(a: Account): string[] {
    return this.omitted.get(a) ?? [];
  }

  /**
   * Adds a public account with no posts: `username` (new), and any of the text fields, `id` (digits),
   * `followers`/`following`, `is_verified`, and `omit` (profile fields its answers leave out); the
   * rest is copied from a seeded account.
   */
  addAccount(spec: Record<string, unknown>): { id: string; username: string } {
    const { world } = this;
    const username = String(spec.username ?? '');
    if (!/^[a-z0-9._]{1,30}$/.test(username)) throw new Error('username must be 1-30 of a-z, 0-9, "." and "_"');
    if (world.byUsername.has(username) || this.added.has(username)) throw new Error(`@${username} exists`);
    const id = String(spec.id ?? `4${String(hash32(this.seed, 'account', username)).padStart(16, '0')}`);
    if (!/^\d{1,19}$/.test(id) || world.byId.has(id) || this.added.has(id))
      throw new Error('id must be 1-19 digits, unused');
    const template = world.accounts.find((a) => !a.is_private && a.full_name)!;
    const text = (k: string): string | undefined => (spec[k] === undefined ? undefined : String(spec[k]));
    const count = (k: string, d: number): number => (spec[k] === undefined ? d : Number(spec[k]));
    const full_name = text('full_name') ?? template.full_name;
    const a: Account = {
      ...template,
      id,
      username,
      full_name,
      biography: text('biography') ?? '',
      category: text('category') ?? template.category,
      external_url: text('external_url') ?? null,
      public_email: text('public_email') ?? null,
      public_phone_number: text('public_phone_number') ?? null,
      followers: count('followers', template.followers),
      following: count('following', template.following),
      is_verified: spec.is_verified === true,
      former_usernames: [],
      // The niche the insights give it: a label derived from a stranger's posts, so any text.
      topic: text('niche') === undefined ? template.topic : { ...template.topic, label: text('niche')! },
      posts: [],
      postCount: 0,
      summary: { ...template.summary, id, username, full_name },
    };
    const omit = spec.omit;
    if (omit !== undefined && !(Array.isArray(omit) && omit.every((f) => typeof f === 'string')))
      throw new Error('omit must be a list of field names');
    this.added.set(username, a).set(id, a);
    if (omit) this.omitted.set(a, omit as string[]);
    return { id, username };
  }

  deletePost(ref: string): boolean {
    const p = this.findPost(ref.trim());
    if (!p || this.deleted.has(p.id)) return false;
    this.deleted.add(p.id);
    return true;
  }
}
