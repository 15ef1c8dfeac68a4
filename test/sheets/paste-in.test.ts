/**
 * The paste-in install (docs/install-sheets.md, files made by `npm run release:sheets`), done in the
 * Apps Script stand-in exactly as the guide says: the project named as it says, each file of its
 * table pasted into the editor file it names (a Script file's code, an HTML file the add-on opens
 * by that name, the manifest), then the same smoke test as clasp's push of sheets-addon/dist.
 * Also: the zip holds the same three files.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createGasRuntime } from '../../scripts/gas-standin/runtime';
import type { ScriptFile } from '../../scripts/gas-standin/options';
import { TEST_START } from '../support/clock';
import { DEMO_KEY, DIST, PROD, PROP, ROOT, startSandbox } from './harness';
import type { SandboxProcess } from './harness';
import { SMOKE_PASSED, smoke } from './smoke';

const guide = fs.readFileSync(path.join(ROOT, 'docs', 'install-sheets.md'), 'utf8');

/** The guide's table: each editor file (name as the editor shows it), its kind, the release file pasted into it. */
function guideTable() {
  return guide
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => /^\| `[^`]+`/.test(l))
    .map((l) => {
      const [editor, kind, source] = l.split('|').slice(1, 4);
      return { editor: /`([^`]+)`/.exec(editor)![1], kind: kind.trim(), source: /`([^`]+)`/.exec(source)![1] };
    });
}
/** The project name the guide says to give (the add-on menu's caption in a bound script). */
const projectName = () => /rename the project to \*\*([^*]+)\*\*/.exec(guide)![1];

let sb: SandboxProcess;
let out: string;
beforeAll(async () => {
  out = fs.mkdtempSync(path.join(os.tmpdir(), 'igdata-release-'));
  const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'release', 'sheets.mjs'), '--out', out], {
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`release:sheets failed: ${r.stderr}`);
  sb = await startSandbox();
});
afterAll(async () => {
  await sb?.close();
  fs.rmSync(out, { recursive: true, force: true });
});

/** A runtime of `files` (scripts in load order), HTML files in `dir`, `manifest`, menu caption `name`. */
function installed(files: ScriptFile[], dir: string, manifest: object, name: string) {
  const rt = createGasRuntime({
    files,
    dir,
    manifest: manifest as never,
    addonName: name,
    enforceUrlFetchWhitelist: true,
    rewriteUrl: (u) => (u.startsWith(PROD) ? sb.url + u.slice(PROD.length) : u),
    startAt: TEST_START,
  });
  rt.properties.document.set(PROP.apiKey, DEMO_KEY);
  return rt;
}

test('the guide names three files, one of each kind, and the release holds exactly them', () => {
  const table = guideTable();
  expect(table.map((t) => t.kind)).toEqual(['Script', 'HTML', 'Manifest']);
  expect(fs.readdirSync(path.join(out, 'sheets')).sort()).toEqual(table.map((t) => t.source).sort());
  const zip = fs.readdirSync(out).find((f) => f.endsWith('.zip'))!;
  const listed = spawnSync('unzip', ['-Z1', path.join(out, zip)], { encoding: 'utf8' });
  if (listed.status === 0) expect(listed.stdout.trim().split('\n').sort()).toEqual(table.map((t) => t.source).sort());
});

test('pasted as the guide says, it passes the same smoke test as the clasp build', () => {
  const files = path.join(out, 'sheets');
  const editor = fs.mkdtempSync(path.join(os.tmpdir(), 'igdata-editor-'));
  const scripts: ScriptFile[] = [];
  let manifest: object = {};
  for (const t of guideTable()) {
    const text = fs.readFileSync(path.join(files, t.source), 'utf8');
    if (t.kind === 'Script') scripts.push({ name: t.editor, code: text });
    else if (t.kind === 'HTML') fs.writeFileSync(path.join(editor, t.editor), text);
    else manifest = JSON.parse(text);
  }
  const pasted = installed(scripts, editor, manifest, projectName());
  const pushed = installed(
    ['bundle.js', 'Code.js'].map((f) => path.join(DIST, f)),
    DIST,
    JSON.parse(fs.readFileSync(path.join(DIST, 'appsscript.json'), 'utf8')),
    'IG Data',
  );
  try {
    expect(smoke(pushed)).toEqual(SMOKE_PASSED);
    expect(smoke(pasted)).toEqual(SMOKE_PASSED);
  } finally {
    pasted.close();
    pushed.close();
    fs.rmSync(editor, { recursive: true, force: true });
  }
});
