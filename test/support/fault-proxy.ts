/**
 * Seeded upstream faults in front of the sandbox, for soak tests: 10% of API requests answered 502
 * and 5% 504 by the sandbox itself (the proxy adds its per-request `x-sandbox-fault` header, so the
 * answers, their bodies and "never billed" are the sandbox's own), the rest untouched. The sandbox
 * takes one fault status per rate; this gives the mix. Runs in a worker thread: the Apps Script
 * stand-in blocks the test's thread. Admin routes (/_sandbox/...) pass through without faults.
 *
 * `cut`: requests whose path and query match it are sent to the sandbox (which answers and bills
 * them), and then the proxy drops the connection instead of answering: the answer of a request
 * the service billed is lost (a connection cut on the way back). `cutTimes` (default: every time)
 * how many such requests to cut.
 */
import { startServerInWorker } from '../../scripts/gas-standin/testServer';

const SOURCE = String.raw`
const http = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
const target = new URL(workerData.target);
let seed = workerData.seed >>> 0;
const dice = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
const cut = workerData.cut ? new RegExp(workerData.cut) : null;
let cutsLeft = workerData.cutTimes ?? Infinity;
const server = http.createServer((req, res) => {
  const headers = { ...req.headers, host: target.host };
  const cutThis = cut && !req.url.startsWith('/_sandbox') && cut.test(req.url) && cutsLeft > 0;
  if (cutThis) cutsLeft--;
  if (!req.url.startsWith('/_sandbox')) {
    const d = cutThis ? 1 : dice(); // a request to cut is answered by the sandbox as it is
    headers['x-sandbox-fault'] = d < workerData.rate502 ? '502' : d < workerData.rate502 + workerData.rate504 ? '504' : 'none';
  }
  const up = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers, agent }, (r) => {
    if (cutThis) {
      // Read the whole answer (the service has billed it), then drop the client's connection.
      r.resume();
      r.on('end', () => req.socket.destroy());
      return;
    }
    res.writeHead(r.statusCode, r.rawHeaders);
    r.pipe(res);
  });
  up.on('error', (e) => { res.writeHead(599); res.end(String(e)); });
  req.pipe(up);
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ type: 'listening', port: server.address().port }));
`;

export function startFaultProxy(
  target: string,
  opts: { seed?: number; rate502?: number; rate504?: number; cut?: RegExp; cutTimes?: number } = {},
) {
  return startServerInWorker({
    source: SOURCE,
    workerData: {
      target,
      seed: opts.seed ?? 8,
      rate502: opts.rate502 ?? 0.1,
      rate504: opts.rate504 ?? 0.05,
      cut: opts.cut?.source,
      cutTimes: opts.cutTimes,
    },
  });
}
