// mayHoldRelativeDate answers from a cheap word scan first: it must never hide a text that one of
// the patterns matches (findRelativeDates, and so absolute-dates, trusts a false).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EN_PATTERNS, ZH_PATTERNS, mayHoldRelativeDate } from '../../src/content/date-patterns.js';

function anyPatternMatches(text: string): boolean {
  return [...EN_PATTERNS, ...ZH_PATTERNS].some(({ re }) => {
    re.lastIndex = 0;
    return re.test(text);
  });
}

const VOCAB = [
  'today', 'Tonight', 'TOMORROW', 'yesterday', 'the day after tomorrow', 'this morning', 'last night', 'next', 'last', 'this', 'coming', 'past',
  'Monday', 'friday', 'Sundays', "Friday's", 'week', 'weekend', 'weeK', 'month', 'quarter', 'year', 'days', 'weeks', 'ago', 'from now', 'in', 'three', 'a few',
  '2', '12', 'the', 'deploy', 'due', 'on', ' ', '\n', '大后天', '明天', '今晚', '上周', '下个月', '本季度', '去年', '前几天', '3天前', '周四前', '星期', '礼拜', '上线', '每',
];

describe('mayHoldRelativeDate', () => {
  it('is true whenever a pattern matches (generated texts)', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...VOCAB), { maxLength: 12 }), (words) => {
        const text = words.join(' ');
        if (anyPatternMatches(text)) expect(mayHoldRelativeDate(text)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('is true whenever a pattern matches (fixtures and corpus)', () => {
    const dirs = [join('test', 'corpus'), join('test', 'fixtures', 'absolute-dates'), join('examples', 'memory')];
    let matched = 0;
    for (const dir of dirs) {
      for (const name of readdirSync(dir, { recursive: true }) as string[]) {
        if (!name.endsWith('.md')) continue;
        for (const line of readFileSync(join(dir, name), 'utf8').split('\n')) {
          if (!anyPatternMatches(line)) continue;
          matched++;
          expect(mayHoldRelativeDate(line), `${dir}/${name}: ${line}`).toBe(true);
        }
      }
    }
    expect(matched).toBeGreaterThan(20);
  });

  it('is false for text without any of the words, English or Chinese', () => {
    expect(mayHoldRelativeDate('Deploys go out after the standup; ask the on-call engineer.')).toBe(false);
    expect(mayHoldRelativeDate('部署前先通知值班工程师。')).toBe(false);
  });
});

describe('EN_PATTERNS need', () => {
  // findRelativeDates skips a pattern whose `need` the text lacks: every match must hold it.
  it('is in every match of its pattern (generated texts)', () => {
    const words = [...VOCAB, 'DAY', 'After', 'BEFORE', 'Yesterday', 'This', 'LAST', 'Night', 'evening', 'Afternoon', 'MORNING', '\t', '  '];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...words), { maxLength: 10 }), fc.constantFrom(' ', '  ', '\t', '\n'), (xs, sep) => {
        const text = xs.join(sep);
        for (const { re, need } of EN_PATTERNS) {
          if (!need) continue;
          re.lastIndex = 0;
          for (let m: RegExpExecArray | null; (m = re.exec(text)); ) expect(need.test(m[0])).toBe(true);
        }
      }),
      { numRuns: 3000 },
    );
    const needs = EN_PATTERNS.filter((p) => p.need);
    expect(needs.length).toBe(3);
    for (const phrase of ['the day after tomorrow', 'The  Day\tBefore yesterday', 'this morning', 'THIS AFTERNOON', 'this\tevening', 'last Night', 'Friday next week', 'sunday OF last\tWEEK']) {
      expect(needs.some(({ re, need }) => ((re.lastIndex = 0), re.test(phrase)) && need!.test(phrase))).toBe(true);
    }
  });
});

describe('EN_PATTERNS word starts', () => {
  // A word's start is written (?<!\w) where every alternative after it opens with a word character:
  // there it is the test `\b` makes, under the same flags (the i and u flags count ſ and the Kelvin
  // sign as word characters). Each pattern must match what its `\b` form matches.
  const boundaryForm = (re: RegExp) => new RegExp(re.source.replaceAll('(?<!\\w)', '\\b'), re.flags);
  const words = [...VOCAB, 'Friday', 'MONDAY', 'ago', 'from today', 'a couple of', 'several', 'two', 'the', 'previous', 'ſ', '\u212A', 'K', 'x', '_', '0', "'", '-', '.', 'é', '今天'];

  it('match where the same pattern with \\b matches (generated texts)', () => {
    expect(EN_PATTERNS.every(({ re }) => re.source.startsWith('(?<!\\w)'))).toBe(true);
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...words), { maxLength: 10 }), fc.constantFrom('', ' ', '\t', '\n'), (xs, sep) => {
        const text = xs.join(sep);
        for (const { re } of EN_PATTERNS) {
          const spans = (source: string) => [...text.matchAll(new RegExp(source, re.flags))].map((m) => `${m.index}:${m[0]}:${m.slice(1).join('|')}`);
          expect(spans(re.source)).toEqual(spans(boundaryForm(re).source));
        }
      }),
      { numRuns: 3000 },
    );
  });
});
