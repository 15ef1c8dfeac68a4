// `npm start` as a user runs it (n8n left out here: test/n8n-node/editor.test.ts covers the editor,
// and that its n8n stays in the group of the command that started it): the sandbox comes up, prints
// its URL, demo key, example requests and an MCP client config that work, then one next step per
// surface (the preview's as soon as it is up, then Zapier's), and Ctrl+C stops it all; SIGTERM
// leaves no process it started behind.
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { TEST_START } from './support/clock';

/** `npm start -- --no-n8n` on free ports, resolved with what it printed once it says Ctrl+C. */
async function start(): Promise<{ child: ChildProcessWithoutNullStreams; output: () => string }> {
  const child = spawn(process.execPath, [join(__dirname, '..', 'scripts', 'start.mjs'), '--no-n8n'], {
    env: { ...process.env, PORT: '0', SHEETS_PREVIEW_PORT: '0', IGDATA_CLOCK_START: TEST_START },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', () => out.includes('Ctrl+C') && resolve());
    child.on('exit', (code) => reject(new Error(`exited ${code}:\n${out}`)));
  });
  return { child, output: () => out };
}

/** The processes below `pid`, at any depth (ps: pid and parent pid of every process). */
function descendants(pid: number): number[] {
  const rows = spawnSync('ps', ['-A', '-o', 'pid=,ppid='], { encoding: 'utf8' })
    .stdout.trim()
    .split('\n')
    .map((l) => l.trim().split(/\s+/).map(Number));
  const out: number[] = [];
  for (let queue = [pid]; queue.length;) {
    const parent = queue.shift();
    const kids = rows.filter(([, ppid]) => ppid === parent).map(([p]) => p);
    out.push(...kids);
    queue.push(...kids);
  }
  return out;
}
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

it('starts the sandbox, prints working examples and the next steps, stops on SIGINT', async () => {
  const { child, output } = await start();
  const out = output();
  try {
    const url = /API base URL\s+(\S+)/.exec(out)?.[1];
    const key = /Demo API key\s+(\S+)/.exec(out)?.[1];
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(key).toBeTruthy();
    // The printed curl examples, run as printed (through fetch).
    const examples = [...out.matchAll(/curl -s -H "([^:]+): ([^"]+)" "([^"]+)"/g)];
    expect(examples.length).toBeGreaterThanOrEqual(4);
    for (const [, name, value, target] of examples) {
      const res = await fetch(target, { headers: { [name]: value } });
      expect([target, res.status]).toEqual([target, 200]);
      expect(await res.json()).toHaveProperty('meta.request_id');
    }
    // The same tips as `npm run sandbox`: the stats page, the test accounts, a 50-credit key.
    for (const tip of ['/_sandbox/stats', '/_sandbox/fixtures']) {
      const target = new RegExp(`(http://\\S+${tip})`).exec(out)?.[1];
      expect([tip, target && (await fetch(target)).status]).toEqual([tip, 200]);
    }
    const keyCmd = /curl -s -X POST "([^"]+\/_sandbox\/keys\?balance=50)"/.exec(out)?.[1];
    expect(keyCmd).toBeTruthy();
    const fresh = await (await fetch(keyCmd as string, { method: 'POST' })).json();
    expect(fresh).toEqual({ key: expect.any(String), balance: 50 });
    // The MCP address and the one-line client config, used as printed by the MCP SDK's own client.
    expect(/MCP server\s+(\S+)/.exec(out)?.[1]).toBe(`${url}/mcp`);
    const config = JSON.parse(/MCP config\s+(\{.*\})\s*$/m.exec(out)?.[1] ?? 'null');
    const server = config.mcpServers['igdata-sandbox'];
    const mcp = new Client({ name: 'start-test', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: server.headers } }),
    );
    try {
      const answer = await mcp.callTool({ name: 'profile', arguments: { handle: 'nasa' } });
      expect(answer.structuredContent).toMatchObject({ data: { username: 'nasa' }, meta: { credits_charged: 1 } });
    } finally {
      await mcp.close();
    }
    // The Sheets preview: the built add-on in the stand-in, served next to the sandbox.
    const preview = /Sheets preview (\S+)/.exec(out)?.[1];
    expect(preview).toMatch(/^http:\/\/127\.0\.0\.1:\d+/);
    const page = await fetch(preview as string);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('not Google Sheets');
    // The next steps: one line per surface, the preview's first (it is up), each saying what to do.
    const steps = out.slice(out.indexOf('Next steps'));
    const previewLine = steps.split('\n').find((l) => l.startsWith('Sheets preview'));
    expect(previewLine).toContain('type =IGPROFILE(A2:A8,"followers") in B2');
    const zapierLine = steps.split('\n').find((l) => l.startsWith('Zapier'));
    // what it downloads, as measured (bench/records/setup.json)
    expect(zapierLine).toMatch(/npm run try:zapier .*downloads Zapier's CLI and Node 24 into \.cache\/, [\d,]+ MB\)/);
    expect(steps.indexOf(previewLine!)).toBeLessThan(steps.indexOf(zapierLine!));
  } finally {
    child.kill('SIGINT');
  }
  const code = await new Promise((r) => child.on('exit', r));
  expect(code).toBe(0);
});

it('SIGTERM stops every process it started', async () => {
  const { child } = await start();
  const started = descendants(child.pid!);
  expect(started.length).toBeGreaterThanOrEqual(1); // the Sheets preview's server
  child.kill('SIGTERM');
  expect(await new Promise((r) => child.on('exit', r))).toBe(0);
  expect(started.filter(alive)).toEqual([]);
});

it('stops everything when its parent is gone (npm, killed, does not pass SIGTERM on through its shell)', async () => {
  // As `npm start` runs it: a shell that stays its parent, here killed as npm's would be.
  const shell = spawn('sh', ['-c', `"${process.execPath}" scripts/start.mjs --no-n8n; true`], {
    cwd: join(__dirname, '..'),
    env: { ...process.env, PORT: '0', SHEETS_PREVIEW_PORT: '0', IGDATA_CLOCK_START: TEST_START },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  shell.stdout.on('data', (d) => (out += d));
  shell.stderr.on('data', (d) => (out += d));
  await new Promise<void>((resolve, reject) => {
    shell.stdout.on('data', () => out.includes('Ctrl+C') && resolve());
    shell.on('exit', (code) => reject(new Error(`exited ${code}:\n${out}`)));
  });
  shell.removeAllListeners('exit');
  const started = descendants(shell.pid!);
  expect(started.length).toBeGreaterThanOrEqual(2); // start.mjs and the preview's server
  shell.kill('SIGKILL');
  while (started.some(alive)) await new Promise((r) => setTimeout(r, 200));
  expect(started.filter(alive)).toEqual([]);
});
