// Line-level three-way merging on node-diff3 (Khanna, Kunal and Pierce's diff3), with every region
// carrying its spans in all three inputs, so callers can keep OURS's own line endings and map a
// merged line back to the side it came from.
import { diff3MergeRegions, diffIndices, LCS } from 'node-diff3';

export type Span = [start: number, end: number];

export type Region =
  /** Unchanged on both sides: the same lines at these spans of a, o and b. */
  | { kind: 'same'; a: Span; o: Span; b: Span }
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
  const raw = diff3MergeRegions(a as string[], o as string[], b as string[]);
  const toA = alignment(o, a);
  const toB = alignment(o, b);
  const out: Region[] = [];
  for (const r of raw) {
    if (!r.stable) {
      out.push({
        kind: 'both',
        a: [r.aStart, r.aStart + r.aLength],
        o: [r.oStart, r.oStart + r.oLength],
        b: [r.bStart, r.bStart + r.bLength],
      });
    } else if (r.buffer === 'o') {
      const s = r.bufferStart;
      const n = r.bufferLength;
      out.push({ kind: 'same', a: [toA[s]!, toA[s]! + n], o: [s, s + n], b: [toB[s]!, toB[s]! + n] });
    } else if (r.buffer === 'a') {
      out.push({ kind: 'ours', a: [r.bufferStart, r.bufferStart + r.bufferLength] });
    } else {
      out.push({ kind: 'theirs', b: [r.bufferStart, r.bufferStart + r.bufferLength] });
    }
  }
  return out;
}

/** Indices into a of a longest common subsequence of a and b (the base of an add/add merge). */
export function commonIndices(a: readonly string[], b: readonly string[]): number[] {
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
