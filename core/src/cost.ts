/** Credit cost of a planned call, from the registry's cost rules. */
import type { CostRule, EndpointDef } from './registry/types';
import type { Params } from './types';

export interface CostEstimate {
  credits: number;
  /** True when the spec gives the exact price; false for our reading of a range or an unshown cost. */
  exact: boolean;
}

function costOf(rule: CostRule, params: Params): CostEstimate {
  if (rule.type === 'flat') return { credits: rule.credits, exact: rule.exact };
  const n = Number(params[rule.param]);
  return { credits: rule.base + Math.ceil(n / rule.per) * rule.step, exact: false };
}

/** Works on raw or normalised params: a window parameter left out costs what its default costs. */
export function estimateCost(endpoint: EndpointDef, params: Params): CostEstimate {
  const rule = endpoint.cost;
  if (rule.type === 'window' && (params[rule.param] === undefined || params[rule.param] === '')) {
    const dflt = endpoint.params.find((p) => p.name === rule.param)?.default;
    return costOf(rule, { ...params, [rule.param]: dflt ?? 1 });
  }
  return costOf(rule, params);
}

/** The cost range of an endpoint over its whole window, for docs ("2-6"). */
export function costRange(endpoint: EndpointDef): [number, number] {
  const rule = endpoint.cost;
  if (rule.type === 'flat') return [rule.credits, rule.credits];
  const def = endpoint.params.find((p) => p.name === rule.param);
  const lo = costOf(rule, { [rule.param]: def?.min ?? 1 }).credits;
  const hi = costOf(rule, { [rule.param]: def?.max ?? 1 }).credits;
  return [lo, hi];
}

export function describeCost(endpoint: EndpointDef): string {
  const [lo, hi] = costRange(endpoint);
  const per = endpoint.paginated ? ' per page' : '';
  const text = lo === hi ? `${lo}` : `${lo}-${hi} by ${endpoint.cost.type === 'window' ? endpoint.cost.param : 'window'}`;
  return endpoint.cost.type === 'flat' && !endpoint.cost.exact ? `~${text}${per} (not documented)` : `${text}${per}`;
}
