#!/usr/bin/env node
// The official `n8n-node lint` (@n8n/node-cli) on n8n-node/, in strict mode (package.json has
// `n8n.strict: true`, so it first checks that eslint.config.mjs is n8n's default, then runs eslint
// with n8n's config: community-node rules incl. the n8n Cloud ones, import-x, typescript-eslint).
//
// The tools live in .cache/n8n-gates (see tools.mjs), where n8n-node/eslint.config.mjs cannot
// import them, so the lint runs on a copy of n8n-node placed under .cache/n8n-gates (module
// resolution climbs to the tools) beside links to the checkout's core/, node_modules/ and
// tsconfig.json (so imports resolve exactly as in the checkout). The copy is made per run: two
// checkouts sharing .cache never lint each other's files.
//
//   node scripts/n8n-gates/lint.mjs [--fix]     --fix writes the fixes back to n8n-node/
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { isMain, parseFlags } from '../lib/cli.mjs';
import { ensureTools, GATES_DIR } from './tools.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const PACKAGE_DIR = join(root, 'n8n-node');
// What a developer's n8n-node folder holds that eslint should see (dist is build output).
const SKIP = new Set(['node_modules', 'dist', 'coverage']);

/** packageDir: n8n-node/ by default (tests point it at a planted copy). */
export function lintGate({ packageDir = PACKAGE_DIR, fix = false, log = (s) => process.stdout.write(s) } = {}) {
  const { nodeCliBin, binDir } = ensureTools();
  const work = mkdtempSync(join(GATES_DIR, 'lint-'));
  try {
    const copy = join(work, 'n8n-node');
    cpSync(packageDir, copy, {
      recursive: true,
      filter: (src) => !(dirname(src) === packageDir && SKIP.has(src.slice(packageDir.length + 1))),
    });
    for (const name of ['core', 'node_modules', 'tsconfig.json']) {
      if (existsSync(join(root, name))) symlinkSync(join(root, name), join(work, name));
    }
    const r = spawnSync(process.execPath, [nodeCliBin, 'lint', ...(fix ? ['--fix'] : [])], {
      cwd: copy,
      encoding: 'utf8',
      // `n8n-node lint` runs `npm exec -- eslint .`: the tools' eslint must be the one found.
      env: { ...process.env, PATH: `${binDir}:${process.env.PATH}`, CI: 'true', npm_config_update_notifier: 'false' },
    });
    const shown = relative(process.cwd(), packageDir) || '.';
    const text = stripVTControlCharacters(`${r.stdout}${r.stderr}`)
      .replaceAll(realpathSync(copy), shown)
      .replaceAll(copy, shown);
    log(text);
    if (fix) {
      for (const dir of ['credentials', 'nodes']) cpSync(join(copy, dir), join(packageDir, dir), { recursive: true });
    }
    return { passed: r.status === 0, status: r.status, text };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) {
  const { values } = parseFlags({
    options: { fix: { type: 'boolean' } },
    usage: 'usage: node scripts/n8n-gates/lint.mjs [--fix]',
  });
  const r = lintGate({ fix: values.fix ?? false });
  process.stdout.write(`\nn8n-node lint (strict): ${r.passed ? 'passed' : `FAILED (exit ${r.status})`}\n`);
  process.exit(r.passed ? 0 : 1);
}
