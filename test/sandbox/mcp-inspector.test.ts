/**
 * The sandbox's /mcp through the MCP Inspector's CLI mode (`mcp-inspector --cli <url> --transport
 * http --method ...`), the MCP project's own debugging client, as a user would run it.
 *
 * The package is @modelcontextprotocol/inspector-cli 1.0.3: the CLI that
 * `npx @modelcontextprotocol/inspector --cli` runs. The Inspector package itself adds a web UI
 * (React), and its current major (2.x) needs Node 22.19 or newer; this project runs on Node 20.
 * v1 prints a deprecation notice on stderr (stdout stays JSON).
 */
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { endpoints } from '@igdata/core';
import { startSandbox, type Sandbox } from '../../scripts/sandbox/server';
import { TEST_START } from '../support/clock';

const PACKAGE = dirname(require.resolve('@modelcontextprotocol/inspector-cli/package.json'));

/**
 * Runs the CLI in a child process (asynchronously: the sandbox answers from this thread). Its
 * working directory is the package's build/ folder because v1 looks for its own package.json with
 * a path relative to the working directory (`../package.json`), not to its module.
 */
function inspector(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(PACKAGE, 'build', 'cli.js'), '--cli', ...args],
      { cwd: join(PACKAGE, 'build'), timeout: 30_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ startAt: TEST_START, seed: 42 });
});
afterAll(() => sb.close());

const connect = (key: string) => [sb.mcpUrl, '--transport', 'http', '--header', `Authorization: Bearer ${key}`];

test('tools/list lists one tool per registry endpoint', async () => {
  const out = await inspector([...connect(sb.demoKey), '--method', 'tools/list']);
  expect(out.code).toBe(0);
  const { tools } = JSON.parse(out.stdout) as { tools: { name: string; inputSchema: { required?: string[] } }[] };
  expect(tools.map((t) => t.name).sort()).toEqual(endpoints.map((e) => e.id.replace(/\//g, '_')).sort());
  expect(tools.find((t) => t.name === 'profile_posts')!.inputSchema.required).toEqual(['handle']);
}, 60_000);

test('tools/call answers the envelope and bills the key; a failure carries its code', async () => {
  const key = sb.createKey(20);
  const ok = await inspector([
    ...connect(key),
    '--method',
    'tools/call',
    '--tool-name',
    'insights_profile_engagement',
    '--tool-arg',
    'handle=nasa',
    '--tool-arg',
    'posts=24',
  ]);
  expect(ok.code).toBe(0);
  const result = JSON.parse(ok.stdout) as {
    isError?: boolean;
    structuredContent: {
      data: { posts_analyzed: number };
      meta: { credits_charged: number; credits_remaining: number };
    };
  };
  expect(result.isError ?? false).toBe(false);
  expect(result.structuredContent.data.posts_analyzed).toBe(24);
  expect(result.structuredContent.meta).toMatchObject({ credits_charged: 3, credits_remaining: 17 });
  expect(sb.balance(key)).toBe(17);

  const missing = await inspector([
    ...connect(key),
    '--method',
    'tools/call',
    '--tool-name',
    'profile',
    '--tool-arg',
    'handle=locked_acc',
  ]);
  const failure = JSON.parse(missing.stdout) as {
    isError: boolean;
    structuredContent: { error: { code: string }; meta: { credits_charged: number } };
  };
  expect(failure).toMatchObject({
    isError: true,
    structuredContent: { error: { code: 'not_found' }, meta: { credits_charged: 1 } },
  });
  expect(sb.balance(key)).toBe(16);
}, 60_000);
