/**
 * The fields of the registry's parameters, each named as the API's query parameter (`handle`,
 * `posts`, `tag`...), and the paging fields of lists (Return All, Limit). Parameters declared
 * identically are one field shown for several operations.
 */
import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';
import type { ParamDef } from '@igdata/core';
// Names, descriptions and examples are the registry's docs (core/src/registry/docs.ts), joined to its runtime facts.
import { documentedEndpoints as endpoints, documentedParam } from '@igdata/core';

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

const listIds = endpoints.filter((e) => e.shape === 'list').map((e) => e.id);
const pagedIds = endpoints.filter((e) => e.shape === 'list' && e.paginated).map((e) => e.id);

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
];
