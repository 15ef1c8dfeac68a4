/** Valid test inputs for every registry endpoint against the default world (seed 42). */
import type { EndpointDef, ParamDef } from '@igdata/core';
import type { World } from '../../scripts/sandbox/world/records';

export function validValue(def: ParamDef, world: World, endpoint: EndpointDef): string | undefined {
  switch (def.kind) {
    case 'handle':
      return 'nasa';
    case 'post':
      return (world.byUsername.get('nasa') as NonNullable<ReturnType<typeof world.byUsername.get>>).posts[0].shortcode;
    case 'tag':
      return 'veganrecipes';
    case 'location':
      return '213385402';
    case 'text':
      if (def.name === 'q')
        return endpoint.id === 'search/users' ? 'nasa' : endpoint.id === 'search/locations' ? 'park' : 'vegan';
      return def.required ? 'space science educators in the United States' : undefined;
    default:
      return undefined; // integers take their defaults; no cursor on the first page
  }
}

/** The input of a first, valid call of an endpoint. */
export function validInput(endpoint: EndpointDef, world: World): Record<string, string> {
  const out: Record<string, string> = {};
  for (const def of endpoint.params) {
    const v = validValue(def, world, endpoint);
    if (v !== undefined) out[def.name] = v;
  }
  return out;
}
