/** "Did you mean ...?" for a mistyped name: the closest option within a small edit distance. */
export function closest(name: string, options: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(name.length / 3)) + 1;
  for (const option of options) {
    const d = distance(name, option, bestDistance);
    if (d < bestDistance) [best, bestDistance] = [option, d];
  }
  return best;
}

/** Levenshtein distance, giving up (returning `limit`) once it cannot be below `limit`. */
function distance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) >= limit) return limit;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      rowMin = Math.min(rowMin, row[j]);
    }
    if (rowMin >= limit) return limit;
    prev = row;
  }
  return prev[b.length];
}
