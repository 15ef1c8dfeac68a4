import type { IDataObject, INodeExecutionData, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import type { Call, EndpointDef } from '@igdata/core';
import {
  baseUrlOf,
  documented,
  fetchPage,
  isIgError,
  newestPosts,
  prepare,
  requestKey,
  driveAsync,
} from '@igdata/core';
import { DEFAULT_CONCURRENCY } from './options';
import { mediaLimitsOf, mediaSelection } from './media';
import { downloadMedia } from './media-download';
import { failureSentence } from './media-response';
import { simplifyItem, toNodeError, wholeItem } from './output';
import type { Page } from './feed';
import type { PollState } from './poll';
import { pollFeed, markFeed } from './poll';
import { n8nClient } from './transport';
import type { Event, TriggerEvent, TriggerOptions } from './trigger-description';
import { pollChange } from './change-poll';
import { FEEDS, targetOf, triggerProperties } from './trigger-description';

const SAMPLE_SIZE = 5;

/**
 * Simplified trigger items always carry the author: a notification ("new post by @x") needs it,
 * and `profile/posts`' default columns leave it out (every row there has the same author).
 */
function simplifyPost(endpoint: EndpointDef, post: Record<string, unknown>): IDataObject {
  if (endpoint.columns.includes('author.username')) return simplifyItem(endpoint, post);
  const [first, ...rest] = endpoint.columns;
  return simplifyItem({ ...endpoint, columns: [first, 'author.username', ...rest] }, post);
}

export class IgDataTrigger implements INodeType {
  description: INodeTypeDescription = {
    displayName: 'IG Data Trigger',
    name: 'igDataTrigger',
    icon: { light: 'file:igdata.svg', dark: 'file:igdata.dark.svg' },
    group: ['trigger'],
    version: 1,
    subtitle:
      '={{$parameter["event"] === "hashtag" ? "#" + $parameter["tag"] : $parameter["event"] === "change" ? ' +
      '"Account Changed: " + $parameter["accounts"] : "@" + $parameter["handle"]}}',
    description:
      "Starts the workflow when new posts appear for a hashtag or an account, or when an account's number " +
      'crosses a rule',
    defaults: {
      name: 'IG Data Trigger',
    },
    polling: true,
    inputs: [],
    outputs: [NodeConnectionTypes.Main],
    credentials: [
      {
        name: 'igDataApi',
        required: true,
      },
    ],
    properties: triggerProperties,
  };

  async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
    const event = this.getNodeParameter('event') as TriggerEvent;
    if (event === 'change') return await pollChange(this);
    const feed = FEEDS[event as Event] ?? FEEDS.hashtag;
    const target = targetOf(feed.endpoint).name;
    const options = this.getNodeParameter('options', {}) as TriggerOptions;
    const maxPages = Math.max(1, Math.floor(options.maxPages ?? 5));
    let call: Call;
    try {
      call = prepare(feed.endpoint, { [target]: this.getNodeParameter(target) });
    } catch (e) {
      throw toNodeError(this.getNode(), isIgError(e) ? e : (e as Error));
    }
    // Only the feed's media links: a field an expression names otherwise is never fetched.
    const { fields, refused } = mediaSelection(options.downloadMedia, documented(feed.endpoint));
    const { config: readConfig, io } = n8nClient(this);
    const config = await readConfig();
    const readPage = async (cursor: string | null): Promise<Page> => {
      try {
        const page = await driveAsync(fetchPage(config, call, cursor), io);
        return { items: page.items, nextCursor: page.nextCursor };
      } catch (e) {
        throw toNodeError(this.getNode(), e as Error, call);
      }
    };
    const shape = async (posts: Record<string, unknown>[]): Promise<INodeExecutionData[]> => {
      const items: INodeExecutionData[] = posts.map((p) => ({
        json: options.simplify ? simplifyPost(call.endpoint, p) : wholeItem(call.endpoint, p),
      }));
      if (!fields.length && !refused) return items;
      // The posts are already paid for and the state moves past them: a medium that cannot be
      // downloaded never fails the poll (the post would be lost); the post says so in _notice.
      const media = await downloadMedia(
        this,
        posts,
        () => ({ fields, refused, ...mediaLimitsOf(options), concurrency: DEFAULT_CONCURRENCY }),
        baseUrlOf(config),
      );
      media.forEach((m, k) => {
        if (!m) return;
        if (Object.keys(m.binary).length) items[k].binary = m.binary;
        const notices = [...m.skipped, ...m.failures.map(failureSentence)];
        if (notices.length) items[k].json._notice = notices.join(' ');
      });
      return items;
    };

    if (this.getMode() === 'manual') {
      // A manual run shows what the trigger emits: the newest posts, oldest first (pinned older
      // posts at the head of an account's feed are not the newest). State is untouched.
      const page = await readPage(null);
      const sample = newestPosts(page.items, SAMPLE_SIZE).reverse();
      return sample.length ? [await shape(sample)] : null;
    }

    const staticData = this.getWorkflowStaticData('node');
    const key = requestKey(call.endpoint, call.params);
    const stored = staticData.state as PollState | undefined;
    if (!stored || stored.feed !== key) {
      staticData.state = (await markFeed(key, readPage)) as unknown as IDataObject;
      return null;
    }
    const result = await pollFeed(stored, readPage, maxPages);
    staticData.state = result.state as unknown as IDataObject;
    if (!result.emit.length) return null;
    const items = await shape(result.emit);
    if (result.failure) {
      // The pages before the failed one were paid for: their posts come out now, and the state
      // resumes at the failed page, so the next poll neither repeats nor pays for them again.
      const last = items[items.length - 1].json;
      const notice =
        `A later page of this poll failed (${result.failure.message.replace(/\.$/, '')}): the new posts ` +
        `read before it are here; the next poll resumes at that page without reading these again.`;
      last._notice = last._notice ? `${String(last._notice)} ${notice}` : notice;
    }
    return [items];
  }
}
