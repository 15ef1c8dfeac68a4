/**
 * The error table's documentation, apart from its runtime facts (error-codes.ts): where each code
 * comes from (the OpenAPI document lists the spec's), whether it is billed, its `error.docs` link
 * (what the service sends, and the sandbox with it) and its summary (the OpenAPI document's error
 * responses). Nothing at run time reads it: the Sheets bundle leaves it out.
 */
import { ERROR_CODES, type ErrorCodeFacts } from './error-codes';
import type { KnownErrorCode } from './types';

interface ErrorCodeDoc {
  /**
   * `spec`: listed in ../shared/spec/service-api.md §7. `observed`: seen from a service matching
   * the spec (../shared/spec/NOTES.md). `client`: our name for an HTTP status the spec does not
   * describe, so that it has facts and a sentence too.
   */
  source: 'spec' | 'observed' | 'client';
  /** Whether the service bills the failed request (at the endpoint's cost). */
  billed: boolean;
  /** The relative `error.docs` link the service sends. */
  docs: string;
  /** What it means, for the OpenAPI document. */
  summary: string;
}

export const ERROR_DOCS: Readonly<Record<KnownErrorCode, ErrorCodeDoc>> = {
  missing_parameter: {
    source: 'spec',
    billed: false,
    docs: '/docs/errors#missing_parameter',
    summary: 'A required parameter is absent or invalid (the message names it). Not billed.',
  },
  invalid_api_key: {
    source: 'spec',
    billed: false,
    docs: '/docs/errors#invalid_api_key',
    summary: 'Missing, malformed or revoked key. Not billed.',
  },
  missing_api_key: {
    source: 'observed',
    billed: false,
    docs: '/docs/errors#invalid_api_key',
    summary: 'No key was sent. Not billed.',
  },
  insufficient_credits: {
    source: 'spec',
    billed: false,
    docs: '/docs/errors#insufficient_credits',
    summary: 'The balance does not cover the request. Not billed.',
  },
  not_found: {
    source: 'spec',
    billed: true,
    docs: '/docs/errors#not_found',
    summary: "No public data (private, deleted or nonexistent target). Billed at the endpoint's cost.",
  },
  rate_limited: {
    source: 'client',
    billed: false,
    docs: '/docs/errors#rate_limited',
    summary: 'Too many requests; retried after the time the service asks for.',
  },
  upstream_error: {
    source: 'spec',
    billed: false,
    docs: '/docs/errors#upstream_error',
    summary: 'Data provider error; safe to retry. Not billed.',
  },
  service_unavailable: {
    source: 'client',
    billed: false,
    docs: '/docs/errors#service_unavailable',
    summary: 'The service is temporarily unavailable; retried. Not billed.',
  },
  upstream_timeout: {
    source: 'spec',
    billed: false,
    docs: '/docs/errors#upstream_timeout',
    summary: 'Upstream took too long; safe to retry. Not billed.',
  },
};

const codes = Object.keys(ERROR_CODES) as KnownErrorCode[];

/** The codes the service's own OpenAPI document lists (the spec's table, §7), with their status and summary. */
export const SPEC_ERROR_CODES = codes
  .filter((code) => ERROR_DOCS[code].source === 'spec')
  .map((code) => ({ code, status: ERROR_CODES[code].status, summary: ERROR_DOCS[code].summary }));

/**
 * The error reference, a row per code (the sandbox's /docs/errors page, an anchor each): what the
 * table says of it, here and in error-codes.ts, so the page cannot disagree with what clients do.
 */
export const ERROR_REFERENCE = codes.map((code) => ({
  code,
  status: ERROR_CODES[code].status,
  summary: ERROR_DOCS[code].summary,
  source: ERROR_DOCS[code].source,
  billed: ERROR_DOCS[code].billed,
  retried: (ERROR_CODES[code] as ErrorCodeFacts).retryable === true,
  stopsBulk: (ERROR_CODES[code] as ErrorCodeFacts).stopsBulk === true,
  docs: ERROR_DOCS[code].docs,
}));

/** The page every `error.docs` link points into (its anchors are the codes). */
export const ERROR_DOCS_PATH = '/docs/errors';

/** The `error.docs` link of a code. */
export const docsLink = (code: string): string =>
  Object.prototype.hasOwnProperty.call(ERROR_DOCS, code) ? ERROR_DOCS[code as KnownErrorCode].docs : ERROR_DOCS_PATH;
