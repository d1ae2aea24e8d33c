// Line-level three-way merging on node-diff3 (Khanna, Kunal and Pierce's diff3), with every region
// carrying its spans in all three inputs, so callers can keep OURS's own line endings and map a
// merged line back to the side it came from.
import { diff3MergeRegions, diffIndices, LCS } from 'node-diff3';

export type Span = [start: number, end: number];

export type Region =
  /** Unchanged on both sides: the same lines at these spans of a and o (and of b). */
  | { kind: 'same'; a: Span; o: Span }
  /** Changed by ours only (b equals o there). */
  | { kind: 'ours'; a: Span }
  /** Changed by theirs only (a equals o there). */
  | { kind: 'theirs'; b: Span }
  /** Changed by both sides in overlapping places. */
  | { kind: 'both'; a: Span; o: Span; b: Span };

/** For each index of o, the index of the same line in side (LCS alignment), or -1. */
function alignment(o: readonly string[], side: readonly string[]): Int32Array {
  const map = new Int32Array(o.length).fill(-1);
  let oi = 0;
  let si = 0;
  for (const hunk of diffIndices(o as string[], side as string[])) {
    const [oStart, oLength] = hunk.buffer1;
    const [sStart, sLength] = hunk.buffer2;
    while (oi < oStart) map[oi++] = si++;
    oi = oStart + oLength;
    si = sStart + sLength;
  }
  while (oi < o.length) map[oi++] = si++;
  return map;
}

/**
 * diff3 regions of a (ours) and b (theirs) against o (base). Elements are compared as strings
 * (node-diff3 keys its LCS by string), so callers pass tokens.
 */
export function diff3Regions(a: readonly string[], o: readonly string[], b: readonly string[]): Region[] {
  // What all three share at the start and at the end is settled before the diff3 runs (as git's
  // xdiff does): typical memory merges append, and node-diff3's LCS is quadratic at worst.
  let head = 0;
  const minLen = Math.min(a.length, o.length, b.length);
  while (head < minLen && a[head] === o[head] && b[head] === o[head]) head++;
  let tail = 0;
  while (tail < minLen - head && a[a.length - 1 - tail] === o[o.length - 1 - tail] && b[b.length - 1 - tail] === o[o.length - 1 - tail]) tail++;
  const out: Region[] = [];
  if (head > 0) out.push({ kind: 'same', a: [0, head], o: [0, head] });
  const [ma, mo, mb] = [a.slice(head, a.length - tail), o.slice(head, o.length - tail), b.slice(head, b.length - tail)];
  // Lines that occur once in each input, unchanged and in the same order on all three sides,
  // split the rest into small independent stretches (patience diff's anchors): node-diff3's
  // LCS is quadratic, and on a 200-entry index nearly every entry is such an anchor.
  let [pa, po, pb] = [0, 0, 0];
  for (const [ia, io, ib] of [...anchors(ma, mo, mb), [ma.length, mo.length, mb.length] as const]) {
    for (const r of middleRegions(ma.slice(pa, ia), mo.slice(po, io), mb.slice(pb, ib))) out.push(shift(r, head + pa, head + po, head + pb));
    if (io < mo.length) out.push({ kind: 'same', a: [head + ia, head + ia + 1], o: [head + io, head + io + 1] });
    [pa, po, pb] = [ia + 1, io + 1, ib + 1];
  }
  if (tail > 0) out.push({ kind: 'same', a: [a.length - tail, a.length], o: [o.length - tail, o.length] });
  return out;
}

/** Positions [a, o, b] of lines unique in each input, increasing on all three sides. */
function anchors(a: readonly string[], o: readonly string[], b: readonly string[]): Array<readonly [number, number, number]> {
  const once = (xs: readonly string[]) => {
    const at = new Map<string, number>();
    xs.forEach((x, i) => at.set(x, at.has(x) ? -1 : i));
    return at;
  };
  const [inA, inO, inB] = [once(a), once(o), once(b)];
  const candidates: Array<readonly [number, number, number]> = [];
  o.forEach((x, io) => {
    const ia = inA.get(x);
    const ib = inB.get(x);
    if (inO.get(x) === io && ia !== undefined && ia >= 0 && ib !== undefined && ib >= 0) candidates.push([ia, io, ib]);
  });
  // The chain must not depend on which side is ours (a rebase swaps them): keep the anchors that
  // both orders of refinement choose.
  const viaB = new Set(increasing(increasing(candidates, 2), 0).map((c) => c[1]));
  return increasing(increasing(candidates, 0), 2).filter((c) => viaB.has(c[1]));
}

/** A longest subsequence of xs (already increasing in o) that also increases in component k. */
function increasing<T extends readonly number[]>(xs: T[], k: number): T[] {
  const tails: number[] = [];
  const prev = new Int32Array(xs.length).fill(-1);
  for (let i = 0; i < xs.length; i++) {
    const v = xs[i]![k]!;
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (xs[tails[mid]!]![k]! < v) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev[i] = tails[lo - 1]!;
    tails[lo] = i;
  }
  const out: T[] = [];
  for (let i = tails.length ? tails[tails.length - 1]! : -1; i >= 0; i = prev[i]!) out.push(xs[i]!);
  return out.reverse();
}

function shift(r: Region, da: number, doo: number, db: number): Region {
  const s = (x: Span, d: number): Span => [x[0] + d, x[1] + d];
  if (r.kind === 'same') return { kind: 'same', a: s(r.a, da), o: s(r.o, doo) };
  if (r.kind === 'ours') return { kind: 'ours', a: s(r.a, da) };
  if (r.kind === 'theirs') return { kind: 'theirs', b: s(r.b, db) };
  return { kind: 'both', a: s(r.a, da), o: s(r.o, doo), b: s(r.b, db) };
}

/** Thrown when the inputs are too repetitive for node-diff3 (its LCS slows down with every pair of equal lines). */
export class TooRepetitiveError extends Error {
  constructor() {
    super('too many repeated lines for the structured merge');
  }
}

/** Pairs of equal lines between o and side: what node-diff3's LCS spends its time on. */
function matchingPairs(o: readonly string[], side: readonly string[]): number {
  const counts = new Map<string, number>();
  for (const x of side) counts.set(x, (counts.get(x) ?? 0) + 1);
  let pairs = 0;
  for (const x of o) pairs += counts.get(x) ?? 0;
  return pairs;
}

export const MAX_MATCHING_PAIRS = 250_000;

function middleRegions(a: readonly string[], o: readonly string[], b: readonly string[]): Region[] {
  if (a.length === 0 && o.length === 0 && b.length === 0) return [];
  if (matchingPairs(o, a) + matchingPairs(o, b) > MAX_MATCHING_PAIRS) throw new TooRepetitiveError();
  const raw = diff3MergeRegions(a as string[], o as string[], b as string[]);
  // Where each unchanged stretch sits in a: the first place at or after the previous region's
  // end in a that holds the same tokens. (An identical run of lines found earlier than the one
  // diff3 aligned would give the same tokens; only the exact alignment is computed otherwise.)
  let toA: Int32Array | null = null;
  let aPos = 0;
  const findInA = (s: number, n: number): number => {
    for (let k = aPos; k + n <= a.length; k++) {
      let i = 0;
      while (i < n && a[k + i] === o[s + i]) i++;
      if (i === n) return k;
    }
    toA ??= alignment(o, a);
    return toA[s]!;
  };
  const out: Region[] = [];
  for (const r of raw) {
    if (!r.stable) {
      out.push({
        kind: 'both',
        a: [r.aStart, r.aStart + r.aLength],
        o: [r.oStart, r.oStart + r.oLength],
        b: [r.bStart, r.bStart + r.bLength],
      });
      aPos = r.aStart + r.aLength;
    } else if (r.buffer === 'o') {
      const s = r.bufferStart;
      const n = r.bufferLength;
      const at = findInA(s, n);
      out.push({ kind: 'same', a: [at, at + n], o: [s, s + n] });
      aPos = at + n;
    } else if (r.buffer === 'a') {
      out.push({ kind: 'ours', a: [r.bufferStart, r.bufferStart + r.bufferLength] });
      aPos = r.bufferStart + r.bufferLength;
    } else {
      out.push({ kind: 'theirs', b: [r.bufferStart, r.bufferStart + r.bufferLength] });
    }
  }
  return out;
}

/** Indices into a of a longest common subsequence of a and b (the base of an add/add merge). */
export function commonIndices(a: readonly string[], b: readonly string[]): number[] {
  if (matchingPairs(a, b) > MAX_MATCHING_PAIRS) throw new TooRepetitiveError();
  const picks: number[] = [];
  for (let c: ReturnType<typeof LCS> | null = LCS(a as string[], b as string[]); c !== null && c.buffer1index >= 0; c = c.chain) picks.push(c.buffer1index);
  return picks.reverse();
}

/**
 * When side is o with lines inserted (nothing of o removed or changed), the inserted lines per
 * gap: gaps[g] holds what side inserts before o[g] (gaps[o.length]: after the last line).
 * Returns null when side removed or changed a line of o.
 */
export function insertionsOnly(o: readonly string[], side: readonly string[]): number[][] | null {
  const gaps: number[][] = Array.from({ length: o.length + 1 }, () => []);
  for (const hunk of diffIndices(o as string[], side as string[])) {
    if (hunk.buffer1[1] !== 0) return null;
    const [sStart, sLength] = hunk.buffer2;
    for (let i = 0; i < sLength; i++) gaps[hunk.buffer1[0]]!.push(sStart + i);
  }
  return gaps;
}

export function sameLines(x: readonly string[], y: readonly string[]): boolean {
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}
