/**
 * The action node's fields, generated from the core's endpoint registry: every endpoint is an
 * operation whose value is its path without `/v1/` (`profile/posts`), and every parameter a field
 * named as the API's query parameter (`handle`, `posts`, `tag`...). Adding an endpoint to the
 * registry adds an operation here; nothing is listed twice.
 */
import type { IDisplayOptions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import type { DocumentedEndpoint, EndpointDef, ParamDef } from '@igdata/core';
// Names, descriptions and examples are the registry's docs (core/src/registry/docs.ts), joined to its runtime facts.
import { costRange, documentedEndpoints as endpoints, documentedParam } from '@igdata/core';
import { BALANCE_CHECK_ABOVE } from './precheck';
import { DEFAULT_MEDIA_MAX_MB, mediaChoices, mediaPaths } from './media';

export const DEFAULT_CONCURRENCY = 50;
export const MAX_CONCURRENCY = 200;
export const DEFAULT_LIMIT = 50;
/**
 * Credits one execution of the node may spend unless Options > Credit Cap says otherwise (0 = no
 * cap). Every request costs money, so a workflow mistake (Return All on a busy hashtag, a loop
 * over a large sheet) must stop somewhere by default: 1,000 credits cost 6.00-8.00 at the API's
 * prices, far above what a normal run spends (the shipped examples spend under 130).
 */
export const DEFAULT_CREDIT_CAP = 1000;

/** `Profile Insight` -> `profileInsight`. */
export const resourceValue = (resource: string): string =>
	resource
		.split(/\s+/)
		.map((w, i) => (i === 0 ? w.toLowerCase() : w[0].toUpperCase() + w.slice(1).toLowerCase()))
		.join('');

const RESOURCE_DESCRIPTIONS: Record<string, string> = {
	Account: 'Your credit balance',
	Hashtag: 'Recent and top posts for a hashtag, and hashtag analysis',
	Location: 'Places and the posts tagged at them',
	Post: 'A post or reel, its comments, likers and AI analysis',
	Profile: 'An account: profile, posts, reels, stories, highlights, followers, following',
	'Profile Insight': 'Computed and AI insights on an account: engagement, best time, audit, niche, lead scoring',
	Search: 'Search accounts, hashtags and places by keyword',
};

const resources = [...new Set(endpoints.map((e) => e.resource))].sort();

const credits = (n: number) => `${n} credit${n === 1 ? '' : 's'}`;

/** What the window parameter of a priced-by-window endpoint counts, for the cost sentence. */
const WINDOW_WORDS: Record<string, string> = { posts: 'how many posts are analyzed', sample: 'the follower sample size' };

/** The price as a phrase: "Cost: 1 credit.", "Cost: 2 credits per page.", "Cost: 2-6 credits, depending on how many posts are analyzed." */
export function costSentence(e: EndpointDef): string {
	const [lo, hi] = costRange(e);
	if (hi === 0) return 'Cost: free (no credits).';
	const perPage = e.paginated ? ' per page' : '';
	if (e.cost.type === 'window') {
		return `Cost: ${lo}-${hi} credits, depending on ${WINDOW_WORDS[e.cost.param] ?? `the ${e.cost.param} parameter`}.`;
	}
	if (!e.cost.exact) return `Cost: about ${credits(lo)}${perPage} (the API does not document this price).`;
	return `Cost: ${credits(lo)}${perPage}.`;
}

/** What an agent reads to choose an operation: what it does, what it returns, what it costs. */
export function operationDescription(e: DocumentedEndpoint): string {
	const shape = e.shape === 'list' ? (e.paginated ? 'Returns one item per result, page by page.' : 'Returns one item per result.') : 'Returns one item.';
	// The registry's descriptions mention paging and price in passing; here both get their own sentence.
	const base = e.description
		.replace(/\s*(Paged|Not paged)[^.]*\.\s*/g, ' ')
		.replace(/,\s*\d+ credits? per page(?=\.)/g, '')
		.replace(/\s*\b\d+ credits? per page\./g, '')
		.replace(/\s*\bFree\.\s*$/, '')
		.trim();
	return `${base.replace(/\.?$/, '.')} ${shape} ${costSentence(e)}`;
}

/**
 * The operation's `action`, which is also what an AI agent reads: n8n 2.x (2.8.4 to 2.41.1) turns
 * a node with `usableAsTool` into a tool whose description, when "Tool Description" is left on
 * "Set Automatically" (the default), is "<action> in IG Data" (n8n-workflow's
 * NodeHelpers.makeDescription, called by n8n-core's createNodeAsTool); an operation's
 * `description` does not reach the agent. So the action carries what the operation does, what it
 * returns and what it costs, the same sentence as `description`. The node keeps its own name on
 * the canvas (`skipNameGeneration`), so node names do not become this sentence.
 */
export const toolAction = (e: DocumentedEndpoint): string => operationDescription(e).replace(/\.$/, '');

/** The canvas subtitle: the operation's name and resource ("Get Posts: Profile"), not its path value. */
export const SUBTITLE = `={{ (${JSON.stringify(Object.fromEntries(endpoints.map((e) => [e.id, `${e.operation}: ${e.resource}`])))})[$parameter["operation"]] || $parameter["operation"] }}`;

const operationOption = (e: DocumentedEndpoint): INodePropertyOptions => ({
	name: e.operation,
	value: e.id,
	action: toolAction(e),
	description: operationDescription(e),
});

const displayName = (p: ParamDef): string =>
	({ handle: 'Handle', post: 'Post', tag: 'Tag', id: 'Location ID', q: 'Query', posts: 'Posts', timezone: 'Timezone', sample: 'Sample', criteria: 'Criteria', topic: 'Topic', context: 'Context' })[p.name] ??
	p.name.replace(/(^|_)(\w)/g, (_m, _s, c: string) => ` ${c.toUpperCase()}`).trim();

const PLACEHOLDERS: Record<string, string> = {
	handle: 'e.g. nasa, @nasa or https://www.instagram.com/nasa/',
	// the registry's example post: one that exists in the sandbox (test/examples.test.ts runs these)
	post: `e.g. ${endpoints.find((e) => e.id === 'post')!.params[0].example}`,
	tag: 'e.g. veganrecipes',
	location: 'e.g. 213385402',
};

/** The field of a registry parameter, shown when `show` holds (the action's operations, the trigger's event). */
export function paramField(p: ParamDef, show: NonNullable<IDisplayOptions['show']>): INodeProperties {
	const doc = documentedParam(p);
	const description = `${doc.description.replace(/\.$/, '')}. API parameter: ${p.name}.`;
	if (p.kind === 'integer') {
		const numberDefault = typeof p.default === 'number' ? p.default : 0;
		return {
			displayName: displayName(p),
			name: p.name,
			type: 'number',
			required: p.required,
			default: numberDefault,
			typeOptions: { minValue: p.min, maxValue: p.max, numberPrecision: 0 },
			description,
			displayOptions: { show },
		};
	}
	const textDefault = typeof p.default === 'string' ? p.default : '';
	const prop: INodeProperties = {
		displayName: displayName(p),
		name: p.name,
		type: 'string',
		required: p.required,
		default: textDefault,
		description,
		displayOptions: { show },
	};
	const placeholder = PLACEHOLDERS[p.kind] ?? (doc.example !== undefined ? `e.g. ${doc.example}` : undefined);
	if (placeholder) prop.placeholder = placeholder;
	return prop;
}

/** Parameters that are declared identically are one field shown for several operations. */
function paramProperties(): INodeProperties[] {
	const groups = new Map<string, { def: ParamDef; ops: string[] }>();
	for (const e of endpoints) {
		for (const p of e.params) {
			if (p.kind === 'cursor') continue; // paging is the node's job (Return All / Limit)
			const key = JSON.stringify([p.name, p.kind, p.required, p.default, p.min, p.max, p.description]);
			const g = groups.get(key) ?? { def: p, ops: [] };
			g.ops.push(e.id);
			groups.set(key, g);
		}
	}
	return [...groups.values()].map((g) => paramField(g.def, { operation: g.ops }));
}

/** Operations whose answers link to media (image_url, video_url, ... in their schemas). */
const mediaIds = endpoints.filter((e) => mediaPaths(e).length).map((e) => e.id);

/** The media operations grouped by their media fields: each group gets its own Download Media choices. */
const mediaGroups: DocumentedEndpoint[][] = [
	...endpoints
		.filter((e) => mediaPaths(e).length)
		.reduce((groups, e) => groups.set(mediaPaths(e).join(), [...(groups.get(mediaPaths(e).join()) ?? []), e]), new Map<string, DocumentedEndpoint[]>())
		.values(),
];

/** Options > Download Media, for the action node (shown for its media operations) and the trigger. */
export function downloadMediaOption(list: readonly DocumentedEndpoint[], show?: NonNullable<IDisplayOptions['show']>): INodeProperties {
	return {
		displayName: 'Download Media',
		name: 'downloadMedia',
		type: 'multiOptions',
		options: mediaChoices(list),
		default: [],
		description:
			'Media to download into binary properties of each item, one per medium, named after the field without _url (image, video, profile_pic, cover_image, author_profile_pic), to save, upload or send as files. Media downloads are not API requests: they are free (no credits). Links expire: download in the same execution as the lookup, do not store links for later.',
		...(show ? { displayOptions: { show } } : {}),
	};
}

/** Options > Media Size Limit (MB), placed in the options' alphabetical order. */
export function mediaSizeOption(show?: NonNullable<IDisplayOptions['show']>): INodeProperties {
	return {
		displayName: 'Media Size Limit (MB)',
		name: 'mediaMaxSize',
		type: 'number',
		typeOptions: { minValue: 1, numberPrecision: 0 },
		default: DEFAULT_MEDIA_MAX_MB,
		description:
			'Largest medium downloaded, in megabytes. A larger one is not downloaded: the item is output without it and says so in _notice.',
		...(show ? { displayOptions: { show } } : {}),
	};
}

const listIds = endpoints.filter((e) => e.shape === 'list').map((e) => e.id);
/** Operations about one account, post, hashtag or place: the API answers 404 when it has no public data. */
const targetIds = endpoints.filter((e) => e.params.some((p) => p.required && ['handle', 'post', 'tag', 'location'].includes(p.kind))).map((e) => e.id);
const pagedIds = endpoints.filter((e) => e.shape === 'list' && e.paginated).map((e) => e.id);

export const properties: INodeProperties[] = [
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: resources.map((r) => ({ name: r, value: resourceValue(r), description: RESOURCE_DESCRIPTIONS[r] })),
		default: 'profile',
	},
	...resources.map((r): INodeProperties => {
		const firstOperation = endpoints.find((e) => e.resource === r)!.id;
		return {
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resourceValue(r)] } },
			options: endpoints
				.filter((e) => e.resource === r)
				.map(operationOption)
				.sort((a, b) => a.name.localeCompare(b.name)),
			default: firstOperation,
		};
	}),
	...paramProperties(),
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		displayOptions: { show: { operation: pagedIds } },
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		displayOptions: { show: { operation: pagedIds, returnAll: [false] } },
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		displayOptions: { show: { operation: listIds.filter((id) => !pagedIds.includes(id)) } },
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Concurrency',
				name: 'concurrency',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY },
				default: DEFAULT_CONCURRENCY,
				description: `How many requests may be in flight at once across all input items (1-${MAX_CONCURRENCY}). Must be the same for every item.`,
			},
			{
				displayName: 'Credit Cap',
				name: 'creditCap',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: DEFAULT_CREDIT_CAP,
				description: `Most credits this node may spend in one workflow execution, across all its runs (each batch of Loop Over Items, each AI agent tool call), items and pages. Without this option the cap is ${DEFAULT_CREDIT_CAP.toLocaleString('en-US')}; 0 removes it. Before the first request the node adds up what the items will cost (lookups, Limit lists, the first page of a Return All) and, if that is over the cap or, above ${BALANCE_CHECK_ABOVE} credits, over your balance, stops at once without spending anything. Return All stops at the cap and keeps the pages it read. Must be the same for every item.`,
			},
			// One Download Media per set of media fields, offering only the fields of the operation shown.
			...mediaGroups.map((list) => downloadMediaOption(list, { '/operation': list.map((e) => e.id) })),
			{
				displayName: 'Extra Query Parameters',
				name: 'extraParameters',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				default: {},
				placeholder: 'Add Parameter',
				description: 'Query parameters sent unchanged in addition to the fields above',
				options: [
					{
						displayName: 'Parameter',
						name: 'parameter',
						values: [
							{ displayName: 'Name', name: 'name', type: 'string', default: '' },
							{ displayName: 'Value', name: 'value', type: 'string', default: '' },
						],
					},
				],
			},
			{
				displayName: 'Include Meta',
				name: 'includeMeta',
				type: 'boolean',
				default: false,
				description:
					'Whether to add a meta field to each item: credits charged and remaining, request ID, pages read',
			},
			mediaSizeOption({ '/operation': mediaIds }),
			{
				displayName: 'On Not Found',
				name: 'onNotFound',
				type: 'options',
				displayOptions: { show: { '/operation': targetIds } },
				options: [
					{
						name: 'Output an Item',
						value: 'item',
						description: 'An item with found: false, the target, the message and credits_charged, paired to its input item',
					},
					{ name: 'Skip', value: 'skip', description: 'No item; a warning hint and _notice on the last item say which and what they cost' },
					{
						name: 'Error',
						value: 'error',
						description:
							'An error: an error item with Continue On Fail; without it the execution fails, and the answers of the other items, already paid for, are not output (n8n keeps no output of a failed node)',
					},
				],
				default: 'item',
				description:
					'What a lookup of an account, post, hashtag or place with no public data (private, deleted or nonexistent) gives. The API charges it like an answer.',
			},
			{
				displayName: 'Simplify',
				name: 'simplify',
				type: 'boolean',
				default: false,
				description:
					'Whether to return a flat item with only the default columns of the operation (nested fields become dotted names) instead of the full response',
			},
		],
	},
];
