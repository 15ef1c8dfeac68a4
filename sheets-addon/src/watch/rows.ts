/**
 * A watch's sheet: its header, and its rows (one a post: a thumbnail we build, the post's time,
 * where it was seen, author, caption, likes, comments, link, id), written oldest first, each post once.
 */
import { writeBlock } from '../bulk/grid';
import type { SheetValue } from '../engine/values';
import { cellsOf } from '../engine/values';
import type { Grid } from '../context/context';
import type { Post } from './read';

export const HEADER = ['thumbnail', 'taken_at', 'seen in', 'author', 'caption', 'likes', 'comments', 'link', 'id'];
/** The cells after the thumbnail, from each post. */
const FIELDS = ['taken_at', 'author.username', 'caption', 'like_count', 'comment_count', 'url', 'id'];
export const ID_COL = HEADER.length;

/**
 * A post's thumbnail as a formula we write: only an http(s) address of plain characters, never a
 * formula's text from the answer.
 */
function thumbnail(p: Post): string {
  const url = String(p.image_url ?? '');
  return /^https?:\/\/[\w.-]+(:\d+)?\/[\w\-./~%?&=+:]*$/.test(url) ? `=IMAGE("${url}")` : '';
}

/** Sorts posts oldest first and drops those already in the sheet (or twice in the list). */
export function fresh(posts: { p: Post; from: string }[], have: Set<string>) {
  const out = posts.filter(({ p }) => !have.has(String(p.id)) && have.add(String(p.id)));
  return out.sort((a, b) =>
    String(a.p.taken_at) < String(b.p.taken_at) ? -1 : String(a.p.taken_at) > String(b.p.taken_at) ? 1 : 0,
  );
}

/** Writes posts as rows from `row` (the rows exist); the thumbnails as formulas. */
export function writePosts(sheet: Grid, row: number, posts: { p: Post; from: string }[], prefix: string): void {
  if (!posts.length) return;
  writeBlock(
    sheet,
    row,
    1,
    posts.map(({ p, from }): SheetValue[] => {
      const [takenAt, ...rest] = cellsOf(p, FIELDS);
      return ['', takenAt, prefix + from, ...rest];
    }),
  );
  sheet.writeFormulas(
    row,
    1,
    posts.map(({ p }) => thumbnail(p)),
  );
}
