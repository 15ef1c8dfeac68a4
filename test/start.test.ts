// `npm start` as a user runs it (n8n left out here: test/n8n-node/editor.test.ts covers the editor):
// the sandbox comes up, prints its URL, demo key, example requests and an MCP client config that
// work, the Sheets preview answers, and Ctrl+C stops it all.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { TEST_START } from './support/clock';

it('starts the sandbox, prints working examples, stops on SIGINT', async () => {
  const child = spawn(process.execPath, [join(__dirname, '..', 'scripts', 'start.mjs'), '--no-n8n'], {
    env: { ...process.env, PORT: '0', SHEETS_PREVIEW_PORT: '0', IGDATA_CLOCK_START: TEST_START },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  try {
    await new Promise<void>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no banner in 20 s:\n${out}`)), 20000);
      child.stdout.on('data', () => out.includes('Ctrl+C') && (clearTimeout(t), resolve()));
      child.on('exit', (code) => reject(new Error(`exited ${code}:\n${out}`)));
    });
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
  } finally {
    child.kill('SIGINT');
  }
  const code = await new Promise((r) => child.on('exit', r));
  expect(code).toBe(0);
});
