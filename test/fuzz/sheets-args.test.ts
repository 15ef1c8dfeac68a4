/**
 * Property-based fuzzing of every custom function's arguments (issue 8), in the Apps Script
 * stand-in with the built add-on against the sandbox: strings, unicode, URLs of other sites, huge
 * values, numbers, booleans, dates, ragged ranges, extra arguments. Whatever comes in: no uncaught
 * error (only our own messages reach the cell), no request for rejected input, every message names
 * the argument it is about, and the API key appears nowhere.
 */
import fc from 'fast-check';
import { endpoints } from '@igdata/core';
import { argLayout } from '../../sheets-addon/src/engine/layout';
import type { GasRuntime } from '../../scripts/gas-standin/runtime';
import { GasScriptError } from '../../scripts/gas-standin/runtime';
import { addonRuntime, startSandbox, SandboxProcess } from '../sheets/harness';
import { argument } from './arbitraries';

export const SHEETS_CASES = 7000;
const PER_FUNCTION = Math.ceil(SHEETS_CASES / endpoints.length);
let sb: SandboxProcess;
let rt: GasRuntime;
let key: string;
const seen = { cases: 0, rejected: 0, answered: 0, requests: 0 };

beforeAll(async () => {
  sb = await startSandbox();
  key = await sb.createKey(100_000_000);
  rt = addonRuntime(sb.url, { key, freshContextPerCall: false });
});
afterAll(async () => {
  console.log(
    `sheets fuzz: ${seen.cases} cases, ${seen.rejected} rejected before any request, ${seen.answered} answered, ${seen.requests} requests`,
  );
  await rt?.close();
  await sb?.close();
});

/** Our messages start with what they are about; these are the ones about no single argument. */
const NOT_ABOUT_AN_ARGUMENT =
  /^(@\S+ has no public data|No items\.|Not reached in time|The data provider|Too many requests)/;

describe.each(endpoints.map((e) => [e.fn, e] as const))('%s', (fn, endpoint) => {
  const names = argLayout(endpoint).map((a) => a.name);
  const namesArgument = (m: string) =>
    m.startsWith('arguments ') || names.some((n) => m.startsWith(`${n} `) || m.startsWith(`${n}:`));

  test(`${PER_FUNCTION} random argument lists`, () => {
    let cases = 0;
    fc.assert(
      fc.property(fc.array(argument(), { minLength: 0, maxLength: names.length + 2 }), (args) => {
        cases++;
        seen.cases++;
        const before = rt.stats.requests;
        let value: unknown;
        try {
          value = rt.run(fn, args, { kind: 'custom' });
        } catch (e) {
          if (!(e instanceof GasScriptError)) throw e;
          // An uncaught error would be a TypeError, RangeError, an Apps Script service exception...
          expect([e.gasName, e.timedOut]).toEqual(['Error', false]);
          expect(namesArgument(e.message) || NOT_ABOUT_AN_ARGUMENT.test(e.message)).toBe(true);
          expect(e.message).not.toContain(key);
          if (namesArgument(e.message)) expect(rt.stats.requests - before).toBe(0); // rejected: nothing sent
          seen.rejected++;
          return;
        }
        seen.answered++;
        seen.requests += rt.stats.requests - before;
        const cells = (Array.isArray(value) ? (value as unknown[][]).flat() : [value]).map(String);
        for (const c of cells) expect(c).not.toContain(key);
        // A range where every row was rejected (or blank) sends nothing.
        const targetName = names[0];
        const rejected = cells.filter((c) => c.startsWith(`${targetName} `));
        if (
          rejected.length &&
          cells.every((c) => c === '' || c.startsWith(`${targetName} `) || c === targetName || names.includes(c))
        ) {
          expect(rt.stats.requests - before).toBe(0);
        }
      }),
      { numRuns: PER_FUNCTION, seed: 8, endOnFailure: true },
    );
    expect(cases).toBe(PER_FUNCTION);
    expect(rt.findSecret(key)).toEqual([]);
  });
});
