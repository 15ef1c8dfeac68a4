/**
 * What the engine needs from its platform, as interfaces. The Apps Script adapters (../gas/)
 * implement them over UrlFetchApp, CacheService, LockService and Utilities; unit tests implement
 * them in memory. Nothing in engine/ touches an Apps Script global.
 */
import type { ClientConfig, SyncIO, ZoneOffset } from '@igdata/core';
import type { AnswerStore, ClaimStore } from './types';

/** A key-value cache with Apps Script CacheService's batch calls (and its limits, in real life). */
export interface KeyValueCache {
  getAll(keys: string[]): Record<string, string>;
  putAll(values: Record<string, string>, ttlSeconds: number): void;
  removeAll?(keys: string[]): void;
}

/** A document-wide lock taken briefly: returns its release, or null when not obtained. */
export type TryLock = (waitMs: number) => (() => void) | null;

/** How the service is reached: the client configuration and the synchronous I/O. */
export interface SheetsClient {
  config: ClientConfig;
  io: SyncIO & { stats: { requests: number; batches: number } };
}

/** Everything the engine needs: the client, the answer store and the clock. */
export interface EngineDeps {
  client: SheetsClient;
  store: AnswerStore;
  now: () => number;
  /** Other executions of the document (cells recalculating at once) coordinate through claims; null: off. */
  claims?: ClaimStore | null;
  /** The sheet's time zone, for the day an answer served again was first looked up; UTC without it. */
  zoneOffset?: ZoneOffset;
}
