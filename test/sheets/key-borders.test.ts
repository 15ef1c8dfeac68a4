/**
 * The key goes only to the base URL in Sheets too (issue 38), on the built add-on in the Apps
 * Script stand-in: UrlFetchApp is asked not to follow redirects (`followRedirects: false`), so a
 * base URL answering 302 to a second server hands that server nothing and the cell says why; the
 * sidebar refuses an http:// base URL naming another machine before anything is saved or sent.
 */
import type { RunningServer } from '../../scripts/gas-standin/testServer';
import { startServerInWorker } from '../../scripts/gas-standin/testServer';
import { DEMO_KEY, PROP, addonRuntime } from './harness';

/** Two servers in a worker (UrlFetchApp blocks this thread): the base URL, which answers 302, and the one it names. */
const SOURCE = `
const http = require('node:http');
const { parentPort } = require('node:worker_threads');
const heard = [];
const record = (server, req) => heard.push({ server, key: req.headers.authorization || req.headers['x-api-key'] || null });
const elsewhere = http.createServer((req, res) => { record('elsewhere', req); res.end('{"data":{},"meta":{}}'); });
elsewhere.listen(0, '127.0.0.1', () => {
  const to = 'http://127.0.0.1:' + elsewhere.address().port;
  const base = http.createServer((req, res) => {
    if (req.url === '/_heard') return res.end(JSON.stringify({ heard, elsewhere: to }));
    record('base', req);
    res.writeHead(302, { location: to + req.url });
    res.end();
  });
  base.listen(0, '127.0.0.1', () => parentPort.postMessage({ type: 'listening', port: base.address().port }));
});
`;

let servers: RunningServer;
beforeAll(async () => {
  servers = await startServerInWorker({ source: SOURCE });
});
afterAll(async () => servers?.close());

test('a base URL that answers 302 to a second server: not followed, that server hears nothing, the cell says where it pointed', async () => {
  const rt = addonRuntime(servers.url); // requests to the production address go to the redirecting server
  try {
    const cell = rt.custom('IGPROFILE', 'nasa', 'followers');
    const { heard, elsewhere } = (await (await fetch(`${servers.url}/_heard`)).json()) as {
      heard: { server: string; key: string | null }[];
      elsewhere: string;
    };
    expect(heard).toEqual([{ server: 'base', key: `Bearer ${DEMO_KEY}` }]);
    expect(cell).toBe(
      `The service answered HTTP 302 (redirect_refused): the Base URL redirected the request to ${elsewhere}; the API key ` +
        'goes only to the Base URL, so the redirect was not followed. If that address serves the API, set it as the Base ' +
        'URL. (Not charged.)',
    );
  } finally {
    await rt.close();
  }
});

test('the sidebar refuses an http:// base URL naming another machine, with the reason; nothing is saved', async () => {
  const rt = addonRuntime(servers.url);
  try {
    expect(() => rt.call('igSetBaseUrl', 'http://api.example.invalid')).toThrow(
      'Base URL must be an https:// address (http:// only to this machine: localhost, 127.0.0.1, [::1]), since over ' +
        'http:// the API key would cross the network unencrypted; got "http://api.example.invalid".',
    );
    expect(rt.properties.document.get(PROP.baseUrl)).toBeFalsy();
  } finally {
    await rt.close();
  }
});
