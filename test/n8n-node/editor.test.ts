/**
 * `npm start`'s n8n part (scripts/n8n-harness/start-editor.mjs) for real: n8n start on localhost with the
 * package, the sandbox credential and the examples; then, over n8n's REST API as the editor uses
 * it: sign in, the examples are there, and the credential's own test request (GET /v1/credits)
 * passes against the sandbox and fails with a wrong key, and with a Base URL that redirects (whose
 * target never hears the key). And n8n runs in the process group of the command that started it
 * (not a group of its own): a signal to `npm start`'s group, Ctrl+C or a kill of the group, reaches
 * it and its task runner.
 */
import type { ChildProcess } from 'node:child_process';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Sandbox } from '../../scripts/sandbox/server';
import { startSandbox } from '../../scripts/sandbox/server';
import { TEST_START } from '../support/clock';
import { N8N_BUILT, requireBuilt } from '../support/built';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const rt = require('../../scripts/n8n-harness/index.cjs');

jest.setTimeout(300_000);
const root = join(__dirname, '..', '..');

/** start-editor.mjs is ESM (jest's CommonJS cannot import it): run it in a child node process. */
function startEditorProcess(args: Record<string, unknown>): Promise<{ child: ChildProcess; editor: any }> {
  const script = `
    import { startN8nEditor } from ${JSON.stringify(pathToFileURL(join(root, 'scripts/n8n-harness/start-editor.mjs')).href)};
    const editor = await startN8nEditor(${JSON.stringify(args)});
    process.stdout.write('EDITOR ' + JSON.stringify(editor) + '\\n');
    process.on('SIGTERM', async () => { await editor.stop(); process.exit(0); });
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /EDITOR (.*)\n/.exec(out);
      if (m) resolve({ child, editor: JSON.parse(m[1]) });
    });
    child.on('exit', (code) => reject(new Error(`start-editor exited (${code}): ${out}`)));
  });
}

let sb: Sandbox;
let editor: { url: string; email: string; password: string; workflows: string[]; pid: number };
let child: ChildProcess | undefined;
let dir: string;
beforeAll(async () => {
  requireBuilt(...N8N_BUILT);
  sb = await startSandbox({ startAt: TEST_START, port: 0, seed: 42 });
  dir = mkdtempSync(join(tmpdir(), 'igdata-editor-'));
  ({ child, editor } = await startEditorProcess({
    sandboxUrl: sb.url,
    apiKey: sb.demoKey,
    port: await rt.freePort(),
    dir,
  }));
});
afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child!.on('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
  await sb?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// n8n ties its session to a browser id header on requests that change things, as the editor sends it.
const BROWSER = 'igdata-editor-test';

test('sign in, see the examples, and the credential test passes (and fails with a bad key, and with a Base URL that redirects, whose target hears nothing)', async () => {
  expect(editor.url).toMatch(/^http:\/\/localhost:\d+$/);
  const login = await fetch(`${editor.url}/rest/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'browser-id': BROWSER },
    body: JSON.stringify({ emailOrLdapLoginId: editor.email, password: editor.password }),
  });
  expect(login.status).toBe(200);
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
  const get = (path: string) =>
    fetch(`${editor.url}${path}`, { headers: { cookie, 'browser-id': BROWSER } }).then((r) => r.json() as Promise<any>);

  const workflows = await get('/rest/workflows');
  const names = workflows.data.map((w: { name: string }) => w.name).sort();
  expect(names).toEqual([...editor.workflows].sort());
  expect(names).toEqual([
    'IG Data: #veganrecipes images to disk',
    'IG Data: #veganrecipes to a table',
    'IG Data: engagement for a list of handles',
    'IG Data: vet a list of accounts',
    'IG Data: watch #veganrecipes, new posts to CSV and images',
    'IG Data: weekly competitor benchmark to Slack',
  ]);

  const types = await get('/types/nodes.json');
  const ours = (Array.isArray(types) ? types : (types.data ?? [])).filter((t: { name: string }) =>
    t.name.startsWith('n8n-nodes-igdata.'),
  );
  expect(ours.map((t: { name: string }) => t.name).sort()).toEqual([
    'n8n-nodes-igdata.igData',
    'n8n-nodes-igdata.igDataTool',
    'n8n-nodes-igdata.igDataTrigger',
  ]);
  // usableAsTool: n8n derived the AI-agent tool variant from the action node.
  const tool = ours.find((t: { name: string }) => t.name === 'n8n-nodes-igdata.igDataTool');
  expect(tool.description).toMatch(/profiles, posts/);

  const testCredential = async (data: Record<string, string>) => {
    sb.resetStats();
    const res = await fetch(`${editor.url}/rest/credentials/test`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, 'browser-id': BROWSER },
      body: JSON.stringify({
        credentials: { id: 'igDataSandboxCred', name: 'IG Data (sandbox)', type: 'igDataApi', data },
      }),
    });
    const body = (await res.json()) as any;
    return { result: body.data ?? body, requests: sb.stats().byEndpoint.credits ?? 0 };
  };
  const good = await testCredential({ apiKey: sb.demoKey, baseUrl: sb.url });
  expect(good.result.status).toBe('OK');
  expect(good.requests).toBe(1);
  const trailingSlash = await testCredential({ apiKey: sb.demoKey, baseUrl: `${sb.url}/` });
  expect(trailingSlash.result.status).toBe('OK');
  const bad = await testCredential({ apiKey: 'sk_wrong_1234567890', baseUrl: sb.url });
  expect(bad.result.status).toBe('Error');
  expect(bad.requests).toBeGreaterThanOrEqual(1); // the sandbox answered 401 (n8n may ask twice)

  // A Base URL answering 302 to a second server: the test fails, and that server never hears the key (issue 38).
  const heard: string[] = [];
  const elsewhere = http.createServer((req, res) => {
    heard.push(String(req.headers.authorization));
    res.end('{"data":{},"meta":{}}');
  });
  await new Promise<void>((r) => elsewhere.listen(0, '127.0.0.1', r));
  const redirector = http.createServer((req, res) => {
    res.writeHead(302, { location: `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}${req.url}` });
    res.end();
  });
  await new Promise<void>((r) => redirector.listen(0, '127.0.0.1', r));
  try {
    const redirected = await testCredential({
      apiKey: sb.demoKey,
      baseUrl: `http://127.0.0.1:${(redirector.address() as AddressInfo).port}`,
    });
    expect(heard).toEqual([]);
    expect(redirected.result.status).toBe('Error');
  } finally {
    await new Promise((r) => elsewhere.close(r));
    await new Promise((r) => redirector.close(r));
  }
});

test("n8n is in the starting command's process group, with its task runner: none in a group of its own", () => {
  const pgid = (pid: number) =>
    Number(spawnSync('ps', ['-o', 'pgid=', '-p', String(pid)], { encoding: 'utf8' }).stdout.trim());
  const group = pgid(child!.pid!);
  expect(editor.pid).toBeGreaterThan(0);
  expect(pgid(editor.pid)).toBe(group);
  // n8n's own children (the task runner) stay in it too
  const children = spawnSync('ps', ['-o', 'pid=', '--ppid', String(editor.pid)], { encoding: 'utf8' })
    .stdout.trim()
    .split('\n')
    .filter(Boolean)
    .map(Number);
  for (const c of children) expect([c, pgid(c)]).toEqual([c, group]);
});
