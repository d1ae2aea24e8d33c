// "Did you mean": the known name closest to a mistyped one (commands, rule ids). Kept tiny and
// dependency-free: the launcher and the linter's start-up path both reach it.

/** Edit distance (insertions, deletions, substitutions, and a swap of two neighbours counts once). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The name closest to word, when it is close enough to be a typo: one edit in a word of up to
 * seven letters, two up to eleven, three beyond (a quarter of its letters), or word a prefix of it
 * of three letters or more. A third was too loose: "nosuch" is two edits from "touch".
 */
export function closestName(word: string, names: readonly string[]): string | null {
  const w = word.toLowerCase();
  if (w.length === 0 || w.length > 64) return null;
  let best: string | null = null;
  let bestScore = Infinity;
  for (const name of names) {
    // Case is no typo's measure: "minhour" is one edit from "minHours".
    const n = name.toLowerCase();
    const score = n.startsWith(w) && w.length >= 3 ? 0.5 : editDistance(w, n);
    if (score < bestScore) {
      best = name;
      bestScore = score;
    }
  }
  const allowed = Math.min(3, Math.max(1, Math.floor(w.length / 4)));
  return best !== null && bestScore <= allowed ? best : null;
}
