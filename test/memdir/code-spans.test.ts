// Inline code spans in a line, as memlint pairs backtick runs for the hook cut, link spans and the
// content rules: the spans micromark (CommonMark) reads, in time linear in the line.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inlineCodeRanges } from '../../src/memdir/lines.js';
import { cutAtWord } from '../../src/memdir/hook-text.js';

/** The code spans micromark reads in a one-line paragraph, as offsets into `line`. */
async function micromarkSpans(line: string): Promise<Array<[number, number]>> {
  const { parse, postprocess, preprocess } = await import('micromark');
  const prefix = 'x ';
  const out: Array<[number, number]> = [];
  for (const [kind, token] of postprocess(parse().document().write(preprocess()(prefix + line, undefined, true)))) {
    if (kind === 'enter' && token.type === 'codeText') out.push([token.start.offset - prefix.length, token.end.offset - prefix.length]);
  }
  return out;
}

describe('inlineCodeRanges', () => {
  it('pairs backtick runs as CommonMark does (property, against micromark)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom('`', '``', '```', 'a', ' ', '\\', 'b c'), { maxLength: 30 }), async (pieces) => {
        const line = pieces.join('');
        expect(inlineCodeRanges(line)).toEqual(await micromarkSpans(line));
      }),
      { numRuns: 1500, seed: 11 },
    );
  });

  it('reads runs that never close as text, and an escaped opening backtick as literal', () => {
    expect(inlineCodeRanges('`a``b```c')).toEqual([]);
    expect(inlineCodeRanges('``a`b``')).toEqual([[0, 7]]);
    expect(inlineCodeRanges('\\`a` b`')).toEqual([[3, 7]]);
    expect(inlineCodeRanges('\\\\`a`')).toEqual([[2, 5]]);
    expect(inlineCodeRanges('\\``a`')).toEqual([[2, 5]]);
  });

  it('finds none in a line of thousands of runs that never close', () => {
    const line = Array.from({ length: 3000 }, (_, k) => `${'`'.repeat(k + 1)}a`).join('');
    expect(inlineCodeRanges(line)).toEqual([]);
    // The run of one backtick pairs with the next run of one.
    expect(inlineCodeRanges(`${line}\`z`)).toEqual([[0, line.length + 1]]);
  });
});

describe('a hook cut never opens a code span', () => {
  it('cuts before a span that the limit falls inside, after astral characters too', () => {
    expect(cutAtWord('run 🎉 `git show HEAD --stat` to see it', 14)).toEqual({ head: 'run 🎉', tail: '`git show HEAD --stat` to see it' });
    expect(cutAtWord('see ``a ` b`` then more words here', 12)).toEqual({ head: 'see', tail: '``a ` b`` then more words here' });
    expect(cutAtWord('an `open run and more words', 12)).toEqual({ head: 'an `open run', tail: 'and more words' });
  });
});
