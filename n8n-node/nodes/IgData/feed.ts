/**
 * A feed's page as the trigger reads it (IgDataTrigger.node.ts `readPage`): its posts, newest
 * first, and the next page's cursor. Which posts are new is core's feed rule (poll.ts uses it).
 */

export type Post = Record<string, unknown> & { id?: unknown; taken_at?: unknown };

export interface Page {
  items: Post[];
  nextCursor: string | null;
}
