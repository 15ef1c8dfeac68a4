/** Seeded randomness for the synthetic world: a string hash and a tiny PRNG (no Math.random). */

// Math's functions as locals: under jest each suite's modules run in a vm context, where every read
// of a global (Math, String, Date) goes through the context's interceptor, some 40 times slower
// than a local; a world build makes hundreds of thousands of these calls (sandbox/world/build.ts).
const { imul, floor, round, exp, log } = Math;

/** 32-bit string hash (FNV-1a followed by a murmur finaliser). */
export function hash32(...parts: (string | number)[]): number {
  // The hash of parts.join('\u0001'), without building that string: the world hashes hundreds of
  // thousands of these per build, and every suite that starts a sandbox builds a world.
  let h = 0x811c9dc5;
  for (let p = 0; p < parts.length; p++) {
    if (p > 0) h = imul(h ^ 1, 0x01000193);
    const part = parts[p];
    const s = part == null ? '' : `${part}`;
    for (let i = 0; i < s.length; i++) h = imul(h ^ s.charCodeAt(i), 0x01000193);
  }
  h ^= h >>> 16;
  h = imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A 32-bit hash of a hash and a whole number, without strings: for draws made in bulk (hours x accounts). */
export function mix32(h: number, n: number): number {
  let x = (h ^ imul(n | 0, 0x9e3779b1) ^ floor(n / 2 ** 32)) >>> 0;
  x ^= x >>> 16;
  x = imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

/** mulberry32: a tiny seeded PRNG returning floats in [0, 1). */
export function prng(seed: number): () => number {
  // The state kept as a signed 32-bit value (`| 0`, the same bits as `>>> 0`): a small integer V8
  // stores in place, where an unsigned one above 2^31 is a number boxed on every draw.
  let a = seed | 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = a;
    t = imul(t ^ (t >>> 15), t | 1);
    t ^= t + imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class Rng {
  readonly next: () => number;
  constructor(seed: number) {
    this.next = prng(seed);
  }
  static of(...parts: (string | number)[]): Rng {
    return new Rng(hash32(...parts));
  }
  int(lo: number, hi: number): number {
    return lo + floor(this.next() * (hi - lo + 1));
  }
  pick<T>(list: readonly T[]): T {
    return list[floor(this.next() * list.length)];
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  /** Log-uniform integer in [lo, hi]. */
  logInt(lo: number, hi: number): number {
    return round(exp(log(lo) + this.next() * (log(hi) - log(lo))));
  }
}
