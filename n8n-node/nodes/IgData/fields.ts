/**
 * The fields of the registry's parameters, each named as the API's query parameter (`handle`,
 * `posts`, `tag`...), and the paging fields of lists (Return All, Limit). Parameters declared
 * identically are one field shown for several operations.
 */
import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';
import type { EndpointDef, ParamDef } from '@igdata/core';
// Names, descriptions and examples are the registry's docs (core/src/registry/docs.ts), joined to its runtime facts.
import { documentedEndpoints as endpoints, documentedParam, estimateCost, plural } from '@igdata/core';

const displayName = (p: ParamDef): string =>
  ({
    handle: 'Handle',
    post: 'Post',
    tag: 'Tag',
    id: 'Location ID',
    q: 'Query',
    posts: 'Posts',
    timezone: 'Timezone',
    sample: 'Sample',
    criteria: 'Criteria',
    topic: 'Topic',
    context: 'Context',
  })[p.name] ?? p.name.replace(/(^|_)(\w)/g, (_m, _s, c: string) => ` ${c.toUpperCase()}`).trim();

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

/**
 * The parameters an AI agent's model defines when the node is its tool: the target (a required
 * parameter) and a window whose size sets the price (posts, sample). Optional text stays the
 * builder's: every key of a tool's schema is one the model must send (n8n-core's getSchema).
 */
const modelDefines = (e: EndpointDef, p: ParamDef): boolean =>
  p.required || (e.cost.type === 'window' && e.cost.param === p.name);

/** What a window parameter costs, in the words of the registry's price rule (core's estimateCost). */
function windowCost(e: EndpointDef, p: ParamDef): string {
  if (e.cost.type !== 'window' || e.cost.param !== p.name) return '';
  const at = (n: number) => estimateCost(e, { [p.name]: n }).credits;
  const lo = p.min ?? 1;
  const hi = p.max ?? lo;
  const def = Number(p.default ?? lo);
  return ` Cost: ${plural(at(lo), 'credit')} at ${lo}, ${at(def)} at ${def} (the default), ${at(hi)} at ${hi}.`;
}

/**
 * What the model reads about a parameter it defines. It reaches the model only as the description
 * of a `$fromAI()` in the parameter's value: n8n builds a tool's schema from those calls alone
 * (n8n-core's createNodeAsTool -> getSchema), never from a field's `description`.
 */
export function toolParamDescription(e: EndpointDef, p: ParamDef): string {
  const doc = documentedParam(p);
  const example = PLACEHOLDERS[p.kind] ?? (doc.example !== undefined ? `e.g. ${doc.example}` : undefined);
  const text = `${doc.description.replace(/\.$/, '')}${example ? ` (${example})` : ''}.${windowCost(e, p)}`;
  return text.replace(/[`\\]/g, '');
}

/**
 * The field as the tool variant (`igDataTool`) has it: the same name, shown only there (`@tool`),
 * its default a `$fromAI()` with the description above, so the model is told what to pass without
 * the builder clicking "let the model define this" and typing a description.
 */
function toolField(e: EndpointDef, p: ParamDef, ops: string[]): INodeProperties {
  const field = paramField(p, { operation: ops, '@tool': [true] });
  const type = p.kind === 'integer' ? 'number' : 'string';
  field.default = `={{ $fromAI('${p.name}', \`${toolParamDescription(e, p)}\`, '${type}') }}`;
  return field;
}

/**
 * Parameters that are declared identically are one field shown for several operations; those a
 * model defines have a second field for the tool variant (one per price rule: its cost differs).
 */
function paramProperties(): INodeProperties[] {
  const groups = new Map<string, { def: ParamDef; ops: string[] }>();
  const toolGroups = new Map<string, { e: EndpointDef; def: ParamDef; ops: string[] }>();
  for (const e of endpoints) {
    for (const p of e.params) {
      if (p.kind === 'cursor') continue; // paging is the node's job (Return All / Limit)
      const key = JSON.stringify([p.name, p.kind, p.required, p.default, p.min, p.max, p.description]);
      const g = groups.get(key) ?? { def: p, ops: [] };
      g.ops.push(e.id);
      groups.set(key, g);
      if (!modelDefines(e, p)) continue;
      const toolKey = JSON.stringify([key, windowCost(e, p)]);
      const t = toolGroups.get(toolKey) ?? { e, def: p, ops: [] };
      t.ops.push(e.id);
      toolGroups.set(toolKey, t);
    }
  }
  const toolOps = new Set([...toolGroups.values()].flatMap((t) => t.ops.map((op) => `${t.def.name} ${op}`)));
  const plain = [...groups.values()].flatMap((g) => {
    // Where the tool variant has its own field, this one is hidden there (two fields of one name
    // must never show together).
    const mine = g.ops.filter((op) => !toolOps.has(`${g.def.name} ${op}`));
    const theirs = g.ops.filter((op) => toolOps.has(`${g.def.name} ${op}`));
    const fields: INodeProperties[] = [];
    if (theirs.length) {
      const f = paramField(g.def, { operation: theirs });
      f.displayOptions = { ...f.displayOptions, hide: { '@tool': [true] } };
      fields.push(f);
    }
    if (mine.length) fields.push(paramField(g.def, { operation: mine }));
    return fields;
  });
  return [...plain, ...[...toolGroups.values()].map((t) => toolField(t.e, t.def, t.ops))];
}

const listIds = endpoints.filter((e) => e.shape === 'list').map((e) => e.id);
const pagedIds = endpoints.filter((e) => e.shape === 'list' && e.paginated).map((e) => e.id);

/**
 * Limit of a paged list as the tool variant has it: the model chooses how many results, told what
 * each page costs (one field per price and page size). Return All stays the builder's choice.
 */
function toolLimitFields(): INodeProperties[] {
  const groups = new Map<string, { text: string; ops: string[] }>();
  for (const e of endpoints.filter((x) => x.shape === 'list' && x.paginated)) {
    const perPage = estimateCost(e, {}).credits;
    const text =
      `How many results to return, at least 1. Results come in pages of about ${e.pageSize}; ` +
      `each page costs ${plural(perPage, 'credit')}.`;
    const g = groups.get(text) ?? { text, ops: [] };
    g.ops.push(e.id);
    groups.set(text, g);
  }
  return [...groups.values()].map((g) => {
    const field: INodeProperties = {
      displayName: 'Limit',
      name: 'limit',
      type: 'number',
      displayOptions: { show: { operation: g.ops, returnAll: [false], '@tool': [true] } },
      typeOptions: { minValue: 1 },
      default: 50,
      description: 'Max number of results to return',
    };
    // The model's, in the tool variant (the community lint reads the literal above).
    field.default = `={{ $fromAI('limit', \`${g.text}\`, 'number') }}`;
    return field;
  });
}

/** Every parameter's field, then Return All and Limit for lists. */
export const fieldProperties: INodeProperties[] = [
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
    displayOptions: { show: { operation: pagedIds, returnAll: [false] }, hide: { '@tool': [true] } },
    typeOptions: { minValue: 1 },
    default: 50,
    description: 'Max number of results to return',
  },
  ...toolLimitFields(),
  {
    displayName: 'Limit',
    name: 'limit',
    type: 'number',
    displayOptions: { show: { operation: listIds.filter((id) => !pagedIds.includes(id)) } },
    typeOptions: { minValue: 1 },
    default: 50,
    description: 'Max number of results to return',
  },
];
