/**
 * Core's inner workings its own tests check directly (retry and backoff arithmetic, the page
 * rule's steps, the error table's derivations, the docs table), imported here by path: they are
 * not part of @igdata/core's public entry (core/src/index.ts), which offers what products use.
 */
export { DEFAULT_RETRY } from '../../src/request';
export { backoffMs, retryAfterMs } from '../../src/call';
export { planPaging, withCursor } from '../../src/page-rule';
export { RETRYABLE_STATUSES, codeForStatus } from '../../src/error-codes';
export { ERROR_DOCS, SPEC_ERROR_CODES } from '../../src/error-docs';
export { endpointDocs } from '../../src/registry/docs';
export { REMEMBER_MS } from '../../src/pace';
