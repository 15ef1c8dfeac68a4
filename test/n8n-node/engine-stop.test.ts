/**
 * A run of the action node's engine that stops part-way keeps what was paid for: a balance drained
 * by another consumer, a stop with requests in flight, a short balance or a revoked key below the
 * balance check, a list cut by the stop. In-process against the real sandbox (engine-kit.ts).
 */
import { fetchIO, isRunStoppedError } from '@igdata/core';
import { runItemCalls } from '../../n8n-node/nodes/IgData/engine';
import { errorJson, failureMessage } from '../../n8n-node/nodes/IgData/output';
import { errorOf, job, meanwhile, ok, posts, sb, useSandbox } from './engine-kit';

useSandbox();

describe('a run that stops part-way keeps what was paid for', () => {
  test('a balance drained by another consumer mid-run: every paid answer delivered, nothing sent after the stop, the rest not looked up', async () => {
    const key = sb.createKey(1000);
    const shortcodes = posts(500);
    // The 1st answer is the balance read; at the 301st the other consumer empties the key.
    const io = meanwhile((n) => n === 301 && sb.setBalance(key, 0));
    const out = await runItemCalls(
      { apiKey: key, baseUrl: sb.url },
      shortcodes.map((post) => job('post', { post })),
      io,
      { concurrency: 1 },
    );
    const stats = sb.stats();
    expect(stats).toMatchObject({
      creditsBilled: 300,
      byEndpoint: { credits: 1, post: 301 },
      byStatus: { 200: 301, 402: 1 },
    });
    out.slice(0, 300).forEach((o, i) => expect(ok(o).items[0].shortcode).toBe(shortcodes[i]));
    const missing = out.slice(300).map(errorOf);
    expect(missing.every(isRunStoppedError)).toBe(true);
    expect(failureMessage(missing[0] as never)).toBe(
      'Not looked up. Stopped after 300 of 500 lookups: your credit balance is empty. 300 credits spent; 300 items delivered, 200 not looked up. ' +
        'Top up, then run again for the items not looked up. (Not charged.)',
    );
    expect(errorJson(missing[0])).toMatchObject({ code: 'insufficient_credits', credits_charged: 0 });
  });

  test('with requests in flight, the stop is at once: no more than the concurrency sent after the first 402', async () => {
    const key = sb.createKey(1000);
    sb.setFaults({ latencyMs: 5 });
    const io = meanwhile((n) => n === 201 && sb.setBalance(key, 0));
    const out = await runItemCalls(
      { apiKey: key, baseUrl: sb.url },
      posts(500).map((post) => job('post', { post })),
      io,
      { concurrency: 10 },
    );
    const stats = sb.stats();
    const delivered = out.filter((o) => o?.ok).length;
    expect(delivered).toBe(stats.creditsBilled); // every paid answer delivered
    expect(stats.byStatus[402]).toBeLessThanOrEqual(10);
    expect(stats.byEndpoint.post).toBe(delivered + stats.byStatus[402]);
    const missing = out.filter((o) => !o?.ok).map(errorOf);
    expect(missing).toHaveLength(500 - delivered);
    expect(missing.every(isRunStoppedError)).toBe(true);
    expect(failureMessage(missing[0] as never)).toContain(
      `Stopped after ${delivered} of 500 lookups: your credit balance is empty. ${delivered} credits spent; ${delivered} items delivered, ${500 - delivered} not looked up.`,
    );
  });

  test('below the balance check a short balance stops at the first 402; a revoked key at the first 401', async () => {
    const poor = sb.createKey(5);
    const out = await runItemCalls(
      { apiKey: poor, baseUrl: sb.url },
      posts(8).map((post) => job('post', { post })),
      fetchIO(),
      { concurrency: 1 },
    );
    expect(out.map((o) => o?.ok)).toEqual([true, true, true, true, true, false, false, false]);
    expect(sb.stats()).toMatchObject({ total: 6, creditsBilled: 5 });
    expect(failureMessage(errorOf(out[7]) as never)).toMatch(
      /^Not looked up\. Stopped after 5 of 8 lookups: your credit balance is empty\. 5 credits spent; 5 items delivered, 3 not looked up\./,
    );

    sb.resetStats();
    const revoked = sb.createKey(100);
    const io = meanwhile((n) => n === 3 && sb.revokeKey(revoked));
    const cut = await runItemCalls(
      { apiKey: revoked, baseUrl: sb.url },
      posts(8).map((post) => job('post', { post })),
      io,
      { concurrency: 1 },
    );
    expect(cut.filter((o) => o?.ok)).toHaveLength(3);
    expect(sb.stats()).toMatchObject({ total: 4, creditsBilled: 3 });
    expect(errorJson(errorOf(cut[5]))).toMatchObject({
      code: 'invalid_api_key',
      error:
        'Not looked up. Stopped after 3 of 8 lookups: the API key was refused (invalid or revoked). 3 credits spent; 3 items delivered, 5 not looked up. ' +
        'Set a valid key in the IG Data API credential of this node, then run again for the items not looked up. (Not charged.)',
    });
  });

  test('a list cut by the stop keeps its pages', async () => {
    const key = sb.createKey(1000);
    const io = meanwhile((n) => n === 4 && sb.setBalance(key, 0)); // the balance read, then 3 pages
    const [list] = await runItemCalls(
      { apiKey: key, baseUrl: sb.url },
      [job('hashtag/recent', { tag: 'veganrecipes' }, { limit: 330 })],
      io,
      { concurrency: 1 },
    );
    const l = ok(list);
    expect(l.items).toHaveLength(90);
    expect(l.meta).toMatchObject({ pages: 3, stopped_by: 'error', credits_charged: 3 });
    expect(l.notice).toMatch(/^Stopped after 3 pages \(90 items kept, 3 credits\): /);
  });
});
