#!/usr/bin/env node
// `npm run try:zapier`: the Zapier integration on the sandbox with Zapier's own CLI, offline and
// without a key or a Zapier account: `zapier invoke` runs the connection test, a search and the
// hashtag trigger against a sandbox started here, in a temp copy of zapier/dist whose .env holds
// the sandbox's demo key. Needs `npm run build` (the script runs it first). Ends with what to do
// next: push the integration to one's own Zapier account.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { installZapierCli } from './install.mjs';

const HOURS_BACK = 6;
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dist = join(root, 'zapier', 'dist');
if (!existsSync(join(dist, 'index.js')) || !existsSync(join(root, 'dist', 'sandbox-lib.mjs'))) {
  console.error('zapier/dist or dist/sandbox-lib.mjs is missing: run `npm run build` first');
  process.exit(1);
}
/** What to do next, as zapier/README.md says it ("Push it to your own Zapier account"). */
const NEXT = `
Next: put the integration in your own Zapier account (private to you and those you invite) with
Zapier's CLI (\`npm install -g zapier-platform-cli\`, Node 22 or newer):
  npm run build && cd zapier/dist
  zapier login                # your Zapier account, once
  zapier register "IG Data"   # once: creates the integration, writes its id into .zapierapprc
  zapier push                 # uploads this version; then build a Zap with it at zapier.com
Details: zapier/README.md, "Push it to your own Zapier account".`;
const cli = installZapierCli();
const { startSandbox } = await import(pathToFileURL(join(root, 'dist', 'sandbox-lib.mjs')).href);
// The sandbox starts six hours ago and its world is moved to now: the hashtag's newest posts, the
// trigger's "new" ones, are then from the last hours, as a live hashtag's are (a sandbox whose clock
// never moved shows its seeded world, dated around 2025-06-01). "Now" is the real time, or the
// instant IGDATA_CLOCK_START names (a test's).
const now = process.env.IGDATA_CLOCK_START ? Date.parse(process.env.IGDATA_CLOCK_START) : Date.now();
const sb = await startSandbox({ seed: 42, startAt: now - HOURS_BACK * 3600_000 });
await fetch(`${sb.url}/_sandbox/clock?to=${new Date(now).toISOString()}`, { method: 'POST' });
const work = mkdtempSync(join(os.tmpdir(), 'igdata-zapier-try-'));
try {
  for (const f of ['index.js', 'package.json', '.zapierapprc']) cpSync(join(dist, f), join(work, f));
  mkdirSync(join(work, 'node_modules'));
  symlinkSync(join(root, 'node_modules', 'zapier-platform-core'), join(work, 'node_modules', 'zapier-platform-core'));
  // zapier invoke reads the connection's fields from .env as authData_<key>.
  writeFileSync(join(work, '.env'), `authData_apiKey=${sb.demoKey}\nauthData_baseUrl=${sb.url}\n`);
  const steps = [
    ['auth', 'test'],
    ['search', 'profile', '--inputData', JSON.stringify({ handle: '@nasa' })],
    [
      'search',
      'insights_profile_engagement',
      '--inputData',
      JSON.stringify({ handle: 'https://www.instagram.com/nasa/' }),
    ],
    [
      'trigger',
      'new_post_in_hashtag',
      '--inputData',
      JSON.stringify({ tag: '#veganrecipes' }),
      '--isLoadingSample',
      '--limit',
      '2',
    ],
  ];
  console.log(`Sandbox ${sb.url} (demo key ${sb.demoKey}); Zapier CLI in ${work}\n`);
  for (const args of steps) {
    console.log(`$ zapier invoke ${args.join(' ')}`);
    // Not spawnSync: the sandbox answers from this process.
    const child = spawn(cli.nodeBin, [cli.bin, 'invoke', ...args, '--non-interactive'], {
      cwd: work,
      stdio: 'inherit',
      env: { ...process.env, PATH: cli.pathEnv, HOME: work },
    });
    const status = await new Promise((resolve) => child.on('close', resolve));
    if (status !== 0) throw new Error(`zapier invoke ${args[0]} failed (exit ${status})`);
  }
  console.log(`\nCredits spent on the sandbox: ${1_000_000 - sb.balance(sb.demoKey)} (the demo key holds 1,000,000)`);
  console.log(NEXT);
} finally {
  await sb.close();
  rmSync(work, { recursive: true, force: true });
}
