// What `npm run bench` and `npm run bench:n8n` share: figures from interleaved rounds, each given
// as the median of its rounds with their spread, and ratios computed round by round from paired
// measurements (B of round r over A of round r), so that a slow moment of the machine, which hits
// both sides of a pair, moves the ratio less than it moves either side.
import { cpus, loadavg } from 'node:os';

/** Quantile q (0..1) of sorted numbers, linear between neighbours (R's type 7, numpy's default). */
function quantile(sorted, q) {
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo);
}

/** { n, median, q1, q3, min, max } of a list of numbers (one per round). */
export function spread(values) {
  const s = [...values].sort((a, b) => a - b);
  return {
    n: s.length,
    median: quantile(s, 0.5),
    q1: quantile(s, 0.25),
    q3: quantile(s, 0.75),
    min: s[0],
    max: s[s.length - 1],
  };
}

/** The ratio of each round's pair (b[r] / a[r]), summarised. */
export const pairedRatio = (a, b) => spread(a.map((x, r) => b[r] / x));

/** The difference of each round's pair (b[r] - a[r]), summarised. */
export const pairedDifference = (a, b) => spread(a.map((x, r) => b[r] - x));

const number = (x, digits) =>
  x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** `1,096 µs (IQR 1,050-1,130, range 990-1,300, 21 rounds)`; `x` as unit gives `1.10x (...)`. */
export function show(s, { digits = 0, unit = '', rounds = true } = {}) {
  const u = unit === 'x' ? 'x' : unit ? ` ${unit}` : '';
  const r = (x) => number(x, digits);
  const iqr = s.n >= 4 ? `IQR ${r(s.q1)}-${r(s.q3)}, ` : '';
  return `${r(s.median)}${u} (${iqr}range ${r(s.min)}-${r(s.max)}${rounds ? `, ${s.n} round${s.n === 1 ? '' : 's'}` : ''})`;
}

/** The machine's load, said next to every figure: `load average 1.52 / 2.10 / 2.80 (1, 5, 15 min), 2 cores`. */
export function machineLoad() {
  const [one, five, fifteen] = loadavg();
  return `load average ${one.toFixed(2)} / ${five.toFixed(2)} / ${fifteen.toFixed(2)} (1, 5, 15 min), ${cpus().length} cores`;
}
