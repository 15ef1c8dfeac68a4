#!/usr/bin/env node
// Writes zapier/samples.json: each registry endpoint's answer in the sandbox (seed 42, at the
// tests' start instant), the sample output Zapier shows for its search or trigger. A single
// answer's data, or a list's first item; and the "New Account Change" trigger's crossing.
// test/zapier/samples.test.ts fails when the file is stale.
//
//   npm run build && node scripts/zapier-samples.mjs            rewrite it
//   node scripts/zapier-samples.mjs --check                        exit 1 when it is stale
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isMain, parseFlags } from './lib/cli.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const SAMPLES_FILE = join(root, 'zapier', 'samples.json');
/** test/support/clock.ts TEST_START: the samples' world is the tests' world. */
const START = '2026-11-25T10:00:00Z';
/** Media links name the sandbox's own address; in the samples, the one `npm run sandbox` listens on. */
const SANDBOX_URL = 'http://localhost:4010';

export async function sandboxSamples() {
  const lib = join(root, 'dist', 'sandbox-lib.mjs');
  if (!existsSync(lib)) throw new Error('dist/sandbox-lib.mjs is missing: run `npm run build` first');
  const { startSandbox } = await import(pathToFileURL(lib).href);
  const core = await import(pathToFileURL(join(root, 'dist', 'core.mjs')).href);
  const sb = await startSandbox({ startAt: START, seed: 42 });
  try {
    const client = core.createClient({ apiKey: sb.demoKey, baseUrl: sb.url, retry: { attempts: 1 } });
    const samples = {};
    for (const e of core.documentedEndpoints) {
      const input = {};
      for (const p of e.params.filter((p) => p.required)) {
        if (p.example === undefined)
          throw new Error(`${e.id}: parameter ${p.name} has no example in the registry's docs`);
        input[p.name] = p.example;
      }
      const answer = await client.call(e.id, input);
      const sample = e.shape === 'list' ? answer.items[0] : answer.data;
      if (!sample) throw new Error(`${e.id}: the sandbox's answer to its example is empty`);
      samples[e.id] = JSON.parse(JSON.stringify(sample).replaceAll(sb.url, SANDBOX_URL));
    }
    samples.account_change = await changeSample(core, sb);
    return samples;
  } finally {
    await sb.close();
  }
}

/**
 * The "New Account Change" trigger's sample: the crossing core's change rule finds for the profile
 * example's account between two checks an hour apart, with a 10 % fall of its followers placed
 * between them by the sandbox's step control.
 */
async function changeSample(core, sb) {
  const handle = core.documentedEndpoints
    .find((e) => e.id === 'profile')
    .params.find((p) => p.name === 'handle').example;
  const rule = { measure: 'followers', comparison: 'down', threshold: 5, baseline: 'previous' };
  const followers = async () => {
    const res = await fetch(`${sb.url}/v1/profile?handle=${encodeURIComponent(handle)}`, {
      headers: { 'x-api-key': sb.demoKey },
    });
    const body = await res.json();
    if (!res.ok)
      throw new Error(`account_change: the profile of ${handle} answered ${res.status}: ${JSON.stringify(body)}`);
    return core.measureOf('followers', body.data);
  };
  const start = Date.parse(START);
  const first = core.checkRule(rule, undefined, start, { [handle]: await followers() });
  sb.step({ handle, measure: 'followers', change: -0.1, at: start + 1_800_000 });
  sb.clock.moveTo(start + 3_600_000);
  const { crossings } = core.checkRule(rule, first.state, start + 3_600_000, { [handle]: await followers() });
  if (crossings.length !== 1) throw new Error(`account_change: expected one crossing, got ${crossings.length}`);
  return crossings[0];
}

export const samplesText = (samples) => JSON.stringify(samples, null, 2) + '\n';

if (isMain(import.meta.url)) {
  const { values } = parseFlags({
    options: { check: { type: 'boolean' } },
    usage: 'usage: node scripts/zapier-samples.mjs [--check]',
  });
  const fresh = samplesText(await sandboxSamples());
  if (values.check) {
    const same = existsSync(SAMPLES_FILE) && readFileSync(SAMPLES_FILE, 'utf8') === fresh;
    console.log(
      same ? 'zapier/samples.json is up to date' : 'zapier/samples.json is stale: run node scripts/zapier-samples.mjs',
    );
    process.exit(same ? 0 : 1);
  }
  writeFileSync(SAMPLES_FILE, fresh);
  console.log(`wrote ${SAMPLES_FILE}`);
}
