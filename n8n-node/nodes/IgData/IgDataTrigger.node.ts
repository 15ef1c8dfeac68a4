import type { IDataObject, INodeExecutionData, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { NodeApiError, NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';
import { prepare } from '../../../core/src/call';
import type { Call } from '../../../core/src/call';
import { runAsync } from '../../../core/src/effects';
import { isIgError } from '../../../core/src/errors';
import { userMessage } from '../../../core/src/messages';
import { paginate } from '../../../core/src/paginate';
import type { EndpointDef } from '../../../core/src/registry/types';
import { requestKey } from '../../../core/src/request';
import { simplifyItem } from './execute';
import type { Page, PollState } from './poll';
import { pollFeed, startFeed } from './poll';
import { clientConfig, KEY_WHERE, n8nIO } from './transport';

const FEEDS = {
	hashtag: { endpoint: 'hashtag/recent', param: 'tag' },
	account: { endpoint: 'profile/posts', param: 'handle' },
} as const;

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
		subtitle: '={{$parameter["event"] === "hashtag" ? "#" + $parameter["tag"] : "@" + $parameter["handle"]}}',
		description: 'Starts the workflow when new posts appear for a hashtag or an account',
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
		properties: [
			{
				displayName: 'Trigger On',
				name: 'event',
				type: 'options',
				noDataExpression: true,
				options: [
					{
						name: 'New Hashtag Post',
						value: 'hashtag',
						description: 'A new post appears in the recent posts of a hashtag (hashtag/recent, 1 credit per page)',
					},
					{
						name: 'New Account Post',
						value: 'account',
						description: 'An account publishes a new feed post (profile/posts, 2 credits per page)',
					},
				],
				default: 'hashtag',
			},
			{
				displayName: 'Tag',
				name: 'tag',
				type: 'string',
				required: true,
				default: '',
				placeholder: 'e.g. veganrecipes',
				description: 'Hashtag to watch, with or without the leading #. API parameter: tag.',
				displayOptions: { show: { event: ['hashtag'] } },
			},
			{
				displayName: 'Handle',
				name: 'handle',
				type: 'string',
				required: true,
				default: '',
				placeholder: 'e.g. nasa, @nasa or https://www.instagram.com/nasa/',
				description: 'Account to watch as username, @username, numeric ID or profile URL. API parameter: handle.',
				displayOptions: { show: { event: ['account'] } },
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Max Pages per Poll',
						name: 'maxPages',
						type: 'number',
						typeOptions: { minValue: 1, maxValue: 100 },
						default: 5,
						description:
							'Most pages read in one poll (each page costs credits). When more new posts arrived, the rest is read on the next polls; none is skipped.',
					},
					{
						displayName: 'Simplify',
						name: 'simplify',
						type: 'boolean',
						default: false,
						description: "Whether to return flat items with only the default columns and the author's username instead of the full post",
					},
				],
			},
		],
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const event = this.getNodeParameter('event') as keyof typeof FEEDS;
		const feed = FEEDS[event] ?? FEEDS.hashtag;
		const options = this.getNodeParameter('options', {}) as { maxPages?: number; simplify?: boolean };
		const maxPages = Math.max(1, Math.floor(options.maxPages ?? 5));
		let call: Call;
		try {
			call = prepare(feed.endpoint, { [feed.param]: this.getNodeParameter(feed.param) });
		} catch (e) {
			throw new NodeOperationError(this.getNode(), isIgError(e) ? userMessage(e, { keyWhere: KEY_WHERE }) : (e as Error));
		}
		const config = await clientConfig(this);
		const io = n8nIO(this);
		const fetchPage = async (cursor: string | null): Promise<Page> => {
			const params = { ...call.params };
			if (cursor !== null) params.cursor = cursor;
			try {
				const page = await runAsync(paginate(config, { endpoint: call.endpoint, params }, { maxPages: 1 }), io);
				return { items: page.items, nextCursor: page.nextCursor };
			} catch (e) {
				if (!isIgError(e)) throw new NodeOperationError(this.getNode(), e as Error);
				const message = userMessage(e, { keyWhere: KEY_WHERE, call });
				if (e.name === 'IgApiError') {
					throw new NodeApiError(this.getNode(), { code: e.code, message: e.message, status: e.status }, { message, httpCode: String(e.status) });
				}
				throw new NodeOperationError(this.getNode(), message);
			}
		};
		const shape = (posts: Record<string, unknown>[]): INodeExecutionData[] =>
			posts.map((p) => ({ json: options.simplify ? simplifyPost(call.endpoint, p) : (p as IDataObject) }));

		if (this.getMode() === 'manual') {
			// A manual run shows what the trigger emits: the newest posts, oldest first. State is untouched.
			const page = await fetchPage(null);
			const sample = page.items.slice(0, SAMPLE_SIZE).reverse();
			return sample.length ? [shape(sample)] : null;
		}

		const staticData = this.getWorkflowStaticData('node');
		const key = requestKey(call.endpoint, call.params);
		const stored = staticData.state as PollState | undefined;
		if (!stored || stored.feed !== key) {
			staticData.state = (await startFeed(key, fetchPage)) as unknown as IDataObject;
			return null;
		}
		const result = await pollFeed(stored, fetchPage, maxPages);
		staticData.state = result.state as unknown as IDataObject;
		return result.emit.length ? [shape(result.emit)] : null;
	}
}
