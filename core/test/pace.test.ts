/**
 * The pace rule (core/src/pace.ts) step by step, with the times given: the first wave, growth
 * on fast answers up to what the run asked for at once, the cut to what the service admitted on a 429,
 * no growth past a refused width until it is forgotten, the user's Concurrency as ceiling.
 */
import { FIRST_WAVE, Pace } from '../src';
import { REMEMBER_MS } from './support/internals';

test('nothing known: the first wave is FIRST_WAVE, within the ceiling', () => {
  expect(new Pace(200).width).toBe(FIRST_WAVE);
  expect(new Pace(8).width).toBe(8);
  const p = new Pace(200);
  p.startRun(120, true, 0); // the user set Concurrency 120: that many from the start
  expect(p.width).toBe(120);
});

test('fast answers widen the window by one each (doubling a round trip), up to the ceiling', () => {
  const p = new Pace(80);
  for (let i = 0; i < 20; i++) p.answered(100, 500, 1000);
  expect(p.width).toBe(70);
  for (let i = 0; i < 50; i++) p.answered(100, 500, 1100);
  expect(p.width).toBe(80);
});

test('no growth past what the run asked for at once, nor on slow answers', () => {
  const p = new Pace(200);
  p.answered(100, 500, 0);
  expect(p.width).toBe(51);
  p.answered(100, 51, 10); // the run never wanted more than 51 at once
  p.answered(350, 500, 20); // over three times the fastest
  expect(p.width).toBe(51);
});

test('a run of 120 from a first wave of 50 learns 120, though its queue empties after 35 answers', () => {
  // What the gate reports: 120 asked at once from the start; the answers of the first wave, then
  // of the 70 sent as slots opened (none waiting after the 35th answer).
  const p = new Pace(200);
  for (let i = 0; i < 50; i++) p.answered(100, 120, 100 + i);
  expect(p.width).toBe(100); // doubled in one round trip: slow start's bound
  for (let i = 0; i < 70; i++) p.answered(100, 120, 200 + i);
  expect(p.width).toBe(120); // the width to send all 120 at once, no more
  p.startRun(200, false, 1000);
  expect(p.width).toBe(120); // the next execution's first wave
});

test('429s cut the window to the requests the service admitted; it stays there for REMEMBER_MS, then grows again', () => {
  const p = new Pace(200);
  // 50 sent, the service admits 20: the 30 refusals come back while the 20 are in flight.
  for (let inFlight = 50; inFlight > 20; inFlight--) p.refusedAt(inFlight - 1, 5);
  expect(p.width).toBe(20);
  for (let i = 0; i < 100; i++) p.answered(100, 500, 200);
  expect(p.width).toBe(20);
  p.startRun(200, false, 300); // the next execution starts at what was learned
  expect(p.width).toBe(20);
  p.answered(100, 500, 5 + REMEMBER_MS);
  expect(p.width).toBe(21);
});

test('a refusal with nothing admitted in flight (a limit per second): the answers of the last second at the fastest pace', () => {
  const p = new Pace(200);
  // 50 answers in the last second, 100 ms each: 50 a second need 5 in flight.
  for (let i = 0; i < 50; i++) p.answered(100, 5, 500 + i);
  p.refusedAt(0, 1100);
  expect(p.width).toBe(5);
  for (let i = 0; i < 20; i++) p.answered(100, 500, 2000 + i);
  expect(p.width).toBe(5); // remembered
  // Refused before any answer: narrower, nothing remembered.
  const q = new Pace(200);
  q.refusedAt(0, 0);
  expect(q.width).toBe(25);
  q.answered(100, 500, 10);
  expect(q.width).toBe(26);
});

test('a learned pace never exceeds a lower Concurrency set later', () => {
  const p = new Pace(200);
  p.startRun(10, true, 0);
  expect(p.width).toBe(10);
  p.refusedAt(4, 0);
  p.startRun(200, true, 1000);
  expect(p.width).toBe(4); // a refused width is kept even under a wider Concurrency...
  p.startRun(200, true, REMEMBER_MS);
  expect(p.width).toBe(200); // ...until it is forgotten
});
