import type { Effect } from '../../src';

/** Steps a generator by hand: `answer` maps each effect to what the I/O would return. */
export function step<T>(gen: Generator<Effect, T, unknown>, answer: (e: Effect, i: number) => unknown) {
  const effects: Effect[] = [];
  let s = gen.next();
  while (!s.done) {
    effects.push(s.value);
    s = gen.next(answer(s.value, effects.length - 1));
  }
  return { value: s.value, effects };
}
