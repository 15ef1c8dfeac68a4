/**
 * The built add-on in the concurrent Apps Script stand-in (scripts/gas-standin/concurrent): several
 * executions at once sharing one document cache and lock, against the sandbox over real HTTP. The
 * accounts and their true values come from the sandbox's world (same seed as the child process).
 */
import path from 'node:path';
import { createConcurrentRuntime, ConcurrentRuntime, ExecSpec } from '../../scripts/gas-standin/concurrent/pool';
import { getWorld } from '../../scripts/sandbox/world/build';
import { DIST, PROD, PROP } from './harness';
import { TEST_START } from '../support/clock';

/**
 * `IGDATA_TEST_CLAIMS=off npx jest ...` runs the suites against the add-on with claims switched off
 * (today's behaviour before issue 8), to see them fail.
 */
export function concurrentAddon(
  sandboxUrl: string,
  key: string,
  threads: number,
  props: Record<string, string> = {},
): Promise<ConcurrentRuntime> {
  if (process.env.IGDATA_TEST_CLAIMS === 'off') props = { IGDATA_CLAIMS: 'off', ...props };
  return createConcurrentRuntime({
    threads,
    files: [path.join(DIST, 'bundle.js'), path.join(DIST, 'Code.js')],
    dir: DIST,
    addonName: 'IG Data',
    enforceUrlFetchWhitelist: true,
    rewrite: { from: PROD, to: sandboxUrl },
    documentProperties: { [PROP.apiKey]: key, ...props },
    startAt: TEST_START,
  });
}

export interface Account {
  username: string;
  followers: number;
  following: number;
  biography: string;
}

/** The first `n` public accounts of the sandbox's world. */
export function publicAccounts(n: number): Account[] {
  const all = getWorld(42).accounts.filter((a) => !a.is_private) as unknown as Account[];
  if (all.length < n) throw new Error(`the sandbox has ${all.length} public accounts, not ${n}`);
  return all.slice(0, n);
}

/** The ways people type the same account: plain, @UPPER, profile URL. */
export function spellings(handle: string): string[] {
  return [handle, `@${handle.toUpperCase()}`, `https://www.instagram.com/${handle}/`];
}

/** Side-by-side range formulas: one execution per field over the same column. */
export const sideBySide = (column: string[], fields: string[]): ExecSpec[] =>
  fields.map((f) => ({ fn: 'IGPROFILE', args: [column.map((h) => [h]), f] }));

/** Filled-down single-cell formulas (column B, C, ... beside A2:A), in recalculation order: column by column or row by row. */
export function filledDown(column: string[], fields: string[], order: 'columns' | 'rows'): ExecSpec[] {
  const cell = (r: number, c: number): ExecSpec => ({
    fn: 'IGPROFILE',
    args: [column[r], fields[c]],
    cell: `Sheet1!${String.fromCharCode(66 + c)}${r + 2}`,
  });
  const rows = column.map((_, r) => r);
  const cols = fields.map((_, c) => c);
  return order === 'columns'
    ? cols.flatMap((c) => rows.map((r) => cell(r, c)))
    : rows.flatMap((r) => cols.map((c) => cell(r, c)));
}
