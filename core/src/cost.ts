/** Credit cost of a planned call, from the registry's cost rules. */
import { plural } from './plural';
import type { CostRule, EndpointDef } from './registry/types';
import type { Params } from './types';

export interface CostEstimate {
  credits: number;
  /** True when the spec gives the exact price; false for our reading of a range or an unshown cost. */
  exact: boolean;
}

type WindowRule = Extract<CostRule, { type: 'window' }>;

/** What a window rule charges when its parameter (posts, sample) is `n`. */
const windowCredits = (rule: WindowRule, n: number): number => rule.base + Math.ceil(n / rule.per) * rule.perWindow;

/** The parameter a window rule counts. */
const windowParam = (endpoint: EndpointDef, rule: WindowRule) => endpoint.params.find((p) => p.name === rule.param);

/** Works on raw or normalised params: a window parameter left out costs what its default costs. */
export function estimateCost(endpoint: EndpointDef, params: Params): CostEstimate {
  const rule = endpoint.cost;
  if (rule.type === 'flat') return { credits: rule.credits, exact: rule.exact };
  const given = params[rule.param];
  const n = given === undefined || given === '' ? (windowParam(endpoint, rule)?.default ?? 1) : given;
  return { credits: windowCredits(rule, Number(n)), exact: false };
}

/** The cost range of an endpoint over its whole window, for docs ("2-6"). */
export function costRange(endpoint: EndpointDef): [number, number] {
  const rule = endpoint.cost;
  if (rule.type === 'flat') return [rule.credits, rule.credits];
  const def = windowParam(endpoint, rule);
  return [windowCredits(rule, def?.min ?? 1), windowCredits(rule, def?.max ?? 1)];
}

export function describeCost(endpoint: EndpointDef): string {
  const [lo, hi] = costRange(endpoint);
  const per = endpoint.paginated ? ' per page' : '';
  const text =
    lo === hi ? `${lo}` : `${lo}-${hi} by ${endpoint.cost.type === 'window' ? endpoint.cost.param : 'window'}`;
  return endpoint.cost.type === 'flat' && !endpoint.cost.exact ? `~${text}${per} (not documented)` : `${text}${per}`;
}

/** What the window parameter of a priced-by-window endpoint counts, for the cost sentence. */
const WINDOW_WORDS: Record<string, string> = {
  posts: 'how many posts are analyzed',
  sample: 'the follower sample size',
};

/**
 * The price as a phrase: "Cost: 1 credit.", "Cost: 2 credits per page.", "Cost: 2-6 credits, depending on how many
 * posts are analyzed."
 */
export function costSentence(e: EndpointDef): string {
  const [lo, hi] = costRange(e);
  if (hi === 0) return 'Cost: free (no credits).';
  const perPage = e.paginated ? ' per page' : '';
  if (e.cost.type === 'window') {
    return `Cost: ${lo}-${hi} credits, depending on ${WINDOW_WORDS[e.cost.param] ?? `the ${e.cost.param} parameter`}.`;
  }
  if (!e.cost.exact) return `Cost: about ${plural(lo, 'credit')}${perPage} (the API does not document this price).`;
  return `Cost: ${plural(lo, 'credit')}${perPage}.`;
}
