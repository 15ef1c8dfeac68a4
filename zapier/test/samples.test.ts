/** zapier/samples.json is the sandbox's answers today: `node scripts/zapier-samples.mjs` rewrites it. */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ROOT, requireBuilt } from '../../test/support/built';

test("every endpoint's sample is its example's answer in the sandbox", () => {
  requireBuilt('dist/sandbox-lib.mjs', 'dist/core.mjs');
  const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'zapier-samples.mjs'), '--check'], {
    encoding: 'utf8',
  });
  expect(r.stdout.trim()).toBe('zapier/samples.json is up to date');
  expect(r.status).toBe(0);
});
