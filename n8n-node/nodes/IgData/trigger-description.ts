/**
 * The trigger's events and fields: each event watches a feed (a registry list endpoint read through
 * its target parameter), with the target fields and options generated from the registry as the
 * action node's are.
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import type { EndpointDef, ParamDef } from '@igdata/core';
import { documentedEndpoints, estimateCost, getEndpoint, plural } from '@igdata/core';
import { paramField } from './fields';
import { downloadMediaOption, mediaLimitOptions } from './options';
import { CHECK_PRICES, changeProperties } from './change-description';

/** Each event watches a feed: a registry list endpoint, read through its target parameter. */
export const FEEDS = {
  hashtag: {
    endpoint: getEndpoint('hashtag/recent'),
    name: 'New Hashtag Post',
    what: 'A new post appears in the recent posts of a hashtag',
  },
  account: {
    endpoint: getEndpoint('profile/posts'),
    name: 'New Account Post',
    what: 'An account publishes a new feed post',
  },
} as const;
export type Event = keyof typeof FEEDS;
/** The events: a feed's new posts, or "Account Changed" (change-description.ts). */
export type TriggerEvent = Event | 'change';

/** The parameter a feed is read for (`tag`, `handle`): its endpoint's one required parameter. */
export const targetOf = (endpoint: EndpointDef): ParamDef => endpoint.params.find((p) => p.required) as ParamDef;

const perPage = (e: EndpointDef): string => {
  return `${plural(estimateCost(e, {}).credits, 'credit')} per page`;
};

/** The target fields, from the registry's parameters, each shown for its event. */
const targetFields: INodeProperties[] = (Object.keys(FEEDS) as Event[]).map((event) =>
  paramField(targetOf(FEEDS[event].endpoint), { event: [event] }),
);

/** The feeds' endpoints with their docs (for the Download Media choices: both feeds answer posts). */
const feedEndpoints = documentedEndpoints.filter((e) =>
  (Object.keys(FEEDS) as Event[]).some((event) => FEEDS[event].endpoint.id === e.id),
);

export interface TriggerOptions {
  maxPages?: number;
  simplify?: boolean;
  downloadMedia?: string[] | string;
  mediaMaxSize?: number;
  mediaTimeLimit?: number;
  mediaAnyHost?: boolean;
}

/** The feeds' events, then "Account Changed" (its price per account and check from the registry). */
const eventOptions: INodePropertyOptions[] = [
  ...(Object.keys(FEEDS) as Event[]).map((event) => {
    const feed = FEEDS[event];
    return {
      name: feed.name,
      value: event,
      description: `${feed.what} (${feed.endpoint.id}, ${perPage(feed.endpoint)})`,
    };
  }),
  {
    name: 'Account Changed',
    value: 'change',
    description:
      "A watched account's number crosses a rule, e.g. followers down 5% over 7 days " +
      `(a check costs, per account: ${CHECK_PRICES})`,
  },
];

export const triggerProperties: INodeProperties[] = [
  {
    displayName: 'Trigger On',
    name: 'event',
    type: 'options',
    noDataExpression: true,
    options: eventOptions,
    default: 'hashtag',
  },
  ...targetFields,
  ...changeProperties,
  {
    displayName: 'Options',
    name: 'options',
    type: 'collection',
    placeholder: 'Add Option',
    default: {},
    displayOptions: { show: { event: Object.keys(FEEDS) } },
    options: [
      downloadMediaOption(feedEndpoints),
      {
        displayName: 'Max Pages per Poll',
        name: 'maxPages',
        type: 'number',
        typeOptions: { minValue: 1, maxValue: 100 },
        default: 5,
        description:
          'Most pages read in one poll (each page costs credits). When more new ' +
          'posts arrived, the rest is read on the next polls; none is skipped.',
      },
      ...mediaLimitOptions(),
      {
        displayName: 'Simplify',
        name: 'simplify',
        type: 'boolean',
        default: false,
        description:
          'Whether to return flat items with only the default columns ' +
          "and the author's username instead of the full post",
      },
    ],
  },
];
