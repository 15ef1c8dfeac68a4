/**
 * Apps Script's daily quotas in the stand-in (scripts/gas-standin/internal/quota.ts), scaled down: URL Fetch calls
 * (each request of a fetchAll counting), Properties reads and writes, installable triggers' runtime, each over a
 * rolling 24 hours of the runtime's clock, refused with Google's sentence before anything happens.
 */
import { GasRuntime, createGasRuntime } from '../../scripts/gas-standin/runtime';
import { startEchoServer } from '../../scripts/gas-standin/testServer';
import { TEST_START } from '../support/clock';

const HOUR = 3600000;
const URLFETCH = 'Service invoked too many times for one day: urlfetch.';
const CODE = `
function one(url) { return UrlFetchApp.fetch(url).getResponseCode(); }
function many(url, n) {
  var reqs = [];
  for (var i = 0; i < n; i++) reqs.push(url + '?i=' + i);
  return UrlFetchApp.fetchAll(reqs).length;
}
function caught(url) { try { UrlFetchApp.fetch(url); return 'sent'; } catch (e) { return String(e.message); } }
function props(n) { var p = PropertiesService.getDocumentProperties(); for (var i = 0; i < n; i++) p.getProperty('k'); }
function install() { ScriptApp.newTrigger('slow').timeBased().everyHours(1).create(); }
function slow() { Utilities.sleep(5 * 60 * 1000); }
`;

let server: Awaited<ReturnType<typeof startEchoServer>>;
const runtimes: GasRuntime[] = [];
function rt(limits: Parameters<typeof createGasRuntime>[0]['limits']): GasRuntime {
  const r = createGasRuntime({ files: [{ name: 'Code.js', code: CODE }], startAt: TEST_START, manifest: null, limits });
  runtimes.push(r);
  return r;
}
beforeAll(async () => {
  server = await startEchoServer();
});
afterAll(async () => {
  await Promise.all(runtimes.map((r) => r.close()));
  await server.close();
});

test('URL Fetch: each request of a fetchAll counts; past the day, fetch and fetchAll throw before sending; a call frees up 24 hours after it', () => {
  const r = rt({ urlFetchDailyCalls: 10 });
  const url = `${server.url}/echo`;
  expect(r.call('many', url, 6)).toBe(6);
  r.clock.advance(HOUR);
  expect(r.call('many', url, 3)).toBe(3);
  // 9 used: a batch of 2 does not fit and sends nothing (nor counts); one request still does.
  expect(() => r.call('many', url, 2)).toThrow(URLFETCH);
  expect(r.requests).toHaveLength(9);
  expect(r.call('one', url)).toBe(200);
  expect(() => r.call('one', url)).toThrow(URLFETCH);
  expect(r.call('caught', url)).toBe(URLFETCH); // the script can catch it, word for word
  expect(r.requests).toHaveLength(10);
  expect(r.stats.quotaRefusals).toBe(3);
  // 24 hours after the first batch its 6 calls leave the window; the others (an hour later) not yet.
  r.clock.advance(23 * HOUR);
  expect(r.quotas.urlfetch.used(r.now())).toBe(4);
  expect(r.call('many', url, 6)).toBe(6);
  expect(() => r.call('one', url)).toThrow(URLFETCH);
  r.clock.advance(HOUR);
  expect(r.call('many', url, 4)).toBe(4);
});

test('Properties: reads and writes a day, refused past it with the same kind of sentence', () => {
  const r = rt({ propertiesDailyOps: 5 });
  r.call('props', 5);
  expect(() => r.call('props', 1)).toThrow('Service invoked too many times for one day: properties.');
  r.clock.advance(24 * HOUR);
  expect(() => r.call('props', 5)).not.toThrow();
});

test("installable triggers' runtime a day: once used up, a trigger does not run until the day frees up", () => {
  const r = rt({ triggerDailyRuntimeMs: 10 * 60000 });
  r.call('install');
  r.advance(4 * HOUR + 1000);
  // 5 min each: the first two use the 10 minutes, the others are refused.
  const runs = r.triggers.installed[0].runs;
  expect(runs.map((x) => x.ok)).toEqual([true, true, false, false]);
  expect(runs[2].error).toBe('Service using too much computer time for one day');
  r.advance(22 * HOUR);
  expect(runs.slice(-1)[0].ok).toBe(true);
});
