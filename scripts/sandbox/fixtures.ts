import type { Account, Post, World } from './world/records';
import { PAGE_SIZE } from './paging';

/** Handles, tags, locations and posts that are good test targets for a world (also GET /_sandbox/fixtures). */
export function fixtures(world: World) {
  const pub = world.accounts.filter((a) => !a.is_private);
  const fullList = pub.filter((a) => !a.capped && a.followers >= 100 && a.followers <= 300);
  const withPosts = (a: Account) => a.posts.length > 0;
  const nasa = world.byUsername.get('nasa') as Account;
  const carousel = nasa.posts.find((p) => p.type === 'carousel') as Post;
  const reel = nasa.posts.find((p) => p.product_type === 'clips') as Post;
  return {
    huge_capped: pub.filter((a) => a.followers >= 10_000_000).map((a) => a.username),
    public_full_follower_list: fullList
      .filter(withPosts)
      .slice(0, 10)
      .map((a) => ({ username: a.username, id: a.id, followers: a.followers })),
    private: world.accounts
      .filter((a) => a.is_private && a.full_name)
      .slice(0, 10)
      .map((a) => a.username),
    renamed: world.accounts
      .filter((a) => a.former_usernames.length)
      .slice(0, 10)
      .map((a) => ({ username: a.username, id: a.id, former_usernames: a.former_usernames })),
    empty: 'empty.account',
    hashtags: [...world.hashtags.values()]
      .sort((x, y) => y.recent.length - x.recent.length)
      .slice(0, 10)
      .map((h) => ({ tag: h.name, recent_posts: h.recent.length })),
    locations: world.locations
      .slice(0, 5)
      .map((l) => ({ id: l.id, name: l.name, posts: (world.locationPosts.get(l.id) ?? []).length })),
    posts: {
      nasa_newest: nasa.posts[0].shortcode,
      nasa_carousel: carousel?.shortcode,
      nasa_reel: reel?.shortcode,
      nasa_newest_id: nasa.posts[0].id,
    },
    page_sizes: PAGE_SIZE,
  };
}
