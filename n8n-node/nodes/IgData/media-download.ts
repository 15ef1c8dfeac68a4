/**
 * The chosen media of each answered item, downloaded into binary properties (media-fetch.ts does
 * one). At most `concurrency` downloads in flight (the node's Concurrency option, as for lookups,
 * with the same Semaphore); one download per distinct link in a run (items that share an answer
 * share its media), so the downloads in flight hold at most Concurrency x the size limit
 * (README.md, "Media as files").
 */
import type { IBinaryData } from 'n8n-workflow';
import type { MediaOptions } from './media';
import { binaryName } from './media';
import type { Ctx, Fetched } from './media-fetch';
import type { MediaFailure } from './media-response';
import { fetchMedium } from './media-fetch';
import { Semaphore } from './semaphore';

/** What downloading one item's media gave. */
export interface ItemMedia {
  /** One entry per medium downloaded, by binary property name. */
  binary: Record<string, IBinaryData>;
  /** Media left out on purpose (over the size limit), one sentence each. */
  skipped: string[];
  /** Media that could not be downloaded, in field order. */
  failures: MediaFailure[];
}

const mb = (bytes: number): string => `${(bytes / 1048576).toFixed(bytes < 10485760 ? 1 : 0)} MB`;

function valueAt(item: Record<string, unknown>, path: string): unknown {
  let v: unknown = item;
  for (const part of path.split('.')) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

/**
 * Downloads the chosen media of each item. Items are the answers as the API gave them (before
 * Simplify drops fields); an item without a given medium (a photo's `video_url` is null) simply
 * has no such property. Never throws for a failed download: each item gets its own ItemMedia.
 * `baseUrl`: the credential's; its origin is the one address besides the API's media hosts that media
 * may come from (the sandbox).
 */
export async function downloadMedia(
  ctx: Ctx,
  items: (Record<string, unknown> | undefined)[],
  options: (i: number) => MediaOptions | undefined,
  baseUrl: string,
): Promise<(ItemMedia | undefined)[]> {
  const first = items.map((_, i) => options(i)).find((o) => o !== undefined);
  if (!first) return items.map(() => undefined);
  const semaphore = new Semaphore(first.concurrency);
  const baseOrigin = new URL(baseUrl).origin;
  // One download per link and limits: items that share an answer share its media.
  const started = new Map<string, Promise<Fetched>>();
  const fetchOnce = (link: string, field: string, o: MediaOptions): Promise<Fetched> => {
    const key = `${o.maxBytes}|${o.deadlineMs}|${o.anyHost}|${link}`;
    let p = started.get(key);
    if (!p) {
      const want = {
        link,
        field,
        maxBytes: o.maxBytes,
        deadlineMs: o.deadlineMs,
        border: { baseOrigin, anyHost: o.anyHost },
      };
      p = semaphore.run(async () => await fetchMedium(ctx, want));
      started.set(key, p);
    }
    return p;
  };
  return await Promise.all(
    items.map(async (item, i) => {
      const opts = options(i);
      if (!item || !opts || (!opts.fields.length && !opts.refused)) return undefined;
      const media: ItemMedia = { binary: {}, skipped: opts.refused ? [opts.refused] : [], failures: [] };
      const wanted = opts.fields
        .map((field) => ({ field, url: valueAt(item, field) }))
        .filter((m): m is { field: string; url: string } => typeof m.url === 'string' && /^https?:\/\//i.test(m.url));
      const got = await Promise.all(
        wanted.map(async ({ field, url }) => ({ field, fetched: await fetchOnce(url, field, opts) })),
      );
      for (const { field, fetched } of got) {
        if (fetched.ok) media.binary[binaryName(field)] = { ...fetched.binary };
        else if ('tooLarge' in fetched) media.skipped.push(tooLargeSentence(field, fetched.tooLarge, opts.maxBytes));
        else media.failures.push({ field, ...fetched.failure });
      }
      return media;
    }),
  );
}

function tooLargeSentence(field: string, size: number | undefined, maxBytes: number): string {
  const what =
    size === undefined
      ? `it is larger than the media size limit of ${mb(maxBytes)}`
      : `${mb(size)} is over the media size limit of ${mb(maxBytes)}`;
  return `${field} not downloaded: ${what} (Options > Media Size Limit (MB)).`;
}
