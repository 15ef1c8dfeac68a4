/**
 * Money and failure facts in the built add-on (Apps Script stand-in, sandbox over real HTTP):
 * when the service cannot be reached for part of a range, each row names its own request; the
 * counts a bulk run shows are counted (a first run reads nothing from the cache).
 */
import type { GasRuntime } from '../../scripts/gas-standin/runtime';
import { PROD, SandboxProcess, addonRuntime, column, startSandbox } from './harness';

let sb: SandboxProcess;
const runtimes: GasRuntime[] = [];

beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  for (const rt of runtimes) await rt.close();
  await sb?.close();
});
beforeEach(async () => {
  await sb.reset();
});

/** The add-on with requests for `gone_*` handles sent to a closed port (as if the service stopped). */
function partlyUnreachable(): GasRuntime {
  const rt = addonRuntime(sb.url, {
    rewriteUrl: (u) => (u.startsWith(PROD) ? (/handle=gone_/.test(u) ? 'http://127.0.0.1:9' : sb.url) + u.slice(PROD.length) : u),
  });
  runtimes.push(rt);
  return rt;
}

test('the service unreachable for part of a batch: each row names its own request, reachable rows get their values', async () => {
  const rt = partlyUnreachable();
  const out = rt.custom('IGPROFILE', column(['nasa', 'gone_0125', 'gone_0128', 'natgeo']), 'followers') as unknown[][];
  expect(out[0]).toEqual([97400000]);
  expect(out[3]).toEqual([283000000]);
  for (const [row, handle] of [[1, 'gone_0125'], [2, 'gone_0128']] as const) {
    expect(String(out[row][0])).toMatch(new RegExp(`^Could not reach the service after \\d tries?: .*/v1/profile\\?handle=${handle}\\b.*\\(Not charged\\.\\)$`));
  }
  // UrlFetchApp.fetchAll throws for the whole batch on one network failure, so the answers of the
  // batch's other requests (served and billed) are lost: each is asked again on its own, once (the
  // core's retry of the whole batch used to send them again too). Twice, never more.
  const s = await sb.stats();
  expect(s.byRequest['profile?handle=nasa']).toBe(2);
  expect(s.byRequest['profile?handle=natgeo']).toBe(2);
  expect(s.creditsBilled).toBe(4);
});

test('a first bulk run over repeated targets: requests as sent, nothing "from cache"', async () => {
  const rt = addonRuntime(sb.url);
  runtimes.push(rt);
  // 60 accounts, then the same 60 again: the repeats fall in a later unit of work than their first
  // row, and are answered by what this run fetched, not by an earlier run's cache.
  const handles = Array.from({ length: 60 }, (_, i) => `acct_${i}`);
  const sheet = rt.spreadsheet.addSheet('Counts');
  [...handles, ...handles].forEach((h, i) => sheet.set(i + 1, 1, h));
  rt.spreadsheet.select('Counts!A1:A120');
  let job = rt.call('igBulkStart', { endpoint: 'profile', fields: 'followers', output: 'beside' });
  while (job.status === 'running') job = rt.call('igBulkStep', job.id);
  expect(job).toMatchObject({ status: 'done', written: 120, requests: 60, cached: 0 });
  expect((await sb.stats()).total).toBe(60);
  // A second run over the same column (new output): every answer now comes from the cache.
  rt.spreadsheet.addSheet('Counts2');
  [...handles, ...handles].forEach((h, i) => rt.spreadsheet.sheet('Counts2').set(i + 1, 1, h));
  rt.spreadsheet.select('Counts2!A1:A120');
  rt.clock.advance(1000);
  job = rt.call('igBulkStart', { endpoint: 'profile', fields: 'followers', output: 'beside' });
  while (job.status === 'running') job = rt.call('igBulkStep', job.id);
  expect(job).toMatchObject({ status: 'done', written: 120, requests: 0, cached: 60 });
  expect((await sb.stats()).total).toBe(60);
});

test('rows deleted under a running bulk run: the step pauses with a sentence, not Apps Script\'s range error', () => {
  const rt = addonRuntime(sb.url);
  runtimes.push(rt);
  const sheet = rt.spreadsheet.addSheet('Shrinks');
  ['nasa', 'natgeo', 'nike'].forEach((h, i) => sheet.set(i + 1, 1, h));
  rt.spreadsheet.select('Shrinks!A1:A3');
  const job = rt.call('igBulkStart', { endpoint: 'profile', fields: 'followers', output: 'beside' });
  sheet.maxRows = 2; // the last target's row is deleted before the first step
  expect(rt.call('igBulkStep', job.id)).toMatchObject({
    status: 'paused', next: 0,
    message: 'The targets go past the last row of "Shrinks" (were rows deleted?). Select the column again and start a new run.',
  });
});
