// Starts the Sheets preview (server.mjs) in a child process: the Apps Script stand-in's UrlFetchApp
// blocks its thread, so it must not share one with the sandbox.
//   const preview = await startSheetsPreview({ sandboxUrl, apiKey, port: 4020 });
//   preview.url; await preview.stop();
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const server = join(dirname(fileURLToPath(import.meta.url)), 'server.mjs');

// Where it listens: IGDATA_LISTEN, inherited with the environment (scripts/lib/listen.ts; default 127.0.0.1).
export function startSheetsPreview({ sandboxUrl, apiKey, port = 4020, timeoutMs = 60_000 }) {
  const child = spawn(process.execPath, [server], {
    env: {
      ...process.env,
      SANDBOX_URL: sandboxUrl,
      IGDATA_API_KEY: apiKey ?? '',
      SHEETS_PREVIEW_PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const killOnExit = () => child.kill('SIGTERM');
  process.once('exit', killOnExit);
  const stop = async () => {
    process.removeListener('exit', killOnExit);
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`the Sheets preview did not start in time:\n${out}`));
    }, timeoutMs);
    const onData = (d) => {
      out += d;
      const m = /sheets-preview listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        child.stdout.off('data', onData);
        child.stderr.off('data', onData);
        child.stderr.on('data', (e) => process.stderr.write(`[sheets-preview] ${e}`));
        child.stdout.resume();
        resolve({ url: m[1], stop, child });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      process.removeListener('exit', killOnExit);
      reject(new Error(out.trim().replace(/^sheets-preview: /, '') || `exited with ${code}`));
    });
  });
}
