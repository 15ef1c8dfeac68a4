/**
 * The built sidebar (sheets-addon/dist/Sidebar.html) in headless Chromium, with google.script.run
 * wired to the built add-on in the Apps Script stand-in, against the sandbox over real HTTP:
 * key entry (masked), cost preview, a bulk run to completion, cancel, resume after closing the
 * sidebar and after running out of credits, never writing or billing a row twice.
 */
import { openSidebar, sidebarState } from '../../scripts/gas-standin/browser';
import type { GasRuntime } from '../../scripts/gas-standin/runtime';
import { originOfUrl } from '@igdata/core';
import { DEMO_KEY, PROD, PROP, SandboxProcess } from './harness';
import { cancelOnFirstProgress, go, openLoaded, poll, sidebarSuite, text } from './sidebar-page';

const env = sidebarSuite({ key: null });
let sb: SandboxProcess;
let rt: GasRuntime;
const pages = env.pages;
beforeAll(() => {
  ({ sb, rt } = env);
});

const open = () => openLoaded(rt, pages);

test('key entry: a refused key is not stored; a good one is stored and shown masked only', async () => {
  const page = await open();
  expect(await text(page, '#key-status')).toMatch(/No API key is set/);
  // Before saving, the sidebar says where the chosen key goes and who can see and use it: this copy is a script bound
  // to the sheet (the stand-in's default), which every editor can open.
  expect(await text(page, '#key-scope-note')).toMatch(
    /^For everyone who edits this sheet: stored in the document properties of this sheet’s script\. Every editor’s formulas, runs and schedules spend its credits, any editor can replace or remove it, and any editor can read the key itself by running code in Extensions > Apps Script/,
  );
  await page.check('#key-scope-mine');
  expect(await text(page, '#key-scope-note')).toMatch(
    /^Only for me: stored in your own user properties of this sheet’s script, which other people’s executions cannot read\. Editors can still change that script .* Formulas \(Sheets runs them as an anonymous user\) and the hourly background runs .* cannot use it: they need the key for everyone\.$/,
  );
  await page.check('#key-scope-everyone');
  await page.fill('#key', 'sk_bad_key_0000');
  await page.click('#save-key');
  // In Settings the message says the key was not saved and what to do (not "Set it in ... Settings").
  await poll(() => text(page, '#key-message')).toMatch(
    /^This key was not saved: the service does not accept it \(invalid API key\)\. Copy the whole key again from your dashboard at igdata\.dev and paste it above\. \(Not charged\.\)$/,
  );
  expect(rt.properties.document.get(PROP.apiKey)).toBeNull();

  await page.fill('#key', DEMO_KEY);
  await page.fill('#key-label', 'maya@example.com');
  await page.click('#save-key');
  await poll(() => text(page, '#key-message')).toMatch(/^Saved\. The key works: [\d,]+ credits left\.$/);
  expect(rt.properties.document.get(PROP.apiKey)).toBe(DEMO_KEY);
  expect(rt.properties.document.get(PROP.keySetBy)).toBe('maya@example.com');
  // "By you": Apps Script knows the user who saved it (its temporary user key), whatever name was typed.
  expect(await text(page, '#key-status')).toBe(
    `Key ••••••••${DEMO_KEY.slice(-4)} is set for everyone who edits this sheet by you on ${new Date(rt.now()).toISOString().slice(0, 10)}.`,
  );
  expect(await text(page, '#key-owner')).toBe(
    'Everyone who edits this sheet uses this key: its formulas spend your credits.',
  );
  expect(await page.inputValue('#key')).toBe('');
  expect(await page.content()).not.toContain(DEMO_KEY);
  expect(await text(page, '#balance')).toMatch(/credits$/);
  // No server answer ever carried the key.
  expect(JSON.stringify(sidebarState(page).calls)).not.toContain(DEMO_KEY.slice(0, -4) + DEMO_KEY.slice(-4) + '"}');
  expect(rt.findSecret(DEMO_KEY)).toEqual([]);
});

test('an editor is told whose credits the sheet spends, the name typed said to be unconfirmed', async () => {
  const page = await openSidebar(rt, 'Sidebar', { user: 'editor@example.com' });
  pages.push(page);
  await poll(() => text(page, '#key-owner')).toBe(
    'This sheet spends the credits of whoever set this key (signed “maya@example.com”). Replacing it for everyone makes the sheet use yours.',
  );
  expect(await text(page, '#key-status')).toMatch(
    /is set for everyone who edits this sheet on \d{4}-\d\d-\d\d by someone who signed “maya@example\.com” \(a name they typed: Apps Script does not confirm it\)\.$/,
  );
  await page.context().close();
});

test('cost preview, then a bulk run to completion writing plain values beside the column', async () => {
  const sheet = rt.spreadsheet.sheet('Sheet1');
  const handles = [
    'nasa',
    '@NASA',
    'natgeo',
    '',
    'nike',
    'locked_acc',
    'bad handle',
    'https://www.instagram.com/natgeo/',
    'starbucks',
  ];
  sheet.setValues('A1', [['handle'], ...handles.map((h) => [h])]);
  rt.spreadsheet.select(`Sheet1!A2:A${handles.length + 1}`);
  await sb.reset();
  const page = await open();
  await go(page, 'bulk');
  await page.click('#use-selection');
  await poll(() => text(page, '#selection')).toBe('Sheet1!A2:A10 (9 rows)');
  await page.selectOption('#endpoint', 'profile');
  await page.fill('#fields', 'username,followers');
  await page.click('#preview');
  // nasa, natgeo, nike, locked_acc, starbucks: 5 unique valid targets at 1 credit each.
  await poll(() => text(page, '#preview-text')).toMatch(
    /^5 unique targets in 9 rows, 1 invalid: 5 credits \(5 × 1\), you have [\d,]+\. Output: columns B:C of Sheet1\.$/,
  );
  // Only free balance lookups so far: the preview spends nothing.
  expect(Object.keys((await sb.stats()).byEndpoint)).toEqual(['credits']);
  expect(await page.isEnabled('#run')).toBe(true);
  await page.click('#run');
  await poll(() => text(page, '#progress-text'), { timeout: 30000 }).toMatch(
    /^Done: 9 of 9 rows \(100%\), 5 credits spent/,
  );
  const values = sheet.getValues('A1:C10');
  expect(values[0]).toEqual(['handle', 'username', 'followers']);
  expect(values[1]).toEqual(['nasa', 'nasa', 97400000]);
  expect(values[2]).toEqual(['@NASA', 'nasa', 97400000]);
  expect(values[4]).toEqual(['', '', '']);
  expect(values[6][1]).toBe('@locked_acc is private: no public data. (Charged 1 credit.)');
  expect(values[7][1]).toMatch(/^handle must be a username/);
  expect(values[8][1]).toBe('natgeo');
  const s = await sb.stats();
  expect(s.byEndpoint.profile).toBe(5);
  expect(s.creditsBilled).toBe(5);
  // Plain values, not formulas: the cells hold the numbers themselves.
  expect(typeof values[1][2]).toBe('number');
  // The preview now knows they are cached.
  await page.click('#preview');
  await poll(() => text(page, '#preview-text')).toMatch(/5 cached \(free\).*: 0 credits/);
  await page.context().close();
});

test('cancel, close the sidebar, resume: every row written once, every target billed once', async () => {
  const sheet = rt.spreadsheet.addSheet('Big');
  const n = 400;
  for (let i = 0; i < n; i++) sheet.set(i + 1, 1, `ghost_${i}`);
  rt.spreadsheet.select(`Big!A1:A${n}`);
  await sb.reset();
  await sb.setFaults({ latencyMs: 700 });
  try {
    let page = await open();
    await go(page, 'bulk');
    await page.click('#use-selection');
    await page.selectOption('#endpoint', 'profile');
    await page.fill('#fields', 'followers');
    await page.check('#output-sheet');
    await page.click('#preview');
    await poll(() => text(page, '#preview-text')).toMatch(
      /^400 unique targets in 400 rows: 400 credits \(400 × 1\), you have [\d,]+\. Output: a new sheet\.$/,
    );
    // The user clicks Cancel as soon as the bar moves.
    await cancelOnFirstProgress(page);
    await page.click('#run');
    await poll(() => text(page, '#progress-text'), { timeout: 30000 }).toMatch(/^Cancelled at (\d+) of 400 rows/);
    const stopped = Number(/Cancelled at (\d+)/.exec(await text(page, '#progress-text'))![1]);
    expect(stopped).toBeGreaterThan(0);
    expect(stopped).toBeLessThan(400);
    const out = rt.spreadsheet.sheet('IG Data IGPROFILE');
    const filled = () => out.getValues(`B2:B${n + 1}`).filter((r) => r[0] !== '').length;
    expect(filled()).toBe(stopped);
    expect((await sb.stats()).byEndpoint.profile).toBe(stopped);
    await page.context().close();

    // Reopen: the job is still there; Resume finishes it.
    await sb.setFaults({ latencyMs: 0 });
    page = await open();
    await go(page, 'bulk');
    await poll(() => page.isVisible('#resume')).toBe(true);
    await page.click('#resume');
    await poll(() => text(page, '#progress-text'), { timeout: 30000 }).toMatch(/^Done: 400 of 400 rows/);
    expect(filled()).toBe(400);
    expect(out.getValues('A2:B2')[0]).toEqual([
      'ghost_0',
      '@ghost_0 has no public data: private, deleted or nonexistent. (Charged 1 credit.)',
    ]);
    const s = await sb.stats();
    expect(s.byEndpoint.profile).toBe(400);
    expect(
      Object.entries(s.byRequest)
        .filter(([k]) => k.startsWith('profile?'))
        .every(([, c]) => c === 1),
    ).toBe(true);
    expect(s.creditsBilled).toBe(400);
    const job = JSON.parse(rt.properties.document.get(PROP.job)!);
    expect(job).toMatchObject({ status: 'done', next: 400, written: 400, skipped: 0, credits: 400 });
    await page.context().close();
  } finally {
    await sb.setFaults({ latencyMs: 0 });
  }
}, 90000);

test('out of credits pauses the run; after replacing the key, Resume continues without rebilling', async () => {
  const sheet = rt.spreadsheet.addSheet('Few');
  const handles = ['nasa', 'natgeo', 'nike', 'starbucks', 'bbcnews', 'instagram'];
  handles.forEach((h, i) => sheet.set(i + 1, 1, h));
  rt.spreadsheet.select('Few!A1:A6');
  const poor = await sb.createKey(4); // IGABOUT costs 2: two accounts, then 402
  rt.properties.document.set(PROP.apiKey, poor);
  await sb.reset();
  const page = await open();
  await go(page, 'bulk');
  await page.click('#use-selection');
  await page.selectOption('#endpoint', 'profile/about');
  await page.fill('#fields', 'account_created_year');
  await page.click('#preview');
  await poll(() => text(page, '#preview-text')).toMatch(/12 credits \(6 × 2\), you have 4\. .*Not enough credits\.$/);
  expect(await page.isEnabled('#run')).toBe(false);
  // Run anyway through the server (as if the balance had been enough at preview time).
  const job = rt.call('igBulkStart', { endpoint: 'profile/about', fields: 'account_created_year', output: 'beside' });
  await page.reload();
  await page.waitForFunction(() => document.body.hasAttribute('data-view'));
  await go(page, 'bulk');
  await poll(() => page.isVisible('#resume')).toBe(true);
  await page.click('#resume');
  await poll(() => text(page, '#bulk-message'), { timeout: 30000 }).toBe(
    'Out of credits: 0 left. Top up to continue. (Not charged.) More about this error',
  );
  // The service's reference page for the error, on the Base URL's own host (production's: the stand-in only sends
  // its requests to the sandbox), opening in a new tab.
  const link = page.locator('#bulk-message a');
  expect(await link.evaluate((a: HTMLAnchorElement) => [a.href, a.target, a.rel])).toEqual([
    `${originOfUrl(PROD)}/docs/errors#insufficient_credits`,
    '_blank',
    'noopener',
  ]);
  expect(await text(page, '#progress-text')).toMatch(/^Paused at 2 of 6 rows/);
  await poll(() => text(page, '#top-balance')).toBe('0 credits'); // read again when the run stopped, not left at 4
  expect(sheet.getValues('B1:B6').map((r) => r[0])).toEqual([2012, 2012, '', '', '', '']);
  await go(page, 'settings');
  await page.fill('#key', DEMO_KEY);
  await page.click('#save-key');
  await poll(() => text(page, '#key-message')).toMatch(/^Saved\./);
  await go(page, 'bulk');
  await page.click('#resume');
  await poll(() => text(page, '#progress-text'), { timeout: 30000 }).toMatch(/^Done: 6 of 6 rows/);
  expect(await page.locator('#bulk-message a').count()).toBe(0);
  expect(JSON.parse(rt.properties.document.get(PROP.job)!).docs).toBeUndefined();
  const s = await sb.stats();
  expect(s.byRequest['profile/about?handle=nasa']).toBe(1);
  expect(s.byRequest['profile/about?handle=natgeo']).toBe(1);
  expect(s.creditsBilled).toBe(12);
  expect(sheet.getValues('B1:B6').every((r) => typeof r[0] === 'number')).toBe(true);
  expect(job.id).toBe(JSON.parse(rt.properties.document.get(PROP.job)!).id);
  await page.context().close();
}, 60000);
