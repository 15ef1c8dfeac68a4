/**
 * The Sheets type check reads @igdata/core from source, and core's fetchIO (for Node scripts and
 * tests, never bundled into the add-on) names four platform globals Apps Script does not have.
 * They are declared here, loosely, only so that core type-checks; scripts/build/sheets.mjs fails
 * the build if the add-on's bundle calls any of them.
 */
declare function fetch(
  url: string,
  init?: unknown,
): Promise<{ status: number; headers: { forEach(fn: (v: string, k: string) => void): void }; text(): Promise<string> }>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
declare function setTimeout(fn: (...args: any[]) => void, ms?: number): unknown;
declare function clearTimeout(id: unknown): void;
declare class AbortController {
  readonly signal: unknown;
  abort(reason?: unknown): void;
}
