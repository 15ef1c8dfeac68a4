/**
 * The change rule (core/src/change-rule.ts): words both ways, crossings against a model of the
 * rule written apart from it, its state's size, and the price of a check from the registry.
 */
import fc from 'fast-check';
import {
  MEASURES,
  checkCost,
  checkRule,
  crossingsOf,
  describeRule,
  estimateCost,
  getEndpoint,
  parseRule,
  type ChangeRule,
  type Measure,
  type RuleState,
} from '../src/index';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = Date.parse('2026-11-25T10:00:00Z');

describe('in words', () => {
  it.each([
    [
      'followers down 5% since the previous check',
      { measure: 'followers', comparison: 'down', threshold: 5, baseline: 'previous' },
    ],
    ['followers down 5% over 7 days', { measure: 'followers', comparison: 'down', threshold: 5, baseline: 7 }],
    ['engagement rate under 1%', { measure: 'engagement_rate', comparison: 'under', threshold: 1 }],
    ['posts over 300', { measure: 'posts', comparison: 'over', threshold: 300 }],
    ['average likes up 12.5% over 1 day', { measure: 'avg_likes', comparison: 'up', threshold: 12.5, baseline: 1 }],
  ])('"%s"', (text, rule) => {
    expect(parseRule(text)).toEqual(rule);
    expect(describeRule(rule as ChangeRule)).toBe(text);
  });

  it('reads close forms', () => {
    expect(parseRule('  Followers fell by 10 %  in 3 days')).toEqual(parseRule('followers down 10% over 3 days'));
    expect(parseRule('ER below 2,5%')).toEqual(parseRule('engagement rate under 2.5%'));
    expect(parseRule('follower rose 5% since the last run')).toEqual(
      parseRule('followers up 5% since the previous check'),
    );
  });

  it.each([
    [
      'followers are low',
      /Not a rule: "followers are low"\. Write it like "followers down 5% since the previous check"/,
    ],
    ['likers down 5% over 7 days', /Not a measure: "likers"\. Measures: followers, following, posts, engagement rate/],
    ['followers down 5%', /Say the baseline of "followers down 5%": "since the previous check" or "over 7 days"/],
    ['followers down 5 over 7 days', /A change is in %/],
    ['followers under 5%', /followers is a count, not a percentage/],
    ['followers down 120% over 7 days', /at most 100 %/],
    ['followers down 5% over 0 days', /a number of days from 1 to 365/],
    ['engagement rate under 1% over 7 days', /compares the value itself/],
  ])('refuses "%s" with a sentence', (text, message) => {
    expect(() => parseRule(text)).toThrow(message);
  });

  it('any rule reads back from its words', () => {
    const rule = fc.oneof(
      fc.record({
        measure: fc.constantFrom(...(Object.keys(MEASURES) as Measure[])),
        comparison: fc.constantFrom('down' as const, 'up' as const),
        threshold: fc.integer({ min: 1, max: 10_000 }).map((n) => n / 100),
        baseline: fc.oneof(fc.constant('previous' as const), fc.integer({ min: 1, max: 365 })),
      }),
      fc.record({
        measure: fc.constantFrom(...(Object.keys(MEASURES) as Measure[])),
        comparison: fc.constantFrom('under' as const, 'over' as const),
        threshold: fc.integer({ min: 0, max: 10_000_000 }).map((n) => n / 100),
      }),
    );
    fc.assert(fc.property(rule, (r) => expect(parseRule(describeRule(r))).toEqual(r)));
  });
});

/** A model of "fires when it becomes true, again only after it was false", apart from the code. */
function modelCount(truths: boolean[]): number {
  let n = 0;
  let was = false;
  for (const t of truths) {
    if (t && !was) n++;
    was = t;
  }
  return n;
}

describe('crossings', () => {
  const series = (values: number[], every = HOUR) => values.map((value, i) => ({ at: T0 + i * every, value }));

  it('a value rule already true at the first check fires once, then only after it was false', () => {
    const rule = parseRule('engagement rate under 1%');
    const c = crossingsOf(rule, series([0.8, 0.7, 1.2, 1.0, 0.99, 0.5, 3]), 'veganfoodie');
    expect(c.map((x) => [x.at - T0, x.before, x.after])).toEqual([
      [0, null, 0.8],
      [4 * HOUR, 1.0, 0.99],
    ]);
    expect(c[0]).toMatchObject({
      account: 'veganfoodie',
      rule: 'engagement rate under 1%',
      change: null,
      beforeAt: null,
    });
    expect(c[1].change).toBeCloseTo(-0.01, 9);
    expect(c[1].changePct).toBeCloseTo(-1, 9);
  });

  it('value rules: as many crossings as the model, for any series', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('under' as const, 'over' as const),
        fc.integer({ min: 0, max: 100 }),
        fc.array(fc.integer({ min: 0, max: 100 }), { maxLength: 60 }),
        (comparison, threshold, values) => {
          const rule: ChangeRule = { measure: 'followers', comparison, threshold };
          const truths = values.map((v) => (comparison === 'under' ? v < threshold : v > threshold));
          expect(crossingsOf(rule, series(values)).length).toBe(modelCount(truths));
        },
      ),
    );
  });

  it('"since the previous check": as many crossings as the model, each with its before, after and change', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('down' as const, 'up' as const),
        fc.integer({ min: 1, max: 50 }),
        fc.array(fc.integer({ min: 0, max: 200 }), { maxLength: 60 }),
        (comparison, threshold, values) => {
          const rule: ChangeRule = { measure: 'followers', comparison, threshold, baseline: 'previous' };
          const truths = values.map((v, i) => {
            const b = values[i - 1];
            if (i === 0 || b === 0) return false;
            const pct = ((v - b) / b) * 100;
            return comparison === 'down' ? pct <= -threshold : pct >= threshold;
          });
          const c = crossingsOf(rule, series(values));
          expect(c.length).toBe(modelCount(truths));
          for (const x of c) {
            const i = (x.at - T0) / HOUR;
            expect([x.before, x.after, x.change]).toEqual([values[i - 1], values[i], values[i] - values[i - 1]]);
          }
        },
      ),
    );
  });

  it('"over N days": steps apart by more than N days fire once each; noise under the threshold never fires', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10 }), // N
        fc.integer({ min: 1, max: 24 }), // hours between checks
        fc.array(fc.integer({ min: -100, max: 100 }), { minLength: 200, maxLength: 400 }), // noise, in 1/10,000
        fc.integer({ min: 0, max: 3 }), // steps
        (days, everyHours, noise, steps) => {
          const rule: ChangeRule = { measure: 'followers', comparison: 'down', threshold: 5, baseline: days };
          const every = everyHours * HOUR;
          // each step falls 10 %; noise keeps the value within ±1 % of its level
          const gap = Math.ceil(((days + 2) * DAY) / every);
          const at = Array.from({ length: steps }, (_, k) => 3 + k * gap);
          const values = noise.map((n, i) => {
            const level = 0.9 ** at.filter((s) => s <= i).length;
            return 100_000 * level * (1 + n / 10_000);
          });
          const expected = at.filter((s) => s < values.length).length;
          const c = crossingsOf(rule, series(values, every));
          expect(c.length).toBe(expected);
          for (const [k, x] of c.entries()) expect((x.at - T0) / every).toBe(at[k]);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('"over 7 days" compares with the check 7 days ago to within 1/24 of the period, and with the first check before then', () => {
    const rule = parseRule('followers down 5% over 7 days');
    // a slow fall of 1 % a day: over a week, 6.8 %
    const values = Array.from({ length: 24 * 10 }, (_, h) => 10_000 * 0.99 ** (h / 24));
    const c = crossingsOf(rule, series(values));
    expect(c.length).toBe(1);
    const age = c[0].at - (c[0].beforeAt as number);
    expect(age).toBeGreaterThanOrEqual(5 * DAY); // 5 % is lost in about 5.1 days: the first check's baseline
    expect(c[0].beforeAt).toBe(T0);
    // once the watch is older than a week, the baseline's age stays within [7 days, 7 days + 7 hours]
    let state: RuleState | undefined;
    for (let h = 0; h < 24 * 30; h++) {
      const r = checkRule(parseRule('followers down 0.01% over 7 days'), state, T0 + h * HOUR, { a: 10_000 - h });
      state = r.state;
      const kept = state.accounts.a.h;
      if (h >= 7 * 24) {
        const base = kept.filter(([t]) => t <= T0 + h * HOUR - 7 * DAY).pop()!;
        expect(T0 + h * HOUR - base[0]).toBeGreaterThanOrEqual(7 * DAY);
        expect(T0 + h * HOUR - base[0]).toBeLessThanOrEqual(7 * DAY + 7 * HOUR);
      }
      expect(kept.length).toBeLessThanOrEqual(26);
    }
  });
});

describe('state', () => {
  it('is small plain JSON: a month of hourly checks of 20 accounts keeps at most 26 checks an account', () => {
    let state: RuleState | undefined;
    const rule = parseRule('followers down 5% over 7 days');
    for (let i = 0; i < (30 * DAY) / HOUR; i++) {
      const values: Record<string, number> = {};
      for (let a = 0; a < 20; a++) values[`account.${a}`] = 10_000 + ((i * 7 + a) % 13);
      state = checkRule(rule, state, T0 + i * HOUR, values).state;
    }
    expect(JSON.parse(JSON.stringify(state))).toEqual(state);
    for (const a of Object.values(state!.accounts)) expect(a.h.length).toBeLessThanOrEqual(26);
    // n8n's static data, z.cache and a Sheets property (9 KB a value) all hold it
    expect(JSON.stringify(state).length).toBeLessThan(20 * 700);
  });

  it('is not changed in place; a failed lookup keeps an account as it was; an account no longer watched is dropped', () => {
    const rule = parseRule('followers down 5% since the previous check');
    const s1 = checkRule(rule, undefined, T0, { a: 100, b: 100 }).state;
    const copy = JSON.parse(JSON.stringify(s1));
    const r = checkRule(rule, s1, T0 + HOUR, { a: undefined, c: 50 });
    expect(s1).toEqual(copy);
    expect(Object.keys(r.state.accounts)).toEqual(['a', 'c']);
    expect(r.state.accounts.a).toEqual(s1.accounts.a);
    // a's next check is against its last known value
    expect(checkRule(rule, r.state, T0 + 2 * HOUR, { a: 90 }).crossings[0]).toMatchObject({ before: 100, after: 90 });
  });

  it('a check refuses a malformed rule with a sentence', () => {
    expect(() => checkRule({ measure: 'followers', comparison: 'down', threshold: 5 }, undefined, T0, {})).toThrow(
      /needs its baseline: "previous" \(since the previous check\) or a number of days/,
    );
    expect(() =>
      checkRule({ measure: 'likes' as Measure, comparison: 'under', threshold: 5 }, undefined, T0, {}),
    ).toThrow(/The measure must be one of followers, following, posts, engagement_rate/);
  });
});

it("a check's price comes from the registry: 1 credit a profile, the engagement insight's price for its measures", () => {
  const profile = estimateCost(getEndpoint('profile'), {}).credits;
  const engagement = estimateCost(getEndpoint('insights/profile/engagement'), {}).credits;
  expect(profile).toBe(1);
  expect(engagement).toBeGreaterThan(1);
  expect(checkCost(['followers'], 20)).toBe(20 * profile);
  expect(checkCost(['engagement_rate', 'avg_likes'], 3)).toBe(3 * engagement);
  expect(checkCost(['followers', 'engagement_rate'], 2)).toBe(2 * (profile + engagement));
  for (const m of Object.values(MEASURES)) expect(getEndpoint(m.endpoint).columns).toContain(m.field);
});
