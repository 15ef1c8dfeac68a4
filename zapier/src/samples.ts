/**
 * Each endpoint's sample output: its answer in the sandbox (seed 42, at the tests' start instant),
 * written to ../samples.json by `node scripts/zapier-samples.mjs` (test/zapier/samples.test.ts
 * fails when the file and the sandbox disagree), with the twins the step adds (outputs.ts): the
 * sample is one item exactly as the step returns it.
 */
import type { DocumentedEndpoint } from '@igdata/core';
import samples from '../samples.json';
import type { Crossing } from '@igdata/core';
import { itemOf } from './change';
import { twinned } from './outputs';

const all = samples as Record<string, Record<string, unknown>>;

export const sampleOf = (e: DocumentedEndpoint): Record<string, unknown> => twinned(e, all[e.id] ?? { id: 'sample' });

/** The "New Account Change" sample: a crossing core found in the sandbox (a followers step between two checks). */
export const changeSample = (): Record<string, unknown> => itemOf(all.account_change as unknown as Crossing);
