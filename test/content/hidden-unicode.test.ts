// no-hidden-unicode's scanner: what is hidden, what is a legitimate invisible character.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hiddenRuns, holdsSuspect, SUSPECT } from '../../src/lint/rules/no-hidden-unicode.js';

const HIDDEN = [0x200b, 0x200c, 0x200d, 0x2060, 0xfeff, 0x00ad, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f, 0x061c, 0xe0001, 0xe0041, 0xe007f, 0xfe00, 0xfe0f, 0xe0100, 0xe01ef, 0x0007, 0x001b, 0x0085, 0x3164, 0x115f];

describe('hiddenRuns', () => {
  it('finds any hidden character placed between letters, at its exact offset', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'abc def.'.split('')), maxLength: 20 }), fc.constantFrom(...HIDDEN), fc.string({ unit: fc.constantFrom(...'xyz .'.split('')), maxLength: 20 }), (before, cp, after) => {
        const ch = String.fromCodePoint(cp);
        const text = `a${before}${ch}${after}z`;
        const runs = hiddenRuns(text);
        expect(runs).toHaveLength(1);
        expect(text.slice(runs[0]!.start, runs[0]!.end)).toBe(ch);
      }),
      { numRuns: 400 },
    );
  });

  it.each([
    ['ZWJ inside emoji sequences', '👩\u200d💻 👨\u200d👩\u200d👧\u200d👦 🧑🏽\u200d🔬 🏳️\u200d🌈'],
    ['emoji presentation selectors and keycaps', '✔\ufe0f ⚠\ufe0f ❤\ufe0f 1\ufe0f\u20e3 #\ufe0f\u20e3 ©\ufe0f'],
    ['ZWNJ and ZWJ in scripts that join', 'می\u200cخواهم क्\u200dष'],
    ['a subdivision flag', '🏴\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f}'],
    ['an ideographic variation sequence', '葛\u{e0100}'],
    ['a byte-order mark at the start', '\ufeff---\nname: x\n'],
    ['tabs and line endings', 'a\tb\r\nc\n'],
  ])('%s are fine', (_, text) => {
    expect(hiddenRuns(text)).toEqual([]);
  });

  it('groups adjacent characters into one run and decodes tag characters', () => {
    const tags = [...'rm -rf'].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
    const runs = hiddenRuns(`ok${tags} then\u200b\u200b end`);
    expect(runs.map((r) => [r.count, r.tagText])).toEqual([
      [6, 'rm -rf'],
      [2, ''],
    ]);
  });
});

describe('holdsSuspect', () => {
  // The rule's scan passes over most characters without SUSPECT: it must answer as SUSPECT does.
  it('answers as SUSPECT for every code point, alone and between others', () => {
    let suspects = 0;
    const wrong: number[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      const ch = String.fromCodePoint(cp);
      const expected = SUSPECT.test(ch);
      if (expected) suspects++;
      if (holdsSuspect(ch) !== expected || holdsSuspect(`a${ch}中`) !== SUSPECT.test(`a${ch}中`)) wrong.push(cp);
    }
    expect(wrong).toEqual([]);
    expect(suspects).toBeGreaterThan(100);
  });

  it('reads surrogates as SUSPECT does: pairs as one character, lone ones alone (generated texts)', () => {
    const units = ['a', '中', '\n', '\u200b', '\uDB40', '\uDC00', '\uDC7F', '\uDD00', '\uDDEF', '\uDDF0', '\uD83D', '\uDE00', '\uFE0F', '\uFEFF', '\u3164', '\u0000', '\t'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...units), { maxLength: 8 }), (xs) => {
        const text = xs.join('');
        expect(holdsSuspect(text)).toBe(SUSPECT.test(text));
      }),
      { numRuns: 5000 },
    );
  });
});
