/**
 * The polling logic of the triggers, free of n8n. A feed is a list endpoint that returns posts
 * newest first (`hashtag/recent`, `profile/posts`). The state remembers where the feed stood:
 * - `seen`: ids of the most recent posts already handled (a bounded set, newest first);
 * - `newest`: the newest `taken_at` handled.
 * A poll pages from the head until it meets a seen id OR a post older than `newest`; the second
 * test is what stops it when the last seen post was deleted (no duplicates, no paging through the
 * whole history). Posts are emitted oldest first.
 * Pages per poll are bounded. When the bound is hit before the boundary, the posts read are emitted
 * and the rest is remembered as a backlog (the cursor to resume from and the old boundary), read on
 * the next polls before it can be forgotten: nothing is skipped, nothing emitted twice.
 */
import type { PagePlan } from '@igdata/core';
import { NOTHING_READ, afterPage, capBefore } from '@igdata/core';

export type Post = Record<string, unknown> & { id?: unknown; taken_at?: unknown };

export interface Page {
	items: Post[];
	nextCursor: string | null;
}

interface Boundary {
	seen: string[];
	/** Milliseconds since epoch of the newest post handled; absent when the feed was empty. */
	newest?: number;
}

export interface PollState {
	/** Which feed this state belongs to (`requestKey`); another feed starts afresh. */
	feed: string;
	head: Boundary;
	/** Unread older part of an earlier poll that hit the page bound. */
	backlog?: { cursor: string; until: Boundary };
	/** Ids emitted recently, to drop the repeats a shifted cursor can bring back. */
	emitted: string[];
}

export interface PollResult {
	emit: Post[];
	state: PollState;
	pages: number;
	/** True when the page bound stopped this poll before it met the last seen post. */
	behind: boolean;
}

const SEEN_KEEP = 200;
const EMITTED_KEEP = 1000;

const idOf = (p: Post): string => String(p.id ?? '');
const timeOf = (p: Post): number => {
	const t = typeof p.taken_at === 'string' || typeof p.taken_at === 'number' ? Date.parse(String(p.taken_at)) : NaN;
	return Number.isFinite(t) ? t : NaN;
};

/** Whether a post is at or beyond a boundary (already handled). */
function reached(p: Post, b: Boundary): boolean {
	if (b.seen.includes(idOf(p))) return true;
	const t = timeOf(p);
	return b.newest !== undefined && Number.isFinite(t) && t < b.newest;
}

function boundaryOf(posts: Post[], previous?: Boundary): Boundary {
	const times = posts.map(timeOf).filter(Number.isFinite);
	const newest = Math.max(previous?.newest ?? -Infinity, ...times);
	const seen = [...posts.map(idOf), ...(previous?.seen ?? [])].filter((id, i, all) => id && all.indexOf(id) === i);
	// Keep every id at the newest instant (ties must stay recognisable), then the most recent others.
	const atNewest = posts.filter((p) => timeOf(p) === newest).map(idOf);
	const kept = [...new Set([...atNewest, ...seen.slice(0, SEEN_KEEP)])];
	return Number.isFinite(newest) ? { seen: kept, newest } : { seen: kept };
}

/** First poll: record where the feed stands, emit nothing. */
export async function startFeed(feed: string, fetchPage: (cursor: string | null) => Promise<Page>): Promise<PollState> {
	const page = await fetchPage(null);
	return { feed, head: boundaryOf(page.items), emitted: [] };
}

/**
 * Read from `cursor` until a post at or beyond `until`, the end of the feed, or `budget` pages;
 * returns the new posts, newest first. When to ask for the next page is the core's paging rule,
 * with "reached the boundary" as its stop predicate.
 */
async function readUntil(
	fetchPage: (cursor: string | null) => Promise<Page>,
	cursor: string | null,
	until: Boundary,
	budget: number,
	skip: Set<string>,
): Promise<{ posts: Post[]; pages: number; done: boolean; next: string | null }> {
	// Credits are not capped here (pages are), so a page's cost does not enter the rule.
	const plan: PagePlan = { cap: { maxPages: budget, until: (p) => reached(p, until) }, pageCost: 0, paginated: true };
	const posts: Post[] = [];
	if (capBefore(plan, NOTHING_READ)) return { posts, pages: 0, done: false, next: cursor };
	let read = NOTHING_READ;
	for (;;) {
		const page = await fetchPage(cursor);
		const step = afterPage(plan, read, { ...page, creditsCharged: 0 });
		read = step.read;
		for (const p of step.keep) {
			const id = idOf(p);
			if (skip.has(id)) continue;
			skip.add(id);
			posts.push(p);
		}
		if ('next' in step) cursor = step.next;
		else if (step.stop === 'pages') return { posts, pages: read.pages, done: false, next: step.resume };
		else return { posts, pages: read.pages, done: true, next: null };
	}
}

/** A later poll: new posts since the state, oldest first, within `maxPages` pages. */
export async function pollFeed(state: PollState, fetchPage: (cursor: string | null) => Promise<Page>, maxPages: number): Promise<PollResult> {
	const skip = new Set(state.emitted);
	const head = await readUntil(fetchPage, null, state.head, maxPages, skip);
	let pages = head.pages;
	let backlog = state.backlog;
	let older: Post[] = [];
	if (backlog && pages < maxPages) {
		const rest = await readUntil(fetchPage, backlog.cursor, backlog.until, maxPages - pages, skip);
		pages += rest.pages;
		older = rest.posts;
		backlog = rest.done ? undefined : { cursor: rest.next as string, until: backlog.until };
	}
	if (!head.done) {
		// The head alone filled the budget: what lies between it and the old boundary waits. With an
		// older backlog still open, the new backlog reads down to the older boundary: it passes the
		// region already emitted (dropped by the emitted set) and covers both gaps.
		const until = backlog ? backlog.until : state.head;
		backlog = { cursor: head.next as string, until };
	}
	const emit = [...older.slice().reverse(), ...head.posts.slice().reverse()];
	const newHead = head.posts.length ? boundaryOf(head.posts, state.head) : state.head;
	const emitted = [...emit.map(idOf), ...state.emitted].filter(Boolean).slice(0, EMITTED_KEEP);
	return { emit, pages, behind: backlog !== undefined, state: { feed: state.feed, head: newHead, backlog, emitted } };
}
