/**
 * Records of the world as API JSON. Posts appear in many lists and pages, so each post is
 * serialised once and its string reused; list answers splice those strings together (Raw) instead
 * of serialising the objects again.
 */
import type { LocationRec, Post } from './world/records';

export const locationJson = (l: LocationRec) => ({
  id: l.id,
  name: l.name,
  category: l.category,
  address: l.address,
  city: l.city,
  zip: l.zip,
  lat: l.lat,
  lng: l.lng,
  phone: l.phone,
  website: l.website,
  external_id: l.external_id,
});

export function postObject(p: Post) {
  return {
    id: p.id,
    shortcode: p.shortcode,
    type: p.type,
    product_type: p.product_type,
    url: p.url,
    caption: p.caption,
    taken_at: p.taken_at,
    like_count: p.like_count,
    comment_count: p.comment_count,
    view_count: p.view_count,
    image_url: p.image_url,
    video_url: p.video_url,
    video_duration: p.video_duration,
    location: p.location ? locationJson(p.location) : null,
    author: p.author.summary,
  };
}

const postJsonCache = new WeakMap<Post, string>();
export function postJson(p: Post): string {
  let s = postJsonCache.get(p);
  if (s === undefined) {
    s = JSON.stringify(postObject(p));
    postJsonCache.set(p, s);
  }
  return s;
}

/** A `data` value already serialised (lists of cached items). */
export class Raw {
  constructor(readonly json: string) {}
}
export const listOf = <T>(items: T[], next: string | null, toJson: (x: T) => string): Raw =>
  new Raw(`{"items":[${items.map(toJson).join(',')}],"next_cursor":${JSON.stringify(next)}}`);
export const list = (items: unknown[], next: string | null = null) => ({ items, next_cursor: next });
