/**
 * What the two poll-days suites share (poll-days.test.ts and poll-days-every-minute.test.ts, split so that each
 * stays within a suite's 120 s budget and the two can run side by side). Three simulated days of the moving
 * sandbox, polled as Zapier polls: a check every 1, 5 or 15 minutes by plan, deduplication by id against every id Zapier has seen (its docs: items whose id
 * was seen before are dropped, the first poll of a Zap only fills the table). Every post the
 * hashtag gained (a burst of 100 at once mid-way included) is triggered exactly once, the credits
 * spent equal the pages read, and at the default "Check at most every 15 minutes" a tag costs the
 * trigger description's 96 credits a day (one page a check, plus the burst's extra pages)
 * whatever the plan's interval.
 */
import type { Sandbox } from '../../scripts/sandbox/server';
import { TEST_START } from '../../test/support/clock';
import { app, sandbox, tester } from './support';

const MIN = 60_000;
const DAYS = 3;
const TAG = 'veganrecipes';
const BURST = 100;

let sb: Sandbox;
let authData: { apiKey: string; baseUrl: string };

/** The hooks of a poll-days suite: each case its own sandbox, Zapier's memory check quieted. */
export function pollDaysSuite(): void {
  // Each case its own sandbox: a world's clock only moves forward.
  beforeEach(async () => {
    ({ sb, authData } = await sandbox());
  });
  afterEach(() => sb.close());
  afterEach(() => jest.useRealTimers());
  // Zapier's handler kills its process after 250 runs once it holds more than 450 MB (Zapier then
  // starts a fresh one); jest's process with the sandbox in it holds more, and thousands of checks
  // are the point here. The guard is Zapier's hosting, not the integration: it reads a small rss.
  beforeAll(() => {
    const real = process.memoryUsage.bind(process);
    jest.spyOn(process, 'memoryUsage').mockImplementation(() => ({ ...real(), rss: 100_000_000 }));
  });
}

/** Zapier's clock (the integration reads Date.now) and the sandbox's world, to the same instant. */
function moveTo(at: number) {
  jest.setSystemTime(at);
  sb.clock.moveTo(at);
}

/** Every post of the tag newer than `since`, straight from the sandbox (the truth to compare with). */
async function postsSince(since: number, key: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (;;) {
    const q: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const body: any = await (
      await fetch(`${sb.url}/v1/hashtag/recent?tag=${TAG}${q}`, { headers: { 'x-api-key': key } })
    ).json();
    const items = body.data.items as { id: string; taken_at: string }[];
    const newer = items.filter((p) => Date.parse(p.taken_at) > since);
    ids.push(...newer.map((p) => p.id));
    if (newer.length < items.length || !body.data.next_cursor) return ids;
    cursor = body.data.next_cursor;
  }
}

/**
 * One case: Zapier polling every `interval` minutes for three days, with "Check at most every" set to `every`
 * (undefined: the default 15), through the app's trigger as Zapier runs it, deduplicating by id as Zapier does.
 */
export async function pollDays(interval: number, every: number | undefined): Promise<void> {
  jest.useFakeTimers({ doNotFake: ['setTimeout', 'setImmediate', 'setInterval', 'nextTick', 'queueMicrotask'] });
  const start = Date.parse(TEST_START);
  moveTo(start);
  const key = await sb.createKey(1_000_000);
  const t = tester();
  const zap = `zap-${interval}-${every}`;
  const bundle = (meta: object) =>
    ({
      authData: { ...authData, apiKey: key },
      inputData: { tag: TAG, ...(every ? { every_minutes: every } : {}) },
      meta: { zap: { id: zap }, ...meta },
    }) as any;
  const dedupe = new Set<string>();
  for (const p of await t(app.triggers.new_post_in_hashtag.operation.perform, bundle({ isPopulatingDedupe: true })))
    dedupe.add(p.id);
  const triggered: string[] = [];
  const before = (await sb.stats()).byRequest;
  const end = start + DAYS * 24 * 60 * MIN;
  let checks = 0;
  const burstAt = start + 36 * 60 * MIN;
  for (let at = start + interval * MIN; at <= end; at += interval * MIN) {
    moveTo(at);
    // Mid-way, a burst of 100 posts at once: more than three pages, between two checks.
    if (at === burstAt) sb.addPosts(TAG, BURST);
    const got = await t(app.triggers.new_post_in_hashtag.operation.perform, bundle({}));
    checks++;
    for (const p of got) {
      if (dedupe.has(p.id)) continue;
      dedupe.add(p.id);
      triggered.push(p.id);
    }
  }
  const after = (await sb.stats()).byRequest;
  const truth = await postsSince(start, sb.demoKey);
  expect(truth.length).toBeGreaterThan(20);
  expect(new Set(triggered)).toEqual(new Set(truth)); // none missed, none extra
  expect(triggered.length).toBe(new Set(triggered).size); // none twice
  const pages = Object.entries(after)
    .filter(([k]) => k.startsWith('hashtag/recent?'))
    .reduce((n, [k, v]) => n + v - (before[k] ?? 0), 0);
  const spent = 1_000_000 - 1 - (await sb.balance(key)); // the populating page was 1 credit
  expect(spent).toBe(pages);
  const period = Math.max(interval, every ?? 15);
  const periods = (DAYS * 24 * 60) / period; // one check a period, one page each...
  const extra = pages - periods; // ...but the burst's check, which reads its 4 or 5 pages
  expect(extra).toBeGreaterThanOrEqual(Math.ceil(BURST / 30) - 1);
  expect(extra).toBeLessThanOrEqual(Math.ceil(BURST / 30));
  if ((every ?? 15) === 15) expect(spent - extra).toBe(96 * DAYS); // the description's "96 credits a day"
  expect(checks).toBe((DAYS * 24 * 60) / interval);
}
