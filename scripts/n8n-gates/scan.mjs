#!/usr/bin/env node
// n8n's scanner (`@n8n/scan-community-package`, the check n8n runs before verifying a community
// package) on what we ship: the tarball `npm pack` makes of n8n-node after the build, unpacked,
// and the source folder. Offline: `analyzePackage` lints a local folder with n8n's scan rules.
// A gate passes with 0 findings: analyzePackage's verdict (errors) and no warnings either.
//
//   node scripts/n8n-gates/scan.mjs [dir ...]   default: the packed tarball and n8n-node/
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMain, parseFlags } from '../lib/cli.mjs';
import { ensureTools, GATES_DIR, importScanner, importScannerEslint } from './tools.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const PACKAGE_DIR = join(root, 'n8n-node');
const PATTERNS = ['**/*.js', '**/*.ts', '**/*.json'];

function sh(cmd, args, cwd) {
  const r = spawnSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed in ${cwd}:\n${r.stdout}${r.stderr}`);
  return r.stdout;
}

/** `npm pack` of n8n-node (what `npm publish` would upload), unpacked into a temp folder. */
export function packAndUnpack(packageDir = PACKAGE_DIR) {
  // Installing the tools first also creates GATES_DIR: on a clean checkout .cache/ is empty.
  ensureTools();
  const work = mkdtempSync(join(GATES_DIR, 'pack-'));
  sh('npm', ['pack', '--silent', '--ignore-scripts', `--pack-destination=${work}`], packageDir);
  const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack wrote no tarball into ${work}`);
  const dir = join(work, 'package');
  sh('tar', ['-xzf', tarball], work);
  return { dir, tarball: join(work, tarball), cleanup: () => rmSync(work, { recursive: true, force: true }) };
}

/** Scans one folder: { passed, errors, warnings, text } (text lists every finding). */
export async function scanDir(dir) {
  const { analyzePackage, buildScanConfig } = await importScanner();
  const verdict = await analyzePackage(dir, PATTERNS);
  // analyzePackage reports errors only; the same config through ESLint also counts warnings.
  const { ESLint } = await importScannerEslint();
  const eslint = new ESLint({
    cwd: dir,
    errorOnUnmatchedPattern: false,
    allowInlineConfig: false,
    overrideConfigFile: true,
    overrideConfig: await buildScanConfig(),
  });
  const results = await eslint.lintFiles(PATTERNS);
  const errors = results.reduce((n, r) => n + r.errorCount, 0);
  const warnings = results.reduce((n, r) => n + r.warningCount, 0);
  const text = verdict.details ?? (warnings ? await (await eslint.loadFormatter('stylish')).format(results) : '');
  return { passed: verdict.passed === true && warnings === 0, errors, warnings, message: verdict.message, text };
}

/** The scan gate: the packed tarball and the source. Returns one result per target. */
export async function scanGate({ packageDir = PACKAGE_DIR, log = (s) => process.stdout.write(`${s}\n`) } = {}) {
  const packed = packAndUnpack(packageDir);
  try {
    const out = [];
    for (const [label, dir] of [
      ['packed tarball', packed.dir],
      [`source ${relative(root, packageDir)}/`, packageDir],
    ]) {
      const r = await scanDir(dir);
      if (r.text) log(r.text.replaceAll(realpathSync(dir), relative(process.cwd(), packageDir) || '.'));
      log(
        `n8n scanner, ${label}: ${r.passed ? 'passed' : 'FAILED'} (${r.errors} errors, ${r.warnings} warnings)${r.message ? ` ${r.message}` : ''}`,
      );
      out.push({ label, ...r });
    }
    return out;
  } finally {
    packed.cleanup();
  }
}

if (isMain(import.meta.url)) {
  const { positionals: dirs } = parseFlags({
    allowPositionals: true,
    usage: 'usage: node scripts/n8n-gates/scan.mjs [dir ...]   default: the packed tarball and n8n-node/',
  });
  let ok = true;
  if (dirs.length) {
    for (const d of dirs) {
      const r = await scanDir(resolve(d));
      if (r.text) console.log(r.text);
      console.log(`n8n scanner, ${d}: ${r.passed ? 'passed' : 'FAILED'} (${r.errors} errors, ${r.warnings} warnings)`);
      ok &&= r.passed;
    }
  } else ok = (await scanGate()).every((r) => r.passed);
  process.exit(ok ? 0 : 1);
}
