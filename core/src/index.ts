/** @igdata/core: the API once. No I/O of its own; see effects.ts for how runtimes plug in. */
export * from './errors';
export * from './registry/types';
export { endpoints, findEndpoint, getEndpoint, pathOf } from './registry/endpoints';
export * from './resolve';
export * from './request';
export * from './effects';
export * from './response';
export * from './call';
export * from './paginate';
export * from './budget';
export * from './cost';
export * from './flatten';
export * from './messages';
export { closest } from './suggest';
export { buildOpenApi } from './openapi';
export { fetchIO } from './io/fetch-io';
export { createClient } from './io/client';
export type { Client } from './io/client';
