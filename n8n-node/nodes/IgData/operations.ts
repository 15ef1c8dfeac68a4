/**
 * The action node's resources and operations, generated from the core's endpoint registry: every
 * endpoint is an operation whose value is its path without `/v1/` (`profile/posts`), with what it
 * does, returns and costs in the words an AI agent reads. Adding an endpoint to the registry adds
 * an operation here.
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import type { DocumentedEndpoint } from '@igdata/core';
// Names, descriptions and examples are the registry's docs (core/src/registry/docs.ts), joined to its runtime facts.
import { costSentence, documentedEndpoints as endpoints } from '@igdata/core';

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

/** What an agent reads to choose an operation: what it does, what it returns, what it costs. */
export function operationDescription(e: DocumentedEndpoint): string {
  const shape =
    e.shape === 'list'
      ? e.paginated
        ? 'Returns one item per result, page by page.'
        : 'Returns one item per result.'
      : 'Returns one item.';
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
const OPERATION_NAMES = JSON.stringify(
  Object.fromEntries(endpoints.map((e) => [e.id, `${e.operation}: ${e.resource}`])),
);
export const SUBTITLE = `={{ (${OPERATION_NAMES})[$parameter["operation"]] || $parameter["operation"] }}`;

const operationOption = (e: DocumentedEndpoint): INodePropertyOptions => ({
  name: e.operation,
  value: e.id,
  action: toolAction(e),
  description: operationDescription(e),
});

/** The Resource field and, per resource, its Operation field. */
export const operationProperties: INodeProperties[] = [
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
];
