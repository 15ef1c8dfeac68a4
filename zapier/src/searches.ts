/**
 * Every endpoint of the registry that reads data as a Zapier search, generated: its fields are the
 * endpoint's parameters (labels and help text from the registry's docs, the price in the help),
 * input is resolved as everywhere (`@nasa`, profile and post URLs, numeric ids: core's `prepare`),
 * the sample is the endpoint's answer in the sandbox (samples.json) and the output fields are
 * labelled from its response schema, with the spreadsheet-safe twins (outputs.ts). Adding an
 * endpoint to the registry adds a search here; one whose answer the service's AI makes for the
 * request (the registry's `makes`) is a create instead (creates.ts).
 *
 * Zapier's style (README, "Zapier's published limits and rules"): a search is labelled "Find ..."
 * and its description starts "Finds ...".
 *
 * A target with no public data (private, deleted or nonexistent) is Zapier's "nothing found" ([]),
 * so the Zap's own setting decides what follows; the service bills that lookup all the same, and
 * the search's help text says so. A list returns up to Limit items, reading pages while more are
 * wanted: its help text says what a page costs.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import type { Call, DocumentedEndpoint } from '@igdata/core';
import { costRange, costSentence, documentedEndpoints, plural, requestKey } from '@igdata/core';
import { lookUp, readList } from './client';
import { callOf, paramField, wholeNumberOf } from './fields';
import { keptOf } from './kept';
import { outputFieldsOf, withTwins } from './outputs';
import { sampleOf } from './samples';

/** `insights/profile/best-time` -> `insights_profile_best_time`: a Zapier key. */
export const keyOf = (id: string): string => id.replace(/[^a-zA-Z0-9]+/g, '_');

/** The price and what a list reads, for the help texts. */
const LIMIT_DEFAULT = 20;

/** What a lookup of a private or missing target costs: billed at its price (spec §7). */
function missingNote(e: DocumentedEndpoint): string {
  const [lo, hi] = costRange(e);
  if (hi === 0) return '';
  const price = lo === hi ? plural(lo, 'credit') : `${lo}-${hi} credits`;
  return (
    ` A private, deleted or nonexistent target returns nothing found, and the API still charges it (${price}): ` +
    'it did the work.'
  );
}

/** Labels the registry's names would not give in Zapier's style ("Find" and what is found). */
const LABELS: Record<string, string> = {
  'profile/about': 'Find Profile Age and Country',
  'insights/profile/audit': 'Find Fake-Follower Audit',
  'insights/profile/similar': 'Find Similar Profiles',
  'insights/hashtag': 'Find Hashtag Insights',
  credits: 'Find Credit Balance',
};
/** Whose data a resource's operations find, in a label ("Find Profile Engagement", "Find Users"). */
const OWNERS: Record<string, string> = { 'Profile Insight': 'Profile', Search: '' };

/** "Find Profile", "Find Profile Engagement", "Find Hashtag Recent Posts", "Find Users". */
export function searchLabel(e: DocumentedEndpoint): string {
  if (LABELS[e.id]) return LABELS[e.id];
  const what = e.operation.replace(/^(Get|Analyze)\b ?/, '');
  return ['Find', OWNERS[e.resource] ?? e.resource, what].filter(Boolean).join(' ');
}

/** The registry's summary as Zapier's search description: "Finds the public profile of an account." */
export function searchDescription(e: DocumentedEndpoint): string {
  const summary = e.summary.replace(/\.$/, '');
  // "AI summary" keeps its capitals; "Public profile" and "A single post" do not.
  const lower = (t: string) => (/^[A-Z][^A-Z]/.test(t) ? t[0].toLowerCase() + t.slice(1) : t);
  if (/^Search /.test(summary)) return `Finds ${summary.slice('Search '.length)}.`;
  if (/^(A|An) /.test(summary)) return `Finds ${lower(summary)}.`;
  return `Finds the ${lower(summary)}.`;
}

function limitField(e: DocumentedEndpoint) {
  const perPage = e.pageSize ? plural(e.pageSize, 'item') : 'a few dozen items';
  const pages = e.paginated
    ? ` Pages are read until Limit is reached (about ${perPage} a page); ` +
      `${costSentence(e)
        .replace(/^Cost: /, 'each costs ')
        .replace(/ per page\.$/, '.')}`
    : ' One request returns them all.';
  return {
    key: 'limit',
    label: 'Limit',
    helpText: `The most results to return.${pages}`,
    required: false,
    type: 'integer' as const,
    default: String(LIMIT_DEFAULT),
  };
}

const limitOf = (bundle: Bundle) => wholeNumberOf(bundle, 'limit', LIMIT_DEFAULT);

/**
 * How long a Zap reuses a search's answer (seconds): an hour, or less when the data lives less
 * (the registry's maxReuseHours; the balance never). Zapier replays a step (Replay, autoreplay
 * after an error, a held run let through) with the same input: within this it is not paid again.
 */
const reuseSeconds = (e: DocumentedEndpoint): number => Math.min(3600, (e.maxReuseHours ?? 1) * 3600);

function perform(e: DocumentedEndpoint) {
  return async (z: ZObject, bundle: Bundle): Promise<Record<string, unknown>[]> => {
    const call = callOf(z, e, bundle);
    const ttl = reuseSeconds(e);
    if (ttl === 0) return await answer(e, z, bundle, call);
    // The connection's (kept.ts: its key and base URL hashed, never the key), the Zap's where given.
    const store = keptOf(z, bundle);
    const limit = e.shape === 'list' ? limitOf(bundle) : '';
    const name = `answer:${requestKey(call.endpoint, call.params)}:${limit}`;
    const kept = await store.get<{ items: Record<string, unknown>[] }>(name);
    if (kept && Array.isArray(kept.items)) return kept.items;
    const items = await answer(e, z, bundle, call);
    await store.set(name, { items }, ttl); // not kept (too large): the next replay pays
    return items;
  };
}

async function answer(
  e: DocumentedEndpoint,
  z: ZObject,
  bundle: Bundle,
  call: Call,
): Promise<Record<string, unknown>[]> {
  if (e.shape === 'list' && e.paginated) {
    return (await readList(z, bundle, call, { maxItems: limitOf(bundle) }, true))?.items ?? [];
  }
  const got = await lookUp(z, bundle, call, true);
  if (!got) return [];
  return e.shape === 'list' ? got.items.slice(0, limitOf(bundle)) : [got.data];
}

function search(e: DocumentedEndpoint) {
  const fields = e.params.filter((p) => p.kind !== 'cursor').map(paramField);
  if (e.shape === 'list') fields.push(limitField(e));
  const sample = sampleOf(e);
  return {
    key: keyOf(e.id),
    noun: e.resource,
    display: {
      label: searchLabel(e),
      description: `${searchDescription(e)} ${costSentence(e)}${missingNote(e)}`.slice(0, 1000),
    },
    operation: {
      inputFields: fields,
      perform: withTwins(e, perform(e)),
      sample,
      outputFields: outputFieldsOf(e, sample),
    },
  };
}

export const searches = Object.fromEntries(
  documentedEndpoints.filter((e) => !e.makes).map((e) => [keyOf(e.id), search(e)]),
);
