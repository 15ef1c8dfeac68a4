/**
 * Each endpoint's sample output: its answer in the sandbox (seed 42, at the tests' start instant),
 * written to ../samples.json by `node scripts/zapier-samples.mjs`; test/zapier/samples.test.ts
 * fails when the file and the sandbox disagree.
 */
import samples from '../samples.json';

const all = samples as Record<string, Record<string, unknown>>;

export const sampleOf = (endpointId: string): Record<string, unknown> => all[endpointId] ?? { id: 'sample' };
