/**
 * The positional arguments of each custom function, derived from the registry. The generated
 * entry file (codegen.ts) and the engine that reads the arguments (args.ts) both use this, so the
 * JSDoc a user sees and the way the arguments are read can never disagree.
 *
 * Order: the target (handle / post / tag / id / q), then the endpoint's other parameters in the
 * order of the spec (no cursor: paging is the `limit` option), then `fields`, then the options
 * `header`, `limit` (list functions only) and `refresh`.
 */
import type { EndpointDef, ParamDef } from '@igdata/core';

type ArgRole = 'target' | 'param' | 'fields' | 'header' | 'limit' | 'refresh';

export interface ArgSpec {
  /** The JavaScript parameter name in the generated stub (the API's name for API parameters). */
  name: string;
  role: ArgRole;
  /** The API parameter, for `target` and `param`. */
  param?: ParamDef;
}

/** Largest `limit` a list function accepts: every page costs credits, so it is bounded. */
export const MAX_LIMIT = 500;
/** The argument that names what the call is about, or undefined (credits). */
export function targetParam(endpoint: EndpointDef): ParamDef | undefined {
  const first = endpoint.params[0];
  return first && first.required && first.kind !== 'cursor' && first.kind !== 'integer' ? first : undefined;
}

export function argLayout(endpoint: EndpointDef): ArgSpec[] {
  const target = targetParam(endpoint);
  const out: ArgSpec[] = [];
  if (target) out.push({ name: target.name, role: 'target', param: target });
  for (const p of endpoint.params) {
    if (p === target || p.kind === 'cursor') continue;
    out.push({ name: p.name, role: 'param', param: p });
  }
  const options = ['fields', 'header', ...(endpoint.shape === 'list' ? ['limit' as const] : []), 'refresh'] as const;
  for (const name of options) out.push({ name, role: name });
  return out;
}

/**
 * Whether a header row is added when the `header` argument is left blank: always for lists; for a
 * single target with more than one field (seven bare numbers say nothing); never for a range of
 * targets, whose rows must stay aligned with the input rows, nor for one field (a bare value).
 */
export function defaultHeader(endpoint: EndpointDef, rangeInput: boolean, width: number): boolean {
  return endpoint.shape === 'list' || (!rangeInput && width > 1);
}

/** The default in words, for the generated JSDoc. */
export const defaultHeaderText = (endpoint: EndpointDef): string =>
  endpoint.shape === 'list'
    ? 'TRUE'
    : 'TRUE for one target with several fields; FALSE for a range, whose rows stay aligned with it, or one field';
