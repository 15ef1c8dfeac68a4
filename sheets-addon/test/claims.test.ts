/**
 * Claims, driven by hand: an in-memory document (answers + claim items) with a virtual clock, and
 * "other executions" acting while this one sleeps. The cross-execution behaviour over real threads
 * and HTTP is in test/sheets/concurrency.test.ts.
 */
import type { CachedAnswer as CachedOutcome, ClaimStore } from '../src/engine/types';
import { CLAIM_MS, heldByOthers, parseClaims, fetchClaimed, takeClaims } from '../src/engine/claims';

const answer = (n: number): CachedOutcome => ({ ok: true, data: { n }, next: null, charged: 1, at: n });

function documentWith(opts: { lockBusy?: boolean } = {}) {
  const doc = {
    now: 1_000_000,
    answers: new Map<string, CachedOutcome>(),
    raw: undefined as string | undefined,
    rounds: 0,
  };
  const onSleep: ((now: number) => void)[] = [];
  const store: ClaimStore = {
    now: () => doc.now,
    sleep: (ms) => {
      doc.now += ms;
      onSleep.forEach((f) => f(doc.now));
    },
    round(owner, wanted, publish, max) {
      if (opts.lockBusy) return null;
      doc.rounds++;
      const answers = new Map(
        wanted.filter((k) => doc.answers.has(k)).map((k) => [k, doc.answers.get(k) as CachedOutcome]),
      );
      const candidates = wanted.filter((k) => !answers.has(k));
      const r = takeClaims(parseClaims(doc.raw, doc.now), owner, candidates, max, doc.now + CLAIM_MS);
      publish.forEach((v, k) => doc.answers.set(k, v));
      doc.raw = r.text ?? undefined;
      return {
        answers,
        taken: r.taken,
        others: r.others,
        full: r.taken.length < Math.min(max, candidates.length - r.others.size),
      };
    },
    peek(owner, wanted) {
      const answers = new Map(
        wanted.filter((k) => doc.answers.has(k)).map((k) => [k, doc.answers.get(k) as CachedOutcome]),
      );
      return { answers, others: heldByOthers(parseClaims(doc.raw, doc.now), owner, wanted) };
    },
    publishLoose: (publish) => publish.forEach((v, k) => doc.answers.set(k, v)),
  };
  /** Another execution claims `keys` now (as its round would). */
  const claimElsewhere = (keys: string[], owner = 'other') => {
    doc.raw = takeClaims(parseClaims(doc.raw, doc.now), owner, keys, keys.length, doc.now + CLAIM_MS).text ?? undefined;
  };
  return { doc, store, onSleep, claimElsewhere };
}

function sender() {
  const sent: string[][] = [];
  const send = (keys: string[]) => {
    sent.push(keys);
    return new Map(keys.map((k) => [k, answer(Number(k.slice(1)))]));
  };
  return { sent, send };
}

test('alone: claims in batches, sends each key once, publishes the answers and leaves no claim', () => {
  const { doc, store } = documentWith();
  const { sent, send } = sender();
  const run = fetchClaimed(['k1', 'k2', 'k3', 'k4', 'k5'], { store, batchSize: 2, inTime: () => true, send });
  expect(sent).toEqual([['k1', 'k2'], ['k3', 'k4'], ['k5']]);
  expect(run).toMatchObject({ late: [], unclaimed: 0 });
  expect([...doc.answers.keys()].sort()).toEqual(['k1', 'k2', 'k3', 'k4', 'k5']);
  expect(parseClaims(doc.raw, doc.now).size).toBe(0);
});

test('a live claim of another execution is waited for, not sent; its answer is used', () => {
  const { doc, store, onSleep, claimElsewhere } = documentWith();
  claimElsewhere(['k1', 'k2']);
  const publishAt = doc.now + 300;
  onSleep.push((now) => {
    if (now >= publishAt) ['k1', 'k2'].forEach((k) => doc.answers.set(k, answer(100)));
  });
  const { sent, send } = sender();
  const run = fetchClaimed(['k1', 'k2', 'k3'], { store, batchSize: 50, inTime: () => true, send });
  expect(sent).toEqual([['k3']]);
  expect([...run.fromOthers.keys()].sort()).toEqual(['k1', 'k2']);
  expect(run.waitedMs).toBeGreaterThanOrEqual(300);
  expect(run.late).toEqual([]);
});

test('the owner died: its claim expires by itself and the request is taken over', () => {
  const { store, claimElsewhere } = documentWith();
  claimElsewhere(['k1'], 'crashed');
  const { sent, send } = sender();
  const run = fetchClaimed(['k1'], { store, batchSize: 50, inTime: () => true, send });
  expect(sent).toEqual([['k1']]);
  expect(run.waitedMs).toBeGreaterThanOrEqual(CLAIM_MS);
  expect(run.waitedMs).toBeLessThan(CLAIM_MS + 1000);
});

test('nobody waits past its budget: a request still claimed then is late, never sent twice', () => {
  const { doc, store, claimElsewhere } = documentWith();
  claimElsewhere(['k1']);
  const deadline = doc.now + 2000;
  const { sent, send } = sender();
  const run = fetchClaimed(['k1', 'k2'], { store, batchSize: 50, inTime: () => doc.now <= deadline, send });
  expect(sent).toEqual([['k2']]);
  expect(run.late).toEqual(['k1']);
  expect(doc.now).toBeLessThanOrEqual(deadline + 100);
});

test("lock busy (a bulk step holds it): others' claims are still waited for, free requests go unclaimed", () => {
  const { doc, store, onSleep } = documentWith({ lockBusy: true });
  doc.raw = takeClaims(new Map(), 'other', ['k1'], 1, doc.now + CLAIM_MS).text ?? undefined;
  onSleep.push(() => doc.answers.set('k1', answer(1)));
  const { sent, send } = sender();
  const run = fetchClaimed(['k1', 'k2'], { store, batchSize: 50, inTime: () => true, send });
  expect(sent).toEqual([['k2']]);
  expect(run.unclaimed).toBe(1);
  expect([...run.fromOthers.keys()]).toEqual(['k1']);
  expect(doc.answers.has('k2')).toBe(true); // published loose at the end
});

test("the claim item: expired or unreadable entries are no claim; an owner's next round drops its old claims", () => {
  const now = 5000;
  expect([
    ...parseClaims(
      JSON.stringify({ a: [now + 10, 'x'], b: [now - 1, 'x'], c: ['soon', 'x'], d: [now + 10, 7] }),
      now,
    ).keys(),
  ]).toEqual(['a']);
  expect(parseClaims('not json', now).size).toBe(0);
  const r = takeClaims(parseClaims(JSON.stringify({ a: [now + 10, 'x'] }), now), 'x', ['d'], 5, now + CLAIM_MS);
  expect(r.taken).toEqual(['d']);
  expect([...parseClaims(r.text ?? undefined, now).keys()]).toEqual(['d']);
  expect(takeClaims(parseClaims(r.text ?? undefined, now), 'x', [], 0, now).text).toBeNull(); // the last round leaves no item
});

test('a round reads a bounded window: requests others hold are asked last, the free ones are still found and claimed', () => {
  const { doc, store, onSleep, claimElsewhere } = documentWith();
  const keys = Array.from({ length: 120 }, (_, i) => `k${i}`);
  claimElsewhere(keys.slice(0, 100));
  onSleep.push(() => keys.slice(0, 100).forEach((k) => doc.answers.set(k, answer(0))));
  const windowed: ClaimStore = {
    ...store,
    round: (owner, wanted, publish, max) => {
      const r = store.round(owner, wanted.slice(0, 2 * max), publish, max);
      return r && { ...r, others: heldByOthers(parseClaims(doc.raw, doc.now), owner, wanted) };
    },
  };
  const { sent, send } = sender();
  const run = fetchClaimed(keys, { store: windowed, batchSize: 50, inTime: () => true, send });
  expect(sent).toEqual([keys.slice(100)]);
  expect(run.fromOthers.size).toBe(100);
  expect(run).toMatchObject({ late: [], unclaimed: 0 });
});
