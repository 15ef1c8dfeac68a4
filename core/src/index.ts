/**
 * @igdata/core: the API once, and the one list of what it offers. Products and tools import from
 * here only (`@igdata/core`), never from a file under core/src. No I/O of its own: operations are
 * generators that yield effects (effects.ts), run by driveSync or driveAsync.
 *
 * In core's comments, §N is a section of the service's specification, ../shared/spec/service-api.md
 * (read with ../shared/spec/NOTES.md).
 */

// The plain types: calls, requests, effects, answers, error codes (the bottom layer).
export type {
  ApiResult,
  AsyncIO,
  AuthStyle,
  Call,
  ClientConfig,
  Effect,
  EnvelopeMeta,
  HttpRequest,
  KnownErrorCode,
  Op,
  Params,
  RawResponse,
  RetryPolicy,
  SyncIO,
} from './types';

// The endpoint registry: runtime facts, and apart from them the documentation (which the Sheets
// bundle, importing only the first, leaves out).
export { endpoints, findEndpoint, getEndpoint, pathOf } from './registry/endpoints';
export { documented, documentedEndpoints, documentedParam } from './registry/docs';
export type {
  DocumentedEndpoint,
  DocumentedParam,
  EndpointDef,
  EndpointDoc,
  Field,
  ParamDef,
  Shape,
} from './registry/types';
export { DASHBOARD_URL, DEFAULT_BASE_URL } from './constants';

// Input: resolving what users type, validating a call, building its request.
export { expectedFor, isBlank, resolveParam } from './resolve';
export { baseUrlOf, normalizeParams, requestKey } from './request';
export { baseUrlRefusal, docsUrl, isLoopbackHost, originOfUrl } from './base-url';
export { closest } from './suggest';

// Effects and their two drivers.
export { noHttpAnswer, driveAsync, driveSync } from './effects';

// Calls, with retries.
export { prepare, request, send, sendAll } from './call';

// Paging: the one next-page rule, one page, one list, many lists.
export type {
  Item,
  PageLike,
  PagePlan,
  PageDecision,
  PagingCap,
  PagingProgress,
  PagingResult,
  StopReason,
} from './page-rule';
export { NOTHING_READ, afterPage, capBefore, describeStop, withCursor } from './page-rule';
export type { PageAnswer } from './paginate';
export { PageWalk, fetchPage, paginate, paginateMany } from './paginate';

// Monitoring a feed: newest first to the posts read last, in bounded readings with a gap to resume.
export type { FeedAnswer, FeedGap, FeedOptions, FeedReading, FeedState, FeedWant } from './feed';
export { feedOp, readFeed } from './feed';
export type { FeedBoundary } from './feed-boundary';
export { newestPosts } from './feed-boundary';

// Watching numbers: a rule of a change or a value, its crossings, its state between checks.
export type { AccountState, ChangeRule, Comparison, Crossing, Measure, RuleState } from './change-rule';
export {
  MEASURES,
  checkCost,
  checkRule,
  checkRuleShape,
  crossingsOf,
  describeRule,
  measureOf,
  parseRule,
} from './change-rule';
export { crossingItem, watchCalls } from './change-watch';

// Credits.
export type { CostEstimate } from './cost';
export { costRange, costSentence, describeCost, estimateCost } from './cost';
export type { Allowance, CreditBudget, LedgerTally } from './budget';
export { CreditLedger, emptyTally } from './budget';

// Errors: the family, the table of the service's codes, the sentences users read.
export type { AnyIgError, ApiErrorCode } from './errors';
export {
  IgApiError,
  IgConnectionError,
  IgCreditCapError,
  IgQuotaError,
  IgSchemaError,
  IgValidationError,
  errorCode,
  isCreditCapError,
  isIgError,
  isQuotaError,
  isValidationError,
  servedAgain,
  showValue,
} from './errors';
export type { ErrorCodeFacts } from './error-codes';
export { ERROR_CODES, errorFacts, stopsBulkRun } from './error-codes';
export { ERROR_DOCS_PATH, ERROR_REFERENCE, docsLink } from './error-docs';
export type { MessageContext } from './messages';
export { docsNote, docsOf, userMessage } from './messages';
/** The end of every error sentence: what its request cost (a vet's note sums what several cost). */
export type { FirstCharge, ZoneOffset } from './words';
export { chargedNote, chargesNote } from './words';
/** Counts in sentences: "1 credit", "2 credits", "1,500 rows" (the sidebar's bundle takes plural.ts alone). */
export { counted, joinName, noun, plural, thousands } from './plural';
// A run of many calls as a whole (an n8n execution): refused before it starts, or stopped part-way.
export type { EarlierRuns, RunError, RunTally, WorkEstimate } from './run-errors';
export {
  RunRefusedError,
  RunStoppedError,
  isRunError,
  isRunRefusedError,
  isRunStoppedError,
  runErrorMessage,
  runStopSentence,
} from './run-errors';

// Tables and documents.
export type { Cell, FlatRow } from './flatten';
export { flatten, pick, plainField, toRows } from './flatten';
export { fieldPaths, mediaFieldPaths } from './shape';
// Text from strangers as a spreadsheet keeps it as text: the rule and the twins of the registry's `stranger` fields.
export {
  TWIN_SUFFIX,
  safeTwinOf,
  spreadsheetSafe,
  strangerTextPaths,
  withSafeTwins,
  withTwinColumns,
} from './stranger-text';
export { buildOpenApi } from './openapi';

// A promise-based client over fetch, for Node scripts, tests and benchmarks.
export { fetchIO } from './io/fetch-io';
export { createClient } from './io/client';
export type { Client } from './io/client';

// The pace of requests in flight, found while a run goes (no I/O: the n8n engine reports to it).
export { FIRST_WAVE, Pace } from './pace';
