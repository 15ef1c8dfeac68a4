/**
 * The pace rule (core/src/pace.ts) step by step, with the times given: the first wave, growth
 * only while requests wait and answers are fast, the cut to what the service admitted on a 429,
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

test('fast answers with requests waiting widen the window by one each (doubling a round trip), up to the ceiling', () => {
  const p = new Pace(80);
  for (let i = 0; i < 20; i++) p.answered(100, true, 1000);
  expect(p.width).toBe(70);
  for (let i = 0; i < 50; i++) p.answered(100, true, 1100);
  expect(p.width).toBe(80);
});

test('no growth without requests waiting, nor on slow answers', () => {
  const p = new Pace(200);
  p.answered(100, true, 0);
  expect(p.width).toBe(51);
  p.answered(100, false, 10);
  p.answered(350, true, 20); // over three times the fastest
  expect(p.width).toBe(51);
});

test('429s cut the window to the requests the service admitted; it stays there for REMEMBER_MS, then grows again', () => {
  const p = new Pace(200);
  // 50 sent, the service admits 20: the 30 refusals come back while the 20 are in flight.
  for (let inFlight = 50; inFlight > 20; inFlight--) p.refusedAt(inFlight - 1, 5);
  expect(p.width).toBe(20);
  for (let i = 0; i < 100; i++) p.answered(100, true, 200);
  expect(p.width).toBe(20);
  p.startRun(200, false, 300); // the next execution starts at what was learned
  expect(p.width).toBe(20);
  p.answered(100, true, 5 + REMEMBER_MS);
  expect(p.width).toBe(21);
});

test('a refusal with nothing admitted in flight (a limit per second): the answers of the last second at the fastest pace', () => {
  const p = new Pace(200);
  // 50 answers in the last second, 100 ms each: 50 a second need 5 in flight.
  for (let i = 0; i < 50; i++) p.answered(100, false, 500 + i);
  p.refusedAt(0, 1100);
  expect(p.width).toBe(5);
  for (let i = 0; i < 20; i++) p.answered(100, true, 2000 + i);
  expect(p.width).toBe(5); // remembered
  // Refused before any answer: narrower, nothing remembered.
  const q = new Pace(200);
  q.refusedAt(0, 0);
  expect(q.width).toBe(25);
  q.answered(100, true, 10);
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
