'use strict';
// n8n user folders ("homes"): a migrated database copied from a per-version template, our
// community package installed where n8n loads it from, credentials imported.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { DEFAULT_ENCRYPTION_KEY, ensureN8n, newId, runtime, unwrapHome } = require('./env.cjs');
const { n8nFailed, runN8n } = require('./cli.cjs');

/**
 * A migrated, empty n8n database, made once per install and copied into each new home:
 * the first command on an empty folder spends seconds on its migrations.
 */
async function templateDir(encryptionKey) {
  const rt = runtime();
  const key = Buffer.from(encryptionKey).toString('hex').slice(0, 16);
  const dir = path.join(rt.dir, `template-home-${rt.version}-${key}`);
  if (fs.existsSync(path.join(dir, '.n8n', 'database.sqlite'))) return dir;
  await ensureN8n();
  const tmp = fs.mkdtempSync(path.join(rt.dir, 'template-tmp-'));
  const r = await runN8n(tmp, ['list:workflow'], { env: { N8N_ENCRYPTION_KEY: encryptionKey } });
  if (r.code !== 0) throw n8nFailed('database migration (list:workflow)', r);
  try {
    fs.renameSync(tmp, dir); // atomic: a parallel worker that lost the race keeps the winner's copy
  } catch {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return dir;
}

/**
 * Makes an n8n user folder with our community package installed and credentials imported.
 *  - packageDir: a folder with the package.json of an n8n community package (its `n8n.nodes`
 *    and `n8n.credentials` are loaded). Copied by default into
 *    <home>/.n8n/nodes/node_modules/<name>, where n8n loads community packages from at
 *    start, so node types are "<package name>.<node name>" exactly as for a user. A symlink
 *    (link: true) works too, but then `require('n8n-workflow')` in the package resolves from
 *    the monorepo's node_modules first: a second copy of n8n-workflow inside n8n.
 *  - credentials: [{ id, name, type, data }] with plain `data`; `n8n import:credentials`
 *    encrypts it with the home's key.
 *  - dir: a fixed folder (e.g. for `npm start`) instead of a fresh temp one; its database is kept.
 *  - env: extra environment for every n8n process of this home (e.g. queue mode's database).
 *  - fresh: start from an empty folder instead of the SQLite template (a Postgres-backed home).
 * Returns { home, env }: pass either that object or `home` to the other helpers.
 */
async function createN8nHome({
  packageDir,
  credentials = [],
  dir,
  link = false,
  encryptionKey = DEFAULT_ENCRYPTION_KEY,
  env = {},
  fresh = false,
} = {}) {
  const home = dir ? path.resolve(dir) : fs.mkdtempSync(path.join(os.tmpdir(), 'igdata-n8n-'));
  const dotN8n = path.join(home, '.n8n');
  if (!fresh && !fs.existsSync(path.join(dotN8n, 'database.sqlite'))) {
    fs.cpSync(path.join(await templateDir(encryptionKey), '.n8n'), dotN8n, { recursive: true });
  }
  if (packageDir) {
    const pkg = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
    const dest = path.join(dotN8n, 'nodes', 'node_modules', pkg.name);
    fs.rmSync(dest, { recursive: true, force: true });
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    if (link) fs.symlinkSync(path.resolve(packageDir), dest, 'dir');
    else {
      const top = path.resolve(packageDir);
      const skip = new Set(['node_modules', '.git', 'coverage']); // top-level only
      fs.cpSync(top, dest, {
        recursive: true,
        dereference: true,
        filter: (src) => path.dirname(src) !== top || !skip.has(path.basename(src)),
      });
    }
  }
  const h = { home, env: { N8N_ENCRYPTION_KEY: encryptionKey, ...env } };
  if (credentials.length) await importCredentials(h, credentials);
  return h;
}

/** Imports credentials given as plain objects; data is encrypted by n8n on import. */
async function importCredentials(home, credentials) {
  const h = unwrapHome(home);
  const list = credentials.map((c) => ({
    id: c.id ?? newId('cred'),
    name: c.name ?? c.type,
    type: c.type,
    data: c.data ?? {},
  }));
  const file = path.join(h.home, `credentials-${process.pid}-${Date.now()}.json`);
  fs.writeFileSync(file, JSON.stringify(list));
  const r = await runN8n(h, ['import:credentials', `--input=${file}`]);
  fs.rmSync(file, { force: true });
  if (r.code !== 0 || !/Successfully imported/.test(r.stdout)) throw n8nFailed('import:credentials', r);
  return list.map((c) => c.id);
}

/** Deletes a temp home. */
function removeN8nHome(home) {
  fs.rmSync(unwrapHome(home).home, { recursive: true, force: true });
}

module.exports = { createN8nHome, importCredentials, removeN8nHome };
