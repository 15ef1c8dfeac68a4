/**
 * "Vet these accounts" (issue 24) with the *built* add-on in the Apps Script stand-in against the
 * sandbox: a column of accounts becomes a scorecard sheet through the sidebar's calls. Credits are
 * counted at the sandbox; the verdicts are the scorecard's formulas evaluated as the preview does
 * (scripts/sheets-preview/scorecard.js): the stand-in stores formulas without calculating them.
 */
import type { GasRuntime } from '../../scripts/gas-standin/runtime';
import { sandboxedAddon } from './harness';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { scorecardValue, ruleBackground } = require('../../scripts/sheets-preview/scorecard.js') as {
  scorecardValue: (f: string, cell: (a1: string) => unknown) => string | null;
  ruleBackground: (rules: unknown[], row: number, col: number, shown: unknown) => string | null;
};

const env = sandboxedAddon();
const HOUR = 3600000;
/** 8 public accounts of the sandbox's world, one private, one that does not exist (and a repeat, a blank). */
const ACCOUNTS = [
  'nasa',
  '@natgeo',
  'https://www.instagram.com/nike/',
  'starbucks',
  'veganfoodie',
  'plantbasedpaula',
  'trailrunner.leo',
  'small.cafe',
  'locked_acc',
  'no_such_creator_xyz',
  'nasa',
  '',
];
const CHECKS = {
  checks: ['engagement', 'audit', 'niche', 'qualify'],
  params: { criteria: 'vegan food creator', sample: 50 },
  cap: 1000,
};
const HEADER = [
  'account',
  'verdict',
  'note',
  'followers',
  'engagement_rate_pct',
  'estimated_real_pct',
  'quality_grade',
  'niche',
  'fit_score',
  'profile',
];
const FIRST = 9;

function sheetWith(handles: string[]): GasRuntime {
  const rt = env.runtime();
  rt.spreadsheet.sheet('Sheet1').setValues('A1', [['account'], ...handles.map((h) => [h])]);
  rt.spreadsheet.select(`Sheet1!A2:A${handles.length + 1}`);
  rt.call('igSidebarState'); // installs the hourly trigger
  return rt;
}

type Job = { id: string; status: string; credits: number; message?: string };
/** Steps the document's bulk run as the sidebar does until it stops: a vet's next check comes back from the step that ended the last. */
function stepAll(rt: GasRuntime, job: Job): { job: Job; checks: number } {
  const ids = new Set([job.id]);
  while (job.status === 'running') {
    job = rt.call('igBulkStep', job.id) as Job;
    ids.add(job.id);
  }
  return { job, checks: ids.size };
}

/** The scorecard's lines (from the header down), with each formula cell as it shows. */
function scorecard(rt: GasRuntime, name: string) {
  const sheet = rt.spreadsheet.sheet(name);
  const cell = (a1: string) => {
    const m = /^([A-Z])(\d+)$/.exec(a1)!;
    return sheet.get(Number(m[2]), m[1].charCodeAt(0) - 64);
  };
  const shown = (r: number, c: number) => {
    const f = sheet.formulas.get(`${r},${c}`);
    return f ? scorecardValue(f, cell) : sheet.get(r, c);
  };
  const lines: unknown[][] = [];
  for (let r = FIRST; r <= sheet.lastRow(); r++) lines.push(HEADER.map((_, c) => shown(r, c + 1)));
  const colors = lines.map((l, i) => ruleBackground(sheet.colorRules, FIRST + i, 2, l[1]));
  return {
    sheet,
    header: sheet.getValues()[FIRST - 2].slice(0, HEADER.length),
    lines,
    colors,
    byAccount: (a: string) => lines.find((l) => l[0] === a)!,
  };
}

test('10 accounts, four checks: a scorecard with the deciding fields, verdicts by formula and colours; billed = the preview; a threshold changed by hand changes verdicts with no request; a second vet costs 0', async () => {
  const rt = sheetWith(ACCOUNTS);
  const choices = rt.call('igVetChoices') as { id: string; fn: string; credits: number }[];
  expect(choices.map((c) => c.fn)).toEqual(['IGENGAGEMENT', 'IGAUDIT', 'IGNICHE', 'IGSUMMARY', 'IGQUALIFY']);
  const preview = rt.call('igVetPreview', CHECKS);
  // 10 distinct accounts (a repeat and a blank row left out); the registry's prices: 2 + 4 + 3 + 3.
  expect(preview).toMatchObject({ accounts: 10, perAccount: 12, kept: 0, credits: 120 });
  expect(preview.checks.map((c: { fn: string; creditsEach: number }) => [c.fn, c.creditsEach])).toEqual([
    ['IGENGAGEMENT', 2],
    ['IGAUDIT', 4],
    ['IGNICHE', 3],
    ['IGQUALIFY', 3],
  ]);
  expect(preview.balance).toBeGreaterThan(0);

  const started = rt.call('igVetStart', { ...CHECKS, range: preview.range });
  expect(started).toMatchObject({ sheet: 'IG Data vet', checks: 4 });
  const run = stepAll(rt, started.job);
  expect(run.checks).toBe(4);
  expect(run.job.status).toBe('done');
  const billed = (await env.sandbox.stats()).creditsBilled;
  expect(run.job.message).toContain(`${billed} credits in all`);
  // The preview's figure (the service bills a private or missing account's 404 at the full price).
  expect(billed).toBe(preview.credits);

  const card = scorecard(rt, 'IG Data vet');
  expect(card.header).toEqual(HEADER);
  expect(card.lines.map((l) => l[0])).toEqual([
    'nasa',
    'natgeo',
    'nike',
    'starbucks',
    'veganfoodie',
    'plantbasedpaula',
    'trailrunner.leo',
    'small.cafe',
    'locked_acc',
    'no_such_creator_xyz',
  ]);
  const nasa = card.byAccount('nasa');
  expect(nasa[2]).toBe('');
  expect(nasa[3]).toBe(97_400_000);
  expect(typeof nasa[4]).toBe('number');
  expect(typeof nasa[5]).toBe('number');
  expect(nasa[6]).toMatch(/^[A-F]$/);
  expect(typeof nasa[7]).toBe('string');
  expect(typeof nasa[8]).toBe('number');
  expect(nasa[9]).toBe('profile');
  // A private and a missing account say so once (private when the service said so), with what their four checks cost.
  for (const [a, why] of [
    ['locked_acc', 'is private: no public data'],
    ['no_such_creator_xyz', 'has no public data'],
  ]) {
    const line = card.byAccount(a);
    expect(line[1]).toBe('no data');
    expect(line[2]).toMatch(new RegExp(`^@${a} ${why}.*\\(Charged \\d+ credits? for 4 checks\\.\\)$`));
    expect(line.slice(3, 9)).toEqual(['', '', '', '', '', '']);
  }
  // The verdicts follow the default thresholds (100 followers, 1 %, 80 % real, grades A or B, fit 60).
  const verdicts = card.lines.map((l) => l[1]);
  expect(verdicts.every((v) => ['pass', 'fail', 'no data'].includes(v as string))).toBe(true);
  card.lines.forEach((l, i) => {
    if (l[1] === 'no data') return;
    const pass =
      (l[3] as number) >= 100 &&
      (l[4] as number) >= 1 &&
      (l[5] as number) >= 80 &&
      'A B'.includes(l[6] as string) &&
      (l[8] as number) >= 60;
    expect([l[0], l[1]]).toEqual([l[0], pass ? 'pass' : 'fail']);
    expect(card.colors[i]).toBe(pass ? '#b7e1cd' : '#f4c7c3');
  });
  expect(card.colors[8]).toBe('#d9d9d9');
  expect(verdicts.filter((v) => v === 'pass').length).toBeGreaterThan(0);

  // A threshold changed by hand: the verdicts change, and nothing is sent.
  const requests = rt.stats.requests;
  card.sheet.set(2, 2, 0); // minimum followers
  card.sheet.set(3, 2, ''); // engagement: not held against anyone
  card.sheet.set(4, 2, 0);
  card.sheet.set(5, 2, 'A B C D F');
  card.sheet.set(6, 2, 0);
  const loosened = scorecard(rt, 'IG Data vet');
  expect(loosened.lines.map((l) => l[1])).toEqual(verdicts.map((v) => (v === 'no data' ? v : 'pass')));
  card.sheet.set(2, 2, 1e12);
  expect(scorecard(rt, 'IG Data vet').lines.filter((l) => l[1] === 'pass')).toEqual([]);
  expect(rt.stats.requests).toBe(requests);

  // Vetting again within freshness: the kept answers, 0 credits, the same values.
  const again = rt.call('igVetPreview', CHECKS);
  expect(again).toMatchObject({ credits: 0, kept: 40 }); // 10 accounts x 4 checks (a 404 is kept too)
  const second = stepAll(rt, rt.call('igVetStart', CHECKS).job);
  expect(second.job.message).toContain('IG Data vet 2');
  const card2 = scorecard(rt, 'IG Data vet 2');
  // The same lines, but the notes: nothing was charged for this vet, and the private and missing
  // accounts' notes say so, with what their checks cost when first looked up (the stand-in's clock
  // starts on 25 Nov, the sheet's zone is UTC).
  const firstNote = (line: unknown[]) => /\(Charged (\d+) credits for 4 checks\.\)$/.exec(String(line[2]))![1];
  const noted = ['locked_acc', 'no_such_creator_xyz'];
  expect(card2.lines.filter((l) => !noted.includes(l[0] as string))).toEqual(
    card.lines.filter((l) => !noted.includes(l[0] as string)),
  );
  const why: Record<string, string> = {
    locked_acc: 'is private: no public data',
    no_such_creator_xyz: 'has no public data: private, deleted or nonexistent',
  };
  for (const a of noted) {
    const line = card2.byAccount(a);
    expect(line[2]).toBe(
      `@${a} ${why[a]}. ` +
        `(Charged ${firstNote(card.byAccount(a))} credits for 4 checks when first looked up on 25 Nov; free now.)`,
    );
    expect(line.filter((c, i) => i !== 2)).toEqual(card.byAccount(a).filter((c, i) => i !== 2));
  }
  expect(second.job.message).toContain(' 0 credits in all');
  await expect(env.sandbox.stats()).resolves.toMatchObject({ creditsBilled: billed });
});

test('a vet left running when the sidebar closes is finished by the hourly trigger, its checks one after the other', async () => {
  const rt = sheetWith(['nasa', 'natgeo', 'locked_acc']);
  rt.call('igVetStart', { checks: ['engagement', 'audit'], cap: 100 });
  rt.advance(HOUR + 60000);
  const job = rt.call('igBulkStatus') as Job;
  expect(job.status).toBe('done');
  expect(job.message).toContain('IGENGAGEMENT, IGAUDIT');
  const card = scorecard(rt, 'IG Data vet');
  expect(card.byAccount('nasa')[3]).toBe(97_400_000);
  expect(typeof card.byAccount('natgeo')[5]).toBe('number');
  expect(card.byAccount('locked_acc')[2]).toMatch(/for 2 checks/);
});

test('bad input is refused with what to do, nothing charged', async () => {
  const rt = sheetWith(['nasa']);
  expect(() => rt.call('igVetPreview', { checks: [] })).toThrow(/choose at least one check/);
  expect(() => rt.call('igVetPreview', { checks: ['niche', 'summary'] })).toThrow(/choose one of them/);
  expect(() => rt.call('igVetPreview', { checks: ['qualify'] })).toThrow(/criteria/);
  await expect(env.sandbox.stats()).resolves.toMatchObject({ creditsBilled: 0 });
});

test('the cap stops a vet before it is passed: the check that would pass it pauses with what it spent and which rows wait', async () => {
  const rt = sheetWith(['nasa', 'natgeo', 'nike']);
  // engagement 2 + audit 4 (sample 50) an account: 18 for three; a cap of 10 leaves room for one audit.
  const preview = rt.call('igVetPreview', { checks: ['engagement', 'audit'], params: { sample: 50 }, cap: 10 });
  expect(preview).toMatchObject({ credits: 18, cap: 10 });
  const { job } = stepAll(
    rt,
    rt.call('igVetStart', { checks: ['engagement', 'audit'], params: { sample: 50 }, cap: 10 }).job,
  );
  expect(job.status).toBe('paused');
  expect(job.message).toMatch(
    /^Stopped at this run's cap of 10 credits \(10 spent\): 2 rows were not looked up \(rows 10-11\)\.$/,
  );
  await expect(env.sandbox.stats()).resolves.toMatchObject({ creditsBilled: 10 });
  const card = scorecard(rt, 'IG Data vet');
  expect(card.lines.map((l) => [l[0], typeof l[3], typeof l[5]])).toEqual([
    ['nasa', 'number', 'number'],
    ['natgeo', 'number', 'string'],
    ['nike', 'number', 'string'],
  ]);
});

test("an account whose niche label reads like a message is scored, not taken for a note: a check failed by its outcome's code, not by the words in a cell", async () => {
  // The niche is a label derived from a stranger's posts: any text, a message's ending included.
  await env.sandbox.addAccount({ username: 'odd.niche', niche: 'Plant food (Not charged.)', followers: 5000 });
  await env.sandbox.addAccount({ username: 'paid.niche', niche: 'Vegan (Charged 5 credits.)', followers: 5000 });
  const rt = sheetWith(['odd.niche', 'paid.niche', 'locked_acc', 'nasa']);
  const checks = { checks: ['engagement', 'niche'], cap: 100 };
  const run = stepAll(rt, rt.call('igVetStart', checks).job);
  expect(run.job.status).toBe('done');
  const card = scorecard(rt, 'IG Data vet');
  for (const [a, niche] of [
    ['odd.niche', 'Plant food (Not charged.)'],
    ['paid.niche', 'Vegan (Charged 5 credits.)'],
  ]) {
    const line = card.byAccount(a);
    expect([a, line[2], line[7]]).toEqual([a, '', niche]);
    expect(['pass', 'fail']).toContain(line[1]);
    expect(line[3]).toBe(5000);
  }
  // The private account's note still says what its two checks cost (the sandbox bills a 404 at the full price: 2 + 3).
  const locked = card.byAccount('locked_acc');
  expect(locked.slice(1, 9)).toEqual([
    'no data',
    '@locked_acc is private: no public data. (Charged 5 credits for 2 checks.)',
    '',
    '',
    '',
    '',
    '',
    '',
  ]);
  expect(card.byAccount('nasa')[2]).toBe('');
  // The working columns right of the scorecard are emptied once the notes are written.
  expect(
    card.sheet
      .getValues()
      .slice(FIRST - 1)
      .every((r) => r.slice(HEADER.length).every((c) => c === '')),
  ).toBe(true);
});
