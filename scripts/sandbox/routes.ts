/**
 * The sandbox's routes: one per endpoint of core's registry, each served by its handler. The
 * routes are derived from the registry, so a registry endpoint without a handler stops the
 * sandbox from starting.
 */
import type { EndpointDef, Params } from '@igdata/core';
import { endpoints } from '@igdata/core';

/** What a handler is given: its endpoint and the request's normalised parameters. */
export interface Ctx {
  endpoint: EndpointDef;
  params: Params;
}

export type Handler = (ctx: Ctx) => unknown;

export interface Route {
  endpoint: EndpointDef;
  handler: Handler;
}

/** `/v1/<id>` for every registry endpoint; throws if one has no handler. */
export function routesFor(handlers: Record<string, Handler>): Map<string, Route> {
  const routes = new Map<string, Route>();
  for (const e of endpoints) {
    const handler = handlers[e.id];
    if (!handler) throw new Error(`The sandbox has no handler for registry endpoint "${e.id}"`);
    routes.set(`/v1/${e.id}`, { endpoint: e, handler });
  }
  return routes;
}
