/**
 * Seeded upstream faults in front of the sandbox, for soak tests: 10% of API requests answered 502
 * and 5% 504 by the sandbox itself (the proxy adds its per-request `x-sandbox-fault` header, so the
 * answers, their bodies and "never billed" are the sandbox's own), the rest untouched. The sandbox
 * takes one fault status per rate; this gives the mix. Runs in a worker thread: the Apps Script
 * stand-in blocks the test's thread. Admin routes (/_sandbox/...) pass through without faults.
 */
import { startServerInWorker } from '../../scripts/gas-standin/testServer';

const SOURCE = String.raw`
const http = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
const target = new URL(workerData.target);
let seed = workerData.seed >>> 0;
const dice = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
const server = http.createServer((req, res) => {
  const headers = { ...req.headers, host: target.host };
  if (!req.url.startsWith('/_sandbox')) {
    const d = dice();
    headers['x-sandbox-fault'] = d < workerData.rate502 ? '502' : d < workerData.rate502 + workerData.rate504 ? '504' : 'none';
  }
  const up = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers, agent }, (r) => {
    res.writeHead(r.statusCode, r.rawHeaders);
    r.pipe(res);
  });
  up.on('error', (e) => { res.writeHead(599); res.end(String(e)); });
  req.pipe(up);
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ type: 'listening', port: server.address().port }));
`;

export function startFaultProxy(target: string, opts: { seed?: number; rate502?: number; rate504?: number } = {}) {
  return startServerInWorker({ source: SOURCE, workerData: { target, seed: opts.seed ?? 8, rate502: opts.rate502 ?? 0.1, rate504: opts.rate504 ?? 0.05 } });
}
