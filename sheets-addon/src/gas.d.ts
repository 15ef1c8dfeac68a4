/** The few Apps Script globals the add-on uses, typed loosely (the runtime provides them). */
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const UrlFetchApp: {
  fetch(url: string, params?: Record<string, unknown>): GasHttpResponse;
  fetchAll(requests: Record<string, unknown>[]): GasHttpResponse[];
};
interface GasHttpResponse {
  getResponseCode(): number;
  getContentText(): string;
  getHeaders(): Record<string, string>;
}
interface GasCache {
  get(key: string): string | null;
  getAll(keys: string[]): Record<string, string>;
  put(key: string, value: string, ttl?: number): void;
  putAll(values: Record<string, string>, ttl?: number): void;
  remove(key: string): void;
  removeAll(keys: string[]): void;
}
declare const CacheService: { getDocumentCache(): GasCache | null; getScriptCache(): GasCache };
interface GasProperties {
  getProperty(key: string): string | null;
  setProperty(key: string, value: string): GasProperties;
  deleteProperty(key: string): GasProperties;
  getProperties(): Record<string, string>;
  setProperties(props: Record<string, string>, deleteAllOthers?: boolean): GasProperties;
}
declare const PropertiesService: { getDocumentProperties(): GasProperties | null; getScriptProperties(): GasProperties; getUserProperties(): GasProperties };
declare const Utilities: {
  sleep(ms: number): void;
  computeDigest(alg: unknown, value: string, charset?: unknown): number[];
  base64EncodeWebSafe(bytes: number[]): string;
  base64Encode(bytes: number[]): string;
  getUuid(): string;
  DigestAlgorithm: { SHA_256: unknown };
  Charset: { UTF_8: unknown };
};
declare const LockService: { getDocumentLock(): GasLock | null; getScriptLock(): GasLock };
interface GasLock {
  tryLock(ms: number): boolean;
  waitLock(ms: number): void;
  releaseLock(): void;
}
declare const Session: { getActiveUser(): { getEmail(): string }; getEffectiveUser(): { getEmail(): string } };
declare const SpreadsheetApp: any;
declare const HtmlService: any;
