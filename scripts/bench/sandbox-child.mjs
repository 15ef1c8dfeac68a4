// The sandbox in a child process for the Sheets benchmarks: the stand-in's UrlFetchApp blocks the
// bench's thread, so an in-process sandbox could not answer. Admin calls are retried: a kept-alive
// socket may have been closed by the sandbox while UrlFetchApp blocked (every admin call is idempotent).
import { spawn } from 'node:child_process';
import { join } from 'node:path';

export async function startSandboxChild(root, { key, latencyMs = 0 }) {
  const child = spawn(process.execPath, [join(root, 'dist', 'sandbox.mjs')], {
    env: {
      ...process.env,
      PORT: '0',
      SANDBOX_DEMO_KEY: key,
      SANDBOX_LATENCY_MS: String(latencyMs),
      SANDBOX_FAULT_RATE: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const port = await new Promise((resolve, reject) => {
    const on = (d) => {
      out += d;
      const m = /listening on http:\/\/[\d.]+:(\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    };
    child.stdout.on('data', on);
    child.stderr.on('data', on);
    child.once('exit', (c) => reject(new Error(`sandbox exited ${c}: ${out}`)));
  });
  const url = `http://127.0.0.1:${port}`;
  const admin = async (p, method = 'GET', body) => {
    for (let i = 0; ; i++) {
      let res;
      try {
        res = await fetch(url + p, {
          method,
          body: body === undefined ? undefined : JSON.stringify(body),
          headers: body === undefined ? {} : { 'content-type': 'application/json' },
        });
      } catch (e) {
        if (i < 2) continue;
        throw e;
      }
      if (!res.ok) throw new Error(`sandbox ${method} ${p}: ${res.status} ${await res.text()}`);
      return res.json();
    }
  };
  return {
    url,
    stats: () => admin('/_sandbox/stats'),
    reset: () => admin('/_sandbox/reset', 'POST'),
    setLatency: (ms) => admin('/_sandbox/faults', 'POST', { latencyMs: ms }),
    close: () => child.kill(),
  };
}
