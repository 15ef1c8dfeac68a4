/**
 * The sandbox's routes: one per endpoint of core's registry, each served by its handler. The
 * routes are derived from the registry, so a registry endpoint without a handler stops the
 * sandbox from starting.
 */
import type { EndpointDef, Params } from '@igdata/core';
import { ERROR_DOCS_PATH, endpoints } from '@igdata/core';
import { endpointsPage, errorsPage } from './docs-pages';

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

/**
 * The reference pages (docs-pages.ts) by path: where the `error.docs` links of the sandbox's
 * answers point, so that every one of them resolves. Built once, on first ask.
 */
export function docsRoutes(): Map<string, () => string> {
  const built = new Map<string, string>();
  const once = (path: string, make: () => string) => () =>
    built.get(path) ?? (built.set(path, make()), built.get(path)!);
  return new Map([
    [ERROR_DOCS_PATH, once(ERROR_DOCS_PATH, errorsPage)],
    ['/docs/endpoints', once('/docs/endpoints', endpointsPage)],
  ]);
}
