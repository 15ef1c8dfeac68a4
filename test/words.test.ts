/**
 * Plurals right everywhere (issue 39): every user-facing sentence template built with a count of
 * credits, rows, accounts or posts, with counts 0, 1 and 2: core's words and messages (charges,
 * every error code's sentence, a run's stop and refusal, paging notices, cost sentences), the
 * OpenAPI document's and the MCP tools' descriptions, the sidebar's; none says "1 credits" or
 * "2 credit". The products count through core's one helper (plural.ts): the sources hold no
 * hand-made plural. Names join without a doubled word ("IG Data tracker Tracker 1").
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  ERROR_REFERENCE,
  IgApiError,
  IgConnectionError,
  IgCreditCapError,
  IgSchemaError,
  RunRefusedError,
  RunStoppedError,
  buildOpenApi,
  chargedNote,
  chargesNote,
  costSentence,
  counted,
  describeStop,
  endpoints,
  getEndpoint,
  joinName,
  noun,
  plural,
  prepare,
  runErrorMessage,
  userMessage,
  type EndpointDef,
  type MessageContext,
} from '@igdata/core';
import { allTools } from '../scripts/sandbox/mcp/tools';
import { benchmarkCostText, busyRunQuestion, count, selectionLabel } from '../sheets-addon/src/sidebar/counts';

const COUNTS = [0, 1, 2] as const;
const WORDS = ['credit', 'row', 'account', 'post'];
const ROOT = path.join(__dirname, '..');

/** What reads wrong in `text`: "1 credits" (and the other words), or "0 credit", "2 credit", "1,500 row". */
function slips(text: string): string[] {
  const words = WORDS.join('|');
  const one = new RegExp(`(?<![\\d,.])1 (?:${words})s\\b`, 'g');
  const many = new RegExp(`(?<![\\d,.])(?:0|[2-9]|[1-9][\\d,]*\\d)(?:\\.\\d+)? (?:${words})(?![\\w-])`, 'g');
  return [...(text.match(one) ?? []), ...(text.match(many) ?? [])];
}

/** Every sentence of `make(n)` for n in 0, 1, 2; fails naming the sentence that slips. */
function walk(make: (n: number) => string | string[]): string[] {
  const all = COUNTS.flatMap((n) => make(n));
  for (const s of all) expect([s, slips(s)]).toEqual([s, []]);
  return all;
}

const ctx: MessageContext = {
  keyWhere: 'Settings',
  call: prepare('profile', { handle: 'nasa' }),
  capWhere: 'Options > Credit Cap',
  capOff: '0 for no cap',
  splitWith: 'with Loop Over Items',
};

test('the test finds the slips it is for', () => {
  expect(slips('First run done: 1 credits.')).toEqual(['1 credits']);
  expect(slips('Cost: 2 per page credits. 2 credit, 0 row, 1,500 account; 1 rows; 1 posts')).toEqual([
    '1 rows',
    '1 posts',
    '2 credit',
    '0 row',
    '1,500 account',
  ]);
  expect(
    slips('1 credit, 2 credits, 0 rows, 1,500 accounts, 2-6 credits, 12 posts, 1.5 posts, 2 credits-worth'),
  ).toEqual([]);
});

test("core's words: plural, counted, noun and the charge notes, at 0, 1 and 2", () => {
  walk((n) => WORDS.flatMap((w) => [plural(n, w), counted(n, w), `${n} ${noun(n, w)}`]));
  expect(plural(1, 'credit')).toBe('1 credit');
  expect(counted(1500, 'row')).toBe('1,500 rows');
  expect(plural(2, 'entry', 'entries')).toBe('2 entries');
  walk((n) => [
    chargedNote({ charged: n }),
    chargedNote({ charged: 0, first: { charged: n, at: Date.UTC(2026, 11, 2) } }),
    chargedNote({ charged: n, lostSends: 1 }),
    chargesNote([{ charged: n }, { charged: 0, first: { charged: n } }], 'check'),
    chargesNote([{ charged: n }], 'check'),
  ]);
});

test("core's messages: every error code's sentence, a connection, a schema, the cap, a run's stop and refusal", () => {
  const said = walk((n) => [
    ...ERROR_REFERENCE.map((e) =>
      userMessage(
        new IgApiError(e.status, e.code, 'handle is required', {
          creditsCharged: n,
          creditsRemaining: n,
          attempts: n || 1,
        }),
        ctx,
      ),
    ),
    userMessage(Object.assign(new IgConnectionError('socket hang up', n || 1), { lostSends: n }), ctx),
    userMessage(new IgSchemaError('profile', ['data.followers: expected a number'], n, 'req_1'), ctx),
    userMessage(new IgCreditCapError(10, n, 2), ctx),
    new IgCreditCapError(10, n, 2).message,
    runErrorMessage(new RunRefusedError('cap', n, { calls: n, credits: n, largest: 1 }, { runs: n, spent: n }), ctx),
    runErrorMessage(new RunRefusedError('balance', n, { calls: n, credits: n, largest: 1 }), ctx),
    runErrorMessage(
      new RunStoppedError(new IgApiError(402, 'insufficient_credits', 'empty', { creditsRemaining: 0 }), {
        calls: n + 1,
        answered: n,
        spent: n,
        items: n + 1,
        delivered: n,
      }),
      ctx,
    ),
  ]);
  expect(said).toContain('Out of credits: 1 left. Top up to continue. (Charged 1 credit.)');
});

test('paging notices, at 0, 1 and 2 pages, items and credits', () => {
  const stops = ['end', 'items', 'pages', 'credits', 'until', 'time', 'error'] as const;
  walk((n) =>
    stops.map((stoppedBy) =>
      describeStop(
        {
          items: Array.from({ length: n }, () => ({})),
          pages: n,
          creditsCharged: n,
          stoppedBy,
          error: new IgApiError(502, 'upstream_error', 'down'),
        } as unknown as Parameters<typeof describeStop>[0],
        { maxItems: n, maxPages: n, maxCredits: n },
      ),
    ),
  );
});

test('cost sentences, the OpenAPI document and the MCP tools: "Cost: 1 credit.", never "1 credits" or "2 per page credits"', () => {
  const profile = getEndpoint('profile');
  const priced = (credits: number, exact: boolean, paginated: boolean): EndpointDef => ({
    ...profile,
    cost: { type: 'flat', credits, exact },
    paginated,
  });
  walk((n) => [true, false].flatMap((exact) => [true, false].map((paged) => costSentence(priced(n, exact, paged)))));
  expect(costSentence(priced(1, true, false))).toBe('Cost: 1 credit.');
  expect(costSentence(priced(2, true, true))).toBe('Cost: 2 credits per page.');
  const paths = buildOpenApi('https://api.test').paths as Record<string, { get: { description: string } }>;
  const described = Object.values(paths).map((p) => p.get.description);
  for (const d of described) {
    expect([d, slips(d)]).toEqual([d, []]);
    expect(d).not.toMatch(/per page credits|Cost: [\d-]+ credits?\.? credits/);
  }
  expect(described.some((d) => d.includes('Cost: 1 credit.'))).toBe(true);
  const tools = allTools();
  expect(tools).toHaveLength(endpoints.length);
  for (const t of tools) expect([t.name, slips(String(t.description))]).toEqual([t.name, []]);
});

test("the sidebar's counts, at 0, 1 and 2: selections, credits, rows, and the question about another run", () => {
  walk((n) => [
    ...WORDS.map((w) => count(n, w)),
    selectionLabel({ a1: 'Sheet1!A2:A3', rows: n, columns: 1 }),
    busyRunQuestion(
      { status: 'paused', rows: n + 2, next: 2 } as Parameters<typeof busyRunQuestion>[0],
      'IGPROFILE, Sheet1',
      'Vet instead',
    ),
    `Tracking. First run done: ${count(n, 'credit')}.`,
    benchmarkCostText({
      accounts: n,
      creditsEach: n,
      parts: [{ fn: 'IGENGAGEMENT', creditsEach: n, kept: n }],
      now: n,
      kept: n,
      uncapped: n + 1,
      perRun: n,
      perMonth: n,
      when: 'weekly on Monday at 07:00',
      nextLabel: 'Mon 14 Dec 07:00',
      balance: n,
      enough: false,
    }),
    benchmarkCostText({
      accounts: n,
      creditsEach: n,
      parts: [{ fn: 'IGENGAGEMENT', creditsEach: n, kept: 0 }],
      now: n,
      kept: 0,
      uncapped: n,
      perRun: n,
      perMonth: 0,
      when: 'not refreshed',
      nextLabel: '',
      balance: n,
    }),
  ]);
  expect(
    benchmarkCostText({
      ...{ accounts: 3, creditsEach: 2, parts: [], now: 6, kept: 0, uncapped: 6, perRun: 6, perMonth: 0 },
      ...{ when: 'not refreshed', nextLabel: '' },
    }),
  ).toBe('Now: 6 credits. Not refreshed: the report stays as this run leaves it.');
  expect(count(1, 'credit')).toBe('1 credit');
  expect(count(1500, 'row')).toBe('1,500 rows');
  expect(count(undefined, 'credit')).toBe('– credits');
});

test('the products count through the one helper: no hand-made plural in their sources', () => {
  const dirs = ['core/src', 'sheets-addon/src', 'n8n-node/nodes', 'zapier/src'];
  const files = dirs.flatMap((d) =>
    (fs.readdirSync(path.join(ROOT, d), { recursive: true }) as string[])
      .filter((f) => f.endsWith('.ts') && f !== 'plural.ts')
      .map((f) => path.join(d, f)),
  );
  expect(files.length).toBeGreaterThan(100);
  const handMade = [
    // n === 1 ? '' : 's', and the same with a word: === 1 ? 'row' : 'rows'
    /=== 1 \? '' : 's'/,
    /=== 1 \? '\w+' : '\w+s'/,
    // a number joined to a count word by hand: fmt(n) + ' credits', x.rows + ' rows'
    /(?:fmt\([^)]*\)|\b\w+\.\w+|\d)\s*\+\s*'\s(?:credits?|rows?|accounts?|posts?|alerts?|pages?|items?|checks?|emails?)\b/,
    // a template's number before a count word: `${n} credits`
    // (a range, "2-6 credits", is plural whatever its numbers)
    /(?<!-)\$\{(?![^}]*\b(?:plural|counted|noun|count)\()[^}]+\} (?:credits?|rows?|accounts?|posts?|alerts?|pages?|items?|checks?|emails?)\b/,
  ];
  const found = files.flatMap((f) =>
    fs
      .readFileSync(path.join(ROOT, f), 'utf8')
      .split('\n')
      .flatMap((line, i) => (handMade.some((re) => re.test(line)) ? [`${f}:${i + 1}: ${line.trim()}`] : [])),
  );
  expect(found).toEqual([]);
});

test('names join without a doubled word', () => {
  expect(joinName('IG Data tracker', 'Tracker 1')).toBe('IG Data tracker 1');
  expect(joinName('Tracker', 'Tracker 1')).toBe('Tracker 1');
  expect(joinName('IG Data watch', 'Watch vegan')).toBe('IG Data watch vegan');
  expect(joinName('IG Data tracker', 'Competitors')).toBe('IG Data tracker Competitors');
  const doubled = /\b(\w+) \1\b/i;
  for (const name of ['Tracker 1', 'Competitors', 'tracker', 'Watch'])
    for (const prefix of ['IG Data tracker', 'Tracker', 'IG Data watch', 'Watch'])
      expect(joinName(prefix, name)).not.toMatch(doubled);
});
