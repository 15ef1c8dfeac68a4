// (c) of `npm run bench:sheets`: the naive way, one custom function per cell with no cache (the
// ImportJSON way). Each cell is its own execution in a fresh context, at most `threads` at once: a
// pool of worker threads, each its own stand-in runtime (scripts/gas-standin/runtime.ts), since the
// stand-in's UrlFetchApp blocks its thread. Apart from sheets.mjs, which times it beside (a) and (b).
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

const workerSrc = `
const { parentPort, workerData } = require('node:worker_threads');
import(workerData.runtimeFile).then(({ createGasRuntime }) => {
  const rt = createGasRuntime({ files: [{ name: 'naive.js', code: workerData.naive }], manifest: null,
    rewriteUrl: (u) => u.startsWith(workerData.prod) ? workerData.sandbox + u.slice(workerData.prod.length) : u });
  parentPort.on('message', (m) => {
    if (m === 'close') return rt.close().then(() => process.exit(0));
    let v;
    try { v = rt.custom('NAIVE', m.handle); } catch (e) { v = String(e.message); }
    parentPort.postMessage({ i: m.i, v, loadMs: rt.stats.lastLoadMs });
  });
  parentPort.postMessage('ready');
});`;

/**
 * Starts `threads` workers, each with the naive function loaded, requests to `prod` going to
 * `sandboxUrl`. `run(column)` recalculates every cell of the column (resolves when the last one
 * answered); `close()` ends the workers.
 */
export async function startNaivePool({ runtimeFile, key, prod, sandboxUrl, threads }) {
  const naive = `function NAIVE(handle) {
  var res = UrlFetchApp.fetch(${JSON.stringify(prod)} + '/v1/profile?handle=' + encodeURIComponent(String(handle).replace(/^@/, '')),
    { headers: { Authorization: 'Bearer ${key}' }, muteHttpExceptions: true });
  var json = JSON.parse(res.getContentText());
  return json.data ? json.data.followers : json.error.message;
}`;
  const pool = await Promise.all(
    Array.from(
      { length: threads },
      () =>
        new Promise((resolve) => {
          const w = new Worker(workerSrc, {
            eval: true,
            workerData: { runtimeFile: pathToFileURL(runtimeFile).href, naive, prod, sandbox: sandboxUrl },
          });
          w.once('message', () => resolve(w));
        }),
    ),
  );
  const run = (column) =>
    new Promise((resolve) => {
      let next = 0;
      let done = 0;
      const feed = (w) => {
        if (next < column.length) w.postMessage({ i: next, handle: column[next++] });
      };
      for (const w of pool) {
        w.removeAllListeners('message');
        w.on('message', () => {
          if (++done === column.length) resolve({});
          else feed(w);
        });
        feed(w);
      }
    });
  const close = () => {
    for (const w of pool) w.postMessage('close');
  };
  return { run, close };
}
