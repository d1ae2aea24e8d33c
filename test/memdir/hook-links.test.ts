// Where the last link of an index hook ends: a hook is cut only after it, so no link leaves the
// index. Read in one pass; whatever might end a link counts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutHook, duplicateDetail, holdsText, lastLinkEnd } from '../../src/memdir/hook-text.js';
import { parseEntry } from '../../src/memdir/memory-index.js';
import { inlineCodeRanges } from '../../src/memdir/lines.js';

// The links the hook cut protected before (a regex that looked ahead from every `[`, quadratic on
// a hook of thousands of them): the one-pass reading must never end before the last of these.
// A tag or placeholder alone in angle brackets (`<i>`, `<your-token>`) is no link, and never was one
// to keep (fourteenth held-out set: a `<i>` kept a hook from being cut at all).
const FORMER = /\[\[[^\]\n]*\]\]|!?\[(?:[^\[\]\\]|\\.|\[[^\]]*\])*\](?:\((?:<[^>\n]*>|[^()\s]*(?:\([^()\s]*\)[^()\s]*)*)(?:[ \t]+"[^"\n]*")?\)|\[[^\]\n]*\])|<(?!\/?[A-Za-z][A-Za-z0-9-]*\/?>)[^>\s]+>/g;
function formerLastEnd(text: string): number {
  const code = inlineCodeRanges(text);
  let last = 0;
  for (const m of text.matchAll(FORMER)) if (!code.some(([a, b]) => a <= m.index && m.index < b)) last = m.index + m[0].length;
  return last;
}

describe('lastLinkEnd', () => {
  it('never ends before the last link the former reading found (property)', () => {
    const pieces = ['[', ']', '(', ')', 'a', ' ', '<', '>', '!', '"', '`', '\\', '.md', '[a](b.md)', '[[x]]', '\n', '[t][r]', '](<x>)', ' "t"'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 25 }), (p) => {
        const text = p.join('');
        expect(lastLinkEnd(text)).toBeGreaterThanOrEqual(formerLastEnd(text));
      }),
      { numRuns: 20_000, seed: 3 },
    );
  });

  it('finds each kind of link, and none that starts in inline code', () => {
    expect(lastLinkEnd('see [A](a.md) then words')).toBe(13);
    expect(lastLinkEnd('see ![A](a(1).png "t") then')).toBe(22);
    expect(lastLinkEnd('see [A][a] then')).toBe(10);
    expect(lastLinkEnd('see [[a name]] then')).toBe(14);
    expect(lastLinkEnd('see <a.md> then')).toBe(10);
    expect(lastLinkEnd('see <https://x.io/a> then')).toBe(20);
    expect(lastLinkEnd('state-test-w<i> dirs, </b> and <your-token>')).toBe(0);
    expect(lastLinkEnd('run `git log <tag>..main` then')).toBe(0);
    expect(lastLinkEnd('plain [brackets] and (parens)')).toBe(0);
    expect(lastLinkEnd('[[a\n[[b]]')).toBe(9);
  });

  it('reads a hook of thousands of brackets as holding no link', () => {
    expect(lastLinkEnd('['.repeat(50_000))).toBe(0);
    expect(lastLinkEnd(`${'['.repeat(50_000)}a](b.md)`)).toBe(50_008);
    expect(lastLinkEnd('](<'.repeat(20_000))).toBe(0);
  });
});

describe('cutHook', () => {
  it('cuts after the last link only', () => {
    expect(cutHook('[A](a.md) and [B](b.md) then more words here', 30).head).toBe('[A](a.md) and [B](b.md) then');
    expect(cutHook('[A long title](a.md) and [B](b.md)', 10).head).toBe('');
    expect(cutHook('words `<tag>` then many more words after it', 20)).toEqual({ head: 'words `<tag>` then', tail: 'many more words after it' });
  });
});

describe('holdsText and duplicateDetail', () => {
  it('hold a detail only as whole words, case and spacing aside', () => {
    expect(holdsText('The author owns it', 'Auth')).toBe(false);
    expect(holdsText('Role and  ownership.', 'role')).toBe(true);
    expect(holdsText('see the API.', 'api')).toBe(true);
    expect(holdsText('部署流程需要两个人审批', '部署')).toBe(true);
    expect(holdsText('exports go through the shared template', 'exports go through the…')).toBe(true);
  });
  it("move a second entry's title when the first says it only inside a word", () => {
    const kept = parseEntry('- [Author](x.md) — owns the ledger')!;
    expect(duplicateDetail(kept, parseEntry('- [Auth](x.md) — owns the ledger')!)).toBe('Auth');
    expect(duplicateDetail(kept, parseEntry('- [author](./x.md) — owns the ledger')!)).toBe('');
  });
});
