/**
 * The action node's Options collection (and the media options the trigger shares), with the
 * defaults the node reads them with (input.ts).
 */
import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';
import type { DocumentedEndpoint } from '@igdata/core';
import { counted, documentedEndpoints as endpoints } from '@igdata/core';
import { BALANCE_CHECK_ABOVE } from './ledger';
import { MEDIA_HOSTS } from './address';
import { DEFAULT_MEDIA_MAX_MB, DEFAULT_MEDIA_SECONDS, mediaChoices, mediaPaths } from './media';

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

/** Operations whose answers link to media (image_url, video_url, ... in their schemas). */
const mediaIds = endpoints.filter((e) => mediaPaths(e).length).map((e) => e.id);

/** The media operations grouped by their media fields: each group gets its own Download Media choices. */
const mediaGroups: DocumentedEndpoint[][] = [
  ...endpoints
    .filter((e) => mediaPaths(e).length)
    .reduce(
      (groups, e) => groups.set(mediaPaths(e).join(), [...(groups.get(mediaPaths(e).join()) ?? []), e]),
      new Map<string, DocumentedEndpoint[]>(),
    )
    .values(),
];

/** Options > Download Media, for the action node (shown for its media operations) and the trigger. */
export function downloadMediaOption(
  list: readonly DocumentedEndpoint[],
  show?: NonNullable<IDisplayOptions['show']>,
): INodeProperties {
  return {
    displayName: 'Download Media',
    name: 'downloadMedia',
    type: 'multiOptions',
    options: mediaChoices(list),
    default: [],
    description:
      'Media to download into binary properties of each item, one per medium, named after the field ' +
      'without _url (image, video, profile_pic, cover_image, author_profile_pic), to save, upload or ' +
      'send as files. Media downloads are not API requests: they are free (no credits). Links expire: ' +
      'download in the same execution as the lookup, do not store links for later.',
    ...(show ? { displayOptions: { show } } : {}),
  };
}

/**
 * Options > Media From Any Host, Media Size Limit (MB) and Media Time Limit (Seconds), in the
 * options' alphabetical order (n8n's lint).
 */
export function mediaLimitOptions(show?: NonNullable<IDisplayOptions['show']>): INodeProperties[] {
  const shown = show ? { displayOptions: { show } } : {};
  return [
    {
      displayName: 'Media From Any Host',
      name: 'mediaAnyHost',
      type: 'boolean',
      default: false,
      description:
        "Whether to download media links that name a host other than the API's media hosts (https://*." +
        `${MEDIA_HOSTS.join(', https://*.')}) and the Base URL's address. The node refuses written private ` +
        'addresses and localhost, but cannot see where a name resolves (one may lead into your network): turn ' +
        "this on only with n8n's SSRF protection on (N8N_SSRF_PROTECTION_ENABLED=true, n8n 2.12 and later).",
      ...shown,
    },
    {
      displayName: 'Media Size Limit (MB)',
      name: 'mediaMaxSize',
      type: 'number',
      typeOptions: { minValue: 1, numberPrecision: 0 },
      default: DEFAULT_MEDIA_MAX_MB,
      description:
        'Largest medium downloaded, in megabytes. A larger one is not ' +
        'downloaded: the item is output without it and says so in _notice.',
      ...shown,
    },
    {
      displayName: 'Media Time Limit (Seconds)',
      name: 'mediaTimeLimit',
      type: 'number',
      typeOptions: { minValue: 1, numberPrecision: 0 },
      default: DEFAULT_MEDIA_SECONDS,
      description:
        'Longest time one medium may take to download, from its request to its last byte. A slower one is ' +
        'dropped: the item is output without it and says so in _notice.',
      ...shown,
    },
  ];
}

/** Operations about one account, post, hashtag or place: the API answers 404 when it has no public data. */
const targetIds = endpoints
  .filter((e) => e.params.some((p) => p.required && ['handle', 'post', 'tag', 'location'].includes(p.kind)))
  .map((e) => e.id);

export const optionsProperty: INodeProperties = {
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
      description:
        `How many requests may be in flight at once across all input items ` +
        `(1-${MAX_CONCURRENCY}): the node never sends more, fewer only when the API answers 429. ` +
        `Not added, the node finds the API's pace itself (${DEFAULT_CONCURRENCY} at first, up to ` +
        `${MAX_CONCURRENCY}). Must be the same for every item.`,
    },
    {
      displayName: 'Credit Cap',
      name: 'creditCap',
      type: 'number',
      typeOptions: { minValue: 0 },
      default: DEFAULT_CREDIT_CAP,
      description:
        `Most credits this node may spend in one workflow execution, across all its runs (each batch of Loop ` +
        `Over Items, each AI agent tool call), items and pages. Without this option the cap is ` +
        `${DEFAULT_CREDIT_CAP.toLocaleString('en-US')}; 0 removes it. Before the first request the node adds up ` +
        `what the items will cost (lookups, Limit lists, the first page of a Return All) and, if that is over ` +
        `the cap or, above ${counted(BALANCE_CHECK_ABOVE, 'credit')}, over your balance, stops at once without ` +
        `spending anything. Return All stops at the cap and keeps the pages it read. Must be the same for every item.`,
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
      description: 'Whether to add a meta field to each item: credits charged and remaining, request ID, pages read',
    },
    ...mediaLimitOptions({ '/operation': mediaIds }),
    {
      displayName: 'On Not Found',
      name: 'onNotFound',
      type: 'options',
      displayOptions: { show: { '/operation': targetIds } },
      options: [
        {
          name: 'Output an Item',
          value: 'item',
          description:
            'An item with found: false, the target, the message and credits_charged, paired to its input item',
        },
        {
          name: 'Skip',
          value: 'skip',
          description: 'No item; a warning hint and _notice on the last item say which and what they cost',
        },
        {
          name: 'Error',
          value: 'error',
          description:
            'An error: an error item with Continue On Fail; without it the execution fails, and the answers of ' +
            'the other items, already paid for, are not output (n8n keeps no output of a failed node)',
        },
      ],
      default: 'item',
      description:
        'What a lookup of an account, post, hashtag or place with no public data ' +
        '(private, deleted or nonexistent) gives. The API charges it like an answer.',
    },
    {
      displayName: 'Simplify',
      name: 'simplify',
      type: 'boolean',
      default: false,
      description:
        'Whether to return a flat item with only the default columns of the ' +
        'operation (nested fields become dotted names) instead of the full response',
    },
  ],
};
