// The finder reads where a sentence ends by hand (sentenceEndAt in src/content/dates.ts), not by
// cutting the text around each phrase and running SENTENCE_END over the pieces: the two must agree
// at every place of every stretch, whatever stands there (stops, each kind of whitespace \s knows,
// and what it does not, full-width stops, surrogate pairs).
import { describe, expect, it } from 'vitest';
import { SENTENCE_END, sentenceEndAt, sentenceEnds, stopBounds } from '../../src/content/dates.js';

const UNITS = [
  '.', '!', '?', ';', '。', '！', '？', '；', 'a', 'Z', '1', '-', ',', ':', '"', '\u0000',
  ' ', '\t', '\n', '\r', '\v', '\f', '\u00a0', '\u1680', '\u2000', '\u2005', '\u200a', '\u200b', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff', '\u0085', '\u180e',
  '😀', '\ud83d', '\ude00', '．', '、',
];

/** The places where SENTENCE_END matches in `s`, as it scans the text. */
function byPattern(s: string): Set<number> {
  const at = new Set<number>();
  SENTENCE_END.lastIndex = 0;
  for (let m: RegExpExecArray | null; (m = SENTENCE_END.exec(s)); ) at.add(m.index);
  SENTENCE_END.lastIndex = 0;
  return at;
}

/** `count` texts of 1 to 12 units each, the same for a seed (a linear congruential generator). */
function generatedTexts(seed: number, count: number): string[] {
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  return Array.from({ length: count }, () => {
    let s = '';
    const length = 1 + Math.floor(next() * 12);
    for (let k = 0; k < length; k++) s += UNITS[Math.floor(next() * UNITS.length)];
    return s;
  });
}

describe('sentenceEndAt', () => {
  it('matches where SENTENCE_END matches, in every stretch of generated texts', () => {
    for (const s of generatedTexts(28, 3000)) {
      for (let limit = 0; limit <= s.length; limit++) {
        const want = byPattern(s.slice(0, limit));
        for (let p = 0; p < limit; p++) expect(sentenceEndAt(s, p, limit), JSON.stringify([s, p, limit])).toBe(want.has(p));
      }
    }
  });

  it('takes every unit \\s matches, and no other', () => {
    for (let c = 0; c <= 0xffff; c++) {
      const s = `.${String.fromCharCode(c)}`;
      expect(sentenceEndAt(s, 0, 2), c.toString(16)).toBe(/^\s$/u.test(String.fromCharCode(c)));
    }
  });
});

describe('stopBounds', () => {
  // The character loops the finder read each phrase's sentence with, before the search.
  const byLoops = (s: string, lo: number, start: number, end: number, hi: number) => {
    let from = lo;
    for (let p = start - 1; p >= lo; p--) if (sentenceEndAt(s, p, start)) { from = p + 1; break; }
    let to = hi;
    for (let p = end; p < hi; p++) if (sentenceEndAt(s, p, hi)) { to = p + 1; break; }
    return { from, to };
  };

  it('gives what reading each character gives, for every window and phrase of generated texts', () => {
    for (const s of generatedTexts(29, 600)) {
      const ends = sentenceEnds(s);
      for (let lo = 0; lo <= s.length; lo++)
        for (let start = lo; start <= s.length; start++)
          for (let end = start; end <= s.length; end++)
            for (let hi = end; hi <= s.length; hi++) expect(stopBounds(s, ends, lo, start, end, hi), JSON.stringify([s, lo, start, end, hi])).toEqual(byLoops(s, lo, start, end, hi));
    }
  });
});
