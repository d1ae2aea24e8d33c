// The block model: remark's reading of each line, and the line path that must agree with it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blockModel, lineBlocks, parsedBlocks, pieceBlocks, remarkBlocks, topLevelBlockStarts, type BlockModel } from '../../src/memdir/blocks.js';
import { splitLines } from '../../src/memdir/lines.js';

/**
 * The line path, where it reads the text, gives remark's model; the block model always does.
 * Returns whether the line path took the text.
 */
function readsAsRemark(text: string): boolean {
  const fast = lineBlocks(text);
  if (fast) expect({ ...fast, via: 'remark' }).toEqual(remarkBlocks(text));
  expect(blockModel(text)).toEqual({ ...remarkBlocks(text), via: blockModel(text).via });
  return fast !== null;
}

/** The line path takes the text, and gives remark's model. */
function takenAsRemarkReadsIt(text: string): void {
  const fast = lineBlocks(text);
  expect(fast).not.toBeNull();
  expect({ ...fast!, via: 'remark' }).toEqual(remarkBlocks(text));
}

/**
 * Files of up to `most` lines drawn from `line`: each the line path takes gives remark's model.
 * Returns how many it took (of those `counts` picks: that hold the construct under test), so that
 * a test can say the lines were not all left to remark.
 */
function takenAsRemarkReads(
  line: fc.Arbitrary<string>,
  most: number,
  numRuns: number,
  counts: (fast: BlockModel, text: string) => boolean = () => true,
  eol: fc.Arbitrary<string> = fc.constant('\n'),
): number {
  let taken = 0;
  fc.assert(
    fc.property(fc.array(line, { maxLength: most }), eol, (ls, e) => {
      const text = ls.join(e) + e;
      const fast = lineBlocks(text);
      if (!fast) return;
      if (counts(fast, text)) taken++;
      expect({ ...fast, via: 'remark' }).toEqual(remarkBlocks(text));
    }),
    { numRuns },
  );
  return taken;
}

const kinds = (text: string) => remarkBlocks(text).lines.map((l) => l.kind);

/** For takenAsRemarkReads' count: a model where some item's link text holds what the pattern matches. */
const linkTextHolds = (pattern: RegExp) => (fast: BlockModel, text: string) => {
  const source = text.split('\n');
  return fast.lines.some((l, k) => l.item?.link && pattern.test(source[k]!.slice(l.item.link.textStart, l.item.link.textEnd)));
};

describe('remarkBlocks: each line as CommonMark reads it', () => {
  it('knows indented code, and a fence indented inside a nested list', () => {
    const m = remarkBlocks('Text\n\n    - [E](e.md)\n- a\n  - b\n    ```md\n    - [X](x.md)\n    ```\n');
    expect(m.lines.map((l) => l.kind)).toEqual(['prose', 'blank', 'code', 'prose', 'prose', 'code', 'code', 'code']);
    expect(m.lines[2]!.code).toBe('indented');
    expect(m.lines[5]!.code).toBe('fenced');
    expect(m.lines[4]!.item).toMatchObject({ depth: 1, endLine: 8, rootEndLine: 8 });
    expect(m.codeBlocks.map((b) => [b.startLine, b.endLine, b.fenced, b.lang, b.content])).toEqual([
      [3, 3, false, '', ['- [E](e.md)']],
      [6, 8, true, 'md', ['- [X](x.md)']],
    ]);
  });

  it('reads setext and ATX headings with their level and text', () => {
    const m = remarkBlocks('Feedback\n---\n## Project *notes* ##\n');
    expect(m.lines.map((l) => l.heading && [l.heading.level, l.heading.setext, l.heading.text, l.heading.startLine, l.heading.endLine])).toEqual([
      [2, true, 'Feedback', 1, 2],
      [2, true, 'Feedback', 1, 2],
      [2, false, 'Project *notes*', 3, 3],
    ]);
  });

  it('finds the link an item starts with: inline, reference (through its definition), quoted, ordered', () => {
    const m = remarkBlocks('1. [A](a.md) — x\n- [T][t] — y\n> - [Q](q.md)\n\n[t]: <t y.md>\n');
    expect(m.lines[0]!.item).toMatchObject({ ordered: true, contentStart: 3, link: { form: 'inline', url: 'a.md', start: 3, end: 12, textStart: 4, textEnd: 5 } });
    expect(m.lines[1]!.item).toMatchObject({ ordered: false, link: { form: 'reference', url: 't y.md', start: 2, end: 8 } });
    expect(m.lines[2]).toMatchObject({ quote: 1, item: { contentStart: 4, link: { url: 'q.md' } } });
    expect(m.lines[4]!.kind).toBe('definition');
  });

  it('reads no emphasis or inline HTML: an inline comment does not hide the link an item starts with', () => {
    // The parse leaves both constructs out (they are quadratic in micromark; README "Rules").
    const m = remarkBlocks('- [a <!--](x.md)-->\n- [**B**](b.md) — *h*\n');
    expect(m.lines[0]!.item?.link).toMatchObject({ form: 'inline', url: 'x.md', start: 2, end: 16 });
    expect(m.lines[1]!.item?.link).toMatchObject({ url: 'b.md', textStart: 3, textEnd: 8 });
    expect(m.lines.map((l) => l.kind)).toEqual(['prose', 'prose']);
  });

  it('lists top-level HTML comment blocks, and only those', () => {
    const m = remarkBlocks('<!-- a\nb -->\n- <!-- in an item -->\n  <!-- one -->\n\n```\n<!-- code -->\n```\n');
    expect(m.comments).toEqual([{ startLine: 1, endLine: 2 }]);
    expect(kinds('<!-- a\nb -->\n')).toEqual(['html', 'html']);
    // The line path reads a first-column comment too (what Claude Code strips from the index).
    const index = '# Memory\n<!-- kept out of the agent\'s view\n- [T](t.md) -->\n- [U](u.md) — hook <!-- inline -->\n<!-- one -->\n';
    expect(lineBlocks(index)).toEqual({ ...remarkBlocks(index), via: 'lines' });
    expect(lineBlocks(index)!.comments).toEqual([{ startLine: 2, endLine: 3 }, { startLine: 5, endLine: 5 }]);
  });

  it('takes frontmatter only when it is closed', () => {
    expect(kinds('---\na: 1\n---\nx\n')).toEqual(['frontmatter', 'frontmatter', 'frontmatter', 'prose']);
    expect(kinds('---\n- [A](a.md)\n')).toEqual(['thematicBreak', 'prose']);
    expect(remarkBlocks('---\n- [A](a.md)\n').lines[1]!.item?.link?.url).toBe('a.md');
  });
});

describe('lineBlocks: the line path', () => {
  it('takes plain memory files', () => {
    const topic = '---\nname: X\ndescription: "y"\nmetadata:\n  type: feedback\n---\nRule text.\n\n**Why:** because.\n\n- Ask [Ann](https://x.example/a) first\n# Notes\n1. one\n2. two\n';
    expect(lineBlocks(topic)).not.toBeNull();
    expect(blockModel(topic).via).toBe('lines');
    expect(lineBlocks('# Memory\n\n## Feedback\n- [T](t.md) — hook\n')!.lines[3]!.item).toMatchObject({ link: { url: 't.md', start: 2, end: 11 } });
  });

  it('takes fences in the first column and quotes of paragraphs, as remark reads them', () => {
    const text = '---\nname: x\n---\nText\n```TS extra\nconst a = 1;\n\n```\n- item\n~~~\n~~~\n> quoted\nlazy\n>\n> again\n>\n\n```\nopen to the end\n';
    const fast = lineBlocks(text);
    expect(fast).not.toBeNull();
    expect({ ...fast!, via: 'remark' }).toEqual(remarkBlocks(text));
    expect(fast!.codeBlocks.map((b) => [b.startLine, b.endLine, b.lang, b.content])).toEqual([
      [5, 8, 'ts', ['const a = 1;', '']],
      [10, 11, '', []],
      [18, 19, '', ['open to the end']],
    ]);
    // A quote ends at its last paragraph: the `>` line after it is not the quote's.
    expect(fast!.lines.slice(11, 16).map((l) => [l.kind, l.quote])).toEqual([['prose', 1], ['prose', 1], ['blank', 1], ['prose', 1], ['blank', 0]]);
  });

  it('takes a block-level tag to the blank line that ends it, as remark reads it', () => {
    const text = 'Text\n<details>\n<summary>Why</summary>\n- not an item here\n\n- an item\n</details>\n';
    const fast = lineBlocks(text);
    expect(fast).not.toBeNull();
    expect({ ...fast!, via: 'remark' }).toEqual(remarkBlocks(text));
    expect(fast!.lines.map((l) => l.kind)).toEqual(['prose', 'html', 'html', 'html', 'blank', 'prose', 'html']);
  });

  it.each([
    ['a raw block to the line that ends it, blank lines and any end tag of the four', '<pre>\n- not an item\n\n# nor a heading\nx</STYLE>y\n- item\n'],
    ['a raw block that ends on its line, after text (it interrupts)', 'Text\n<pre>one line</pre>\nmore\n'],
    ['a raw block left open to the end', '<script>\nlet a = 1;\n\n'],
    ['a complete tag alone on its line, to a blank line', '<span class="x" id=\'y\'>\n- not an item\n\n- an item\n\n</span>\n'],
    ['a complete tag after text (it cannot interrupt: text)', 'Text\n<span>\n<custom-tag/>\n'],
    ['tags that are not complete, and names micromark ends at once (text)', '<span>x</span>\n<a.b>\n\n<a b=>\n</ x>\n'],
    ['a complete tag in a quote, and a raw block in a quote', '> <span>\n> x\n\n> <pre>\n> y\n> </pre>\n'],
    ['a processing instruction to the line that ends it, after text (it interrupts)', 'Text\n<?php x\n- not an item\n\ny ?>\n- item\n'],
    ['processing instructions and declarations ending on their line (`<?>` too)', '<?xml version="1.0"?>\n<!DOCTYPE html>\n<?>\ntext\n'],
    ['a declaration over lines, and a CDATA section', '<!X\ny>\nz\n<![CDATA[\n> not a quote\n]]>\n'],
    ['a processing instruction in a quote of a quote', '> > a\n> <?x\n> ?>\n'],
    // Lazily after a quote's or an item's paragraph, micromark opens the block in that container.
    ['a complete tag lazily after a quote\'s paragraph', '> a\n<span>\nb\n'],
    ['a complete tag lazily after a quote\'s lazy line, then an empty `>` line and the quote\'s text', '> a\nlazy\n<span>\n>\n> c\n'],
    ['a complete tag lazily after an item\'s paragraph, a blank line and the item\'s text', '- a\n<span>\n\n  b\n'],
    ['a complete tag lazily after a nested item\'s paragraph, then text', '- a\n  - b\n<span class="x">\nc\n'],
  ])('takes HTML blocks: %s, as remark reads them', (_, text) => {
    takenAsRemarkReadsIt(text);
  });

  it('gives what remark gives on raw HTML blocks and complete tags (property)', () => {
    const tag = fc.constantFrom(
      '<pre>', '<pre class="x">', '<PRE>', '<pre', '</pre>', 'x</PRE>y', '</pre >', '<script>', '</script>', '<style>', '</style>', '<textarea>', '</textarea> after',
      '<pre>one line</pre>', '<span>', '<span class="x">', "<span class=x id='y'>", '<a href="u">', '</span>', '<span>x</span>', '<custom-tag>', '<custom-tag/>', '<x y=z=w>',
      '<a b="c"d>', '<a b = "c" >', '<a\u00a0b>', '<img src="x"/>', '</a >', '<a.b>', '</ x>', '<br/>', '<br />', '<br/ >', '<a b=`c`>', "<a b='c>", '<a :b _c=d>', '<a b=>',
      '<a b= c>', '<div>', '</div>', '<details>', '<!-- c -->', '<span  >  ', '<span>  x', '<a-b1>', '<1a>', '<a/b>', '<a b/>', '<a b="x"/>',
      '<?php x ?>', '<?xml', '?>', 'x ?> y', '<?>', '<!DOCTYPE html>', '<!x', 'a>', '<![CDATA[', '<![CDATA[x]]>', ']]>', '<![CDATA', '<!1>', '> <?x', '> ?>',
    );
    const other = fc.constantFrom(
      '', '', '', 'text yesterday', 'more text', '- item', '  continued', '1. one', '> quote', '> <span>', '> <pre>', '>', '# h', '```', '    code',
      '- <span>', '  <span>', '   <pre>', 'a <b>c</b>', '* star', '  - nested',
    );
    const line = fc.oneof({ weight: 3, arbitrary: tag }, { weight: 4, arbitrary: other });
    const eol = fc.constantFrom('\n', '\n', '\n', '\r\n', '\r');
    let taken = 0;
    fc.assert(
      fc.property(fc.array(line, { maxLength: 16 }), eol, fc.boolean(), fc.boolean(), (ls, e, fm, lastEnded) => {
        const text = (fm ? '---\nname: x\n---\n' : '') + ls.map((l, k) => l + (k < ls.length - 1 || lastEnded ? e : '')).join('');
        if (readsAsRemark(text)) taken++;
      }),
      { numRuns: 1500 },
    );
    expect(taken).toBeGreaterThan(500);
  });

  it('takes fences inside items, as remark reads them', () => {
    const text = '- Build\n  ```sh\n  npm run build\n\n    indented in the code\n  ```\n  After the fence.\n  - nested\n     ~~~\n     x\n     ~~~\n- next\n';
    const fast = lineBlocks(text);
    expect(fast).not.toBeNull();
    expect({ ...fast!, via: 'remark' }).toEqual(remarkBlocks(text));
    expect(fast!.codeBlocks.map((b) => [b.startLine, b.endLine, b.content])).toEqual([
      [2, 6, ['npm run build', '', '  indented in the code']],
      [9, 11, ['x']],
    ]);
  });

  it.each([
    ['an item (all of them are the code\'s)', '- a\n  ```\n  b\n\n   \n- c\n', [2, 5, ['b', '', ' ']]],
    ['a quote (all of them are the code\'s)', '- a\n  ```\n  b\n\n> c\n', [2, 4, ['b', '']]],
    ['the text\'s end (all of them are the code\'s)', '- a\n  ```\n  b\n\n\n', [2, 5, ['b', '', '']]],
    ['text (the last one is not, being empty)', '- a\n  ```\n  b\n\n\nx\n', [2, 4, ['b', '']]],
    ['a heading (the last one is, with no text left)', '- a\n  ```\n  b\n\n  \n# h\n', [2, 5, ['b', '']]],
    ['the outer item\'s text (the last one is, with text left)', '- a\n  - b\n    ```\n    c\n       \n  d\n', [3, 5, ['c', '   ']]],
  ])('takes a fence in an item that the item\'s end closes after blank lines, before %s', (_, text, block) => {
    const fast = lineBlocks(text);
    expect(fast).not.toBeNull();
    expect({ ...fast!, via: 'remark' }).toEqual(remarkBlocks(text));
    expect(fast!.codeBlocks.map((b) => [b.startLine, b.endLine, b.content])).toEqual([block]);
  });

  it('gives what remark gives on items holding fences (property)', () => {
    const line = fc.constantFrom('', '  ', '   ', '      ', '> q', '  > q', '- item', '  - nested', '1. one', '  ```', '  ```js', '   ```', '    ```', '  ~~~', '```', ' ```', '  code', '    deeper', 'text', '  text', '     far', '## h');
    expect(takenAsRemarkReads(line, 20, 1500)).toBeGreaterThan(300);
  });

  it('takes nested items whose content is text, as remark reads them', () => {
    const text = '- [A](a.md) — top\n  - [B](b.md) nested\n    - deeper\n  lazy\n  * other list\n- next\n   1. three in\n      - [C](c.md)\nText\n  - interrupts\n';
    const fast = lineBlocks(text);
    expect(fast).not.toBeNull();
    expect({ ...fast!, via: 'remark' }).toEqual(remarkBlocks(text));
    expect(fast!.lines.map((l) => l.item && [l.item.depth, l.item.contentStart, l.item.endLine, l.item.rootEndLine, l.item.link?.url ?? ''])).toEqual([
      [0, 2, 5, 5, 'a.md'], [1, 4, 4, 5, 'b.md'], [2, 6, 4, 5, ''], undefined, [1, 4, 5, 5, ''],
      [0, 2, 10, 10, ''], [1, 6, 9, 10, ''], [2, 8, 9, 10, 'c.md'], undefined, [1, 4, 10, 10, ''],
    ]);
    // 'Text' is a lazy line of the innermost paragraph; the item after it is the outer item's.
  });

  it('takes items holding quotes, blank lines and indented code, as remark reads them', () => {
    const text = [
      '- > Quoted [A](a.md)', '  > more of the quote', '  lazy', '  >', '  > after its empty line', '  >', '- a', '', '  - b after a blank line', '',
      '        code in b', '', '          deeper', '', '  back in a', '  > quote in a', '   - b2', '     > in b2', '> top quote', '- c', '', '      code in c', 'x',
    ].join('\n') + '\n';
    const fast = lineBlocks(text);
    expect(fast).not.toBeNull();
    expect({ ...fast!, via: 'remark' }).toEqual(remarkBlocks(text));
    expect(fast!.lines.map((l) => l.quote).join('')).toBe('11111000000000010110000');
    expect(fast!.codeBlocks.map((b) => [b.startLine, b.endLine, b.content])).toEqual([
      [11, 13, ['code in b', '', '  deeper']],
      [22, 22, ['code in c']],
    ]);
    expect(fast!.lines[0]!.item).toMatchObject({ contentStart: 2, endLine: 5 });
    expect(fast!.lines[0]!.item!.link).toBeUndefined();
  });

  it('takes quotes whose text starts with markup that opens no block, as remark reads them', () => {
    const text = '> **Why:** x\n> [A](a.md) and 2024\n- > *Note:* y\n  > <3 and _z_\n';
    takenAsRemarkReadsIt(text);
  });

  it('gives what remark gives on items holding quotes, blank lines and indented code (property)', () => {
    const line = fc.constantFrom(
      '', '  ', '    ', '      ', '       ', '- > q', '- >', '- > > qq', '1. > one', '  > in item', '  >', '   > three in', '    > four in', '      > six in', '> top', '>', ' > one in', '- a', '  - b', '    - c', '  2. two',
      'text', '  text', '    text', '      code', '        code', '          code', '  - > nested', '     > in nested', '  ```', '      ```', '```', '# h', '<!-- c -->', '      - code item',
      '        > code quote', '- [a](b.md) x', '   - three in', ' - one in', '> **b**', '- > [a](b.md)', '  > *x*', '> 2024', '> ***', '> ===', '> <3',
      '- > 2. x', '  > 1) y', '> !x', '- > ---', '  > # h', '> _x_', '- > **Why:** y', '>  two spaces', '- >', '- > ',
      '  **Why:** x', '>   **b**', '  > [a](b.md)', '>    [a](b.md)', '  \\x',
    );
    expect(takenAsRemarkReads(line, 20, 1500)).toBeGreaterThan(300);
  });

  it.each([
    ['an item\'s text', '- a\n  **Why:** b\n  [T](t.md) c\n   _d_\n'],
    ['a quote\'s text', '> a\n>   [x](y.md) b\n>  **c**\n'],
    ['a paragraph\'s first line', '  **x** y\n  \\z\n'],
  ])('takes indented lines that would be text in the first column: %s, as remark reads them', (_, text) => {
    takenAsRemarkReadsIt(text);
  });

  it('takes an item whose text opens a link that cannot end on its line, with no link, as remark reads it', () => {
    const text = '- [a](\n'.repeat(3) + '- [b](c.md\n  d)\n- [e\n  f](g.md)\n- [h](i.md) [j](\n';
    const fast = lineBlocks(text);
    expect(fast).not.toBeNull();
    expect({ ...fast!, via: 'remark' }).toEqual(remarkBlocks(text));
    expect(fast!.lines.map((l) => l.item?.link?.url)).toEqual([undefined, undefined, undefined, undefined, undefined, undefined, undefined, 'i.md']);
  });

  it.each([
    ['indented code and blank lines after it indented as far (the last one is the code\'s)', '- a\n\n      x\n      \n        \n      \n     \n  y\n'],
    ['a blank line indented as far as the code, its last line', '- a\n\n      x\n       \n'],
    ['indented code that closes a nested item (remark makes a block of each line)', '- a\n     - b\n\n      x\n      y\n'],
    ['indented code, then a last line of spaces with no line end', '- a\n\n      x\n      '],
    ['a fence indented at the top level, then a last line of spaces with no line end', '1. a\n  2. b\n  ```js\n  - c\n '],
  ])('gives what remark gives (or leaves it to remark): %s', (_, text) => {
    readsAsRemark(text);
  });

  // After a blank line that follows text no paragraph is open: an ordered item that does not start at 1 interrupts nothing.
  it.each([
    ['after a blank line', '- a\n\n  3. b\n\n  4. c\n'],
    ['after a blank line, a list of them, nested deeper', '1. a\n\n   2. b\n\n      7. c\n- d\n'],

    ['after a blank line, then lazy text', '- a\n\n  3. b\nlazy\n'],
  ])('reads a nested ordered item that does not start at 1 where nothing is open: %s', (_, text) => {
    const fast = lineBlocks(text);
    expect(fast).not.toBeNull();
    if (fast) expect({ ...fast, via: 'remark' }).toEqual(remarkBlocks(text));
    expect(blockModel(text)).toEqual({ ...remarkBlocks(text), via: blockModel(text).via });
  });

  it.each([
    ['a nested ordered item that does not start at 1, right after indented code (remark: text)', '- a\n\n      code\n  2. two\n'],
    ['a nested ordered item that does not start at 1, right after a fence', '- a\n  ```\n  x\n  ```\n  3. b\n'],
    ['a nested ordered item that does not start at 1, after indented code and a blank line (remark: text)', '- a\n\n      code\n\n  3. b\n'],
    ['code after a quote\'s empty line (remark makes a block of each line)', '- > q\n  >\n      x\n      y\n'],
    ['an item holding an empty quote, in a quote (remark ends it on the next line)', '> - >\n>   a\n'],
    ['a quote after text whose text may be an item (remark: text)', 'a\n> 2. x\n'],
    ['a quote holding only an empty quote, closed by the next line', '> > > \n> - item\n'],
    ['an empty quote in a quote, closed by the next line (remark: it takes that line)', '>>\n>- item\n'],
    ['a fence in a quote that the quote\'s end closes', '> ```js\n> x\n>\n'],
    ['a quote holding a quote after indented code and a blank line', '    code\n\n> > q\n'],
    ['a quote holding an empty quote, then an item', '> > a\n>\n> >\n- b\n'],
    ['quotes nested past the parse\'s cap with a tab among their marks', `${'> '.repeat(20)}>\t${'> '.repeat(13)}a\n`],
    ['a quote in a quote ending in a closed fence, then text (read again only at the top level)', '> > ```\n> > x\n> > ```\ntext\n'],
  ])('leaves %s to remark', (_, text) => {
    expect(lineBlocks(text)).toBeNull();
  });

  // remark reads what a line holds past its 32nd container as text (src/memdir/nesting.ts); the
  // line path reads the lines so capped (a staircase of quotes past the cap with lazy lines went
  // to remark whole, and micromark reads lazy lines in quadratic time).
  it.each([
    ['quotes nested past the parse\'s cap', `${'> '.repeat(33)}a\n`],
    ['items and quotes nested past the parse\'s cap (remark reads the rest of the line as text)', `${'- > '.repeat(17)}a\n`],
    ['a staircase of quotes past the cap, its lazy lines', Array.from({ length: 80 }, (_, k) => `${'>'.repeat((k % 40) + 1)} q ${k}\n`).join('')],
    ['a fence in quotes with lines past the cap', `> \`\`\`\n> ${'> '.repeat(40)}x\n> \`\`\`\n`],
  ])('reads %s as remark does', (_, text) => takenAsRemarkReadsIt(text));

  // A quote's content is a document of its own: quotes in quotes, lists and headings in quotes.
  it.each([
    ['a quote holding a list', '> - [Q](q.md)\n'],
    ['a quote whose list starts at 2 (nothing to interrupt)', '> 2. x\n'],
    ['nested quotes, with a lazy line of the inner one', '> a\n> > b\n> c\n\nx\n'],
    ['quotes nested four deep, and empty `>` lines', '> > > > a\n> > >\n> > > b\n>\n\n> > c\n'],
    ['a quote holding items that change marker, nested items and a heading', '> # Notes\n> - a\n>   - b\n> * c\n> 1. d\n>\n> text\n'],
    ['a quote in an item that opens with an empty line', '- a\n  >\n  > b\n'],
    ['a quote in an item after a blank line, holding a quote and a list', '- a\n\n  > > q\n  > - r\n  >   s\n\n- b\n'],
    ['a quote after a heading, then an item', '# h\n> > q\n- b\n'],
    ['a quote ended by a heading and by a fence', '> - a\n# h\n> > b\n```\nx\n```\n'],
    ['a quote after text, opening a list', 'text\n> - a\n> - b\n'],
    ['a quote holding a fence, and indented code after the quote in an item', '- a\n\n  > ```js\n  > x\n  > ```\n\n      code\n'],
    ['with CRLF and CR', '> > a\r\n> - b\r\n\r\n> > c\r>\r'],
    ['lazy lines of a nested quote\'s paragraph and of a list\'s in a quote', '> > a\nlazy\n> > b\n\n> - [Q](q.md)\nmore\n'],
    ['a lazy line of a quote in an item, and the item\'s text after it', '- a\n\n  > > q\nlazy\n  > - r\n  more\n\n- b\n'],
    ['quote lines at depths 1 to 3, each followed by an empty `>` line of its depth', '> a\n>\n> > > b\n> > >\n> c\n>\n> > d\n> >\n> > e\n> >\n'],
    ['a nested quote ended by its empty `>` line, then text (no lazy line: no paragraph is open)', '> > a\n> >\nb\n'],
    ['a quote holding a heading, then text (no lazy line)', '> # h\nmore\n'],
    ['a quote in an item holding a heading, then text (no lazy line)', '- a\n  > # h\nc\n'],
    ['a quote ending in a closed fence, then text (no lazy line)', '> a\n> ```\n> x\n> ```\nb\n'],
    ['a quote holding an HTML block, then text (it ends the block and the quote)', '> <div>\n> x\nlazy\n'],
    ['a quote in an item ending in a fence, then text at the top level', '- a\n  > ```\n  > ```\nb\n'],
    // A line with no `>` leaves a quote open that it does not go on: micromark then looks for a new
    // container with nothing to interrupt, and an ordered item not at 1 starts a list.
    ['a quote holding a list, then an ordered item that does not start at 1 (a list, not lazy)', '> - a\n2. b\n'],
    ['a quote\'s paragraph and its lazy line, then an ordered item at 2', '> a\nlazy\n2. c\n'],
    ['a quote in an item, then an ordered item at 2 in that item', '- x\n  > a\n  2. b\n'],
    ['a quote on an item\'s line, then an ordered item at 2 in the item', '- > a\n  2. b\n'],
    ['a quote holding a heading in an item after a blank line, then an ordered item at 3', '- x\n\n  > # h\n  3. b\n'],
    // An ordered item that does not start at 1 interrupts no paragraph: on a line that goes on
    // every open container it is more of the paragraph; on one that does not, it starts a list.
    ['an ordered item at 2 after top-level text, indented or not (more of the paragraph)', 'Text\n2. two\n   3. three\n- c\n'],
    ['a nested ordered item at 2 right after an item\'s text (more of it)', '- a\n  2. b\n  - c\n    3. d\n'],
    ['an ordered item at 2 after a nested item\'s text, going on the outer item only (a list in it)', '- a\n  - b\n  2. c\n'],
    ['an ordered item at 2 after an ordered item\'s text, indented by spaces and a tab', '1. a\n   \t2. two\n'],
    ['quotes nested twelve deep, with their empty `>` lines', `${'> '.repeat(12)}a\n${'> '.repeat(12)}\n> b\n>\n`],
    ['quotes nested twenty-five deep (the deepest read as text), and an item in a quote twenty-four deep', `${'> '.repeat(25)}a\n\n${'> '.repeat(24)}- > b\n`],
    ['quotes nested twenty deep in an item', `- a\n\n  ${'> '.repeat(20)}- b\n  >\n`],
    // A quote opening on an item's line, read as the quote lines indented into the item are.
    ['a quote on an item\'s line holding a heading', '- > # h\n'],
    ['a quote on an item\'s line opening a quote', '- > > q\n'],
    ['a quote on an item\'s line holding a list, then the next item', '- > - a\n  > - b\n\n- c\n'],
    ['a quote on an ordered item\'s line holding a quote, its empty `>` line and text', '1. > > a\n   > > b\n   >\n   > c\n2. d\n'],
    ['a quote on an item\'s line after text, opening a quote of text', 'text\n- > > a\n'],
    // Two to four spaces after an item's marker: its content starts after them.
    ['items with two, three and four spaces after their marker, and their lines', '-  a\n   b\n1.   c\n     - d\n-    e\n\n     f\n'],
    ['a quote on the line of an item with two spaces after its marker', '-  > > a\n   > b\n'],
    // With nothing open, an item indented one to three columns starts a list as one in the first
    // column does.
    ['items indented one to three columns: at the start, after a heading, a fence, a blank line after text', '  - a\n  b\n# h\n   1. a\n      c\n```\nx\n```\n - d\n\ne\n\n  * f\n'],
    ['an ordered item starting a quote\'s document after a tab', '>\t1. a\n>\t   b\n'],
    // Five columns or more: its content starts one column after the marker, and the rest of its
    // line is indented code.
    ['an item five columns after its marker, its code holding lines that would be a quote and an item, then the next item', '-     a yesterday\n      > b\n      - c\n\n-     d\n'],
    ['an ordered item five columns after its marker, its code over blank lines, its text, and the next item', '1.     a\n\n       b\n        \n\n   c\n2.      d\n'],
    ['a nested item five columns after its marker starting with a link (code: no link), then the outer item\'s text', '- x\n  -     [A](a.md)\n        b\n  y\n- z\n'],
    ['an item five columns after its marker interrupting a paragraph, then text (no lazy line after code)', 'text\n-     a\nb\n'],
    ['an item five columns after its marker in a quote, and one after a quote', '> -     a\n>       b\n\n> x\n-     c\n'],
    ['an item five columns after its marker as the text\'s last line, with no line end', '-     a\n      b'],
  ])('takes %s, as remark reads it', (_, text) => {
    takenAsRemarkReadsIt(text);
  });

  it('gives what remark gives on quotes holding quotes and lists, at the top level and in items (property)', () => {
    const body = fc.oneof(
      { weight: 10, arbitrary: fc.constantFrom('text yesterday', 'more text', '', '- item', '* star', '+ plus', '1. one', '1) paren', '2. two', '  continued', '  - nested', '   text', '# h', '- [A](a.md) x', '**Why:** z') },
      { weight: 2, arbitrary: fc.constantFrom('    code', '      deeper', '```', '```js', '~~~', '<!-- c -->', '<div>', '- > q', '- ', '-', '<span>x</span>', 'Title', '===', '---', '3. three', '    - four') },
    );
    const quoteLine = fc.tuple(fc.integer({ min: 1, max: 4 }), fc.constantFrom('> ', '> ', '> ', '>', ' > '), body).map(([d, mark, b]) => mark.repeat(d) + b);
    const run = fc.tuple(
      fc.constantFrom('', '', '', '- item yesterday', '* star item', '1. one', '  - nested', '- [B](b.md) — hook'),
      fc.constantFrom(['', ''], ['', ''], [], ['    '], ['', '', '']),
      fc.array(quoteLine, { minLength: 1, maxLength: 8 }),
      fc.oneof({ weight: 8, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom('lazy text', '- item after', '# heading after', '1. one after', '2. two after', '      code after', '  text after', '> plain quote') }),
    ).map(([item, gap, quoted, after]) => {
      const indent = item.startsWith('  - ') ? '    ' : item.startsWith('1. ') ? '   ' : item ? '  ' : '';
      return [...(item ? [item, ...gap.slice(0, gap.length - 1)] : []), ...quoted.map((q) => indent + q), ...(after ? [indent + after] : [])];
    });
    const between = fc.constantFrom([''], [''], [''], ['', ''], [], ['Text yesterday.'], ['# Heading'], ['    code', ''], ['', '      code', ''], ['```', 'x', '```', '']);
    const eol = fc.constantFrom('\n', '\n', '\n', '\r\n', '\r');
    let taken = 0;
    fc.assert(
      fc.property(fc.array(fc.tuple(run, between), { minLength: 1, maxLength: 4 }), eol, fc.boolean(), fc.boolean(), (blocks, e, fm, lastEnded) => {
        const ls = blocks.flatMap(([b, s]) => [...b, ...s]);
        const text = (fm ? '---\nname: x\n---\n' : '') + ls.map((l, k) => l + (k < ls.length - 1 || lastEnded ? e : '')).join('');
        if (readsAsRemark(text)) taken++;
      }),
      { numRuns: 1500 },
    );
    expect(taken).toBeGreaterThan(50);
  });

  it.each([
    ['followed by quote lines holding a quote and a list', '- > a\n  > > b\n  > - c\n1. > d\n'],
    ['after a tab, followed by quote lines indented by a tab', '-\t> a\n\t> > b\n\t> - c\n1.\t> d\n'],
  ])('takes an item opening a quote of text on its line %s, as remark reads it', (_, text) => {
    takenAsRemarkReadsIt(text);
  });

  it('takes quotes nested thirty deep, each line followed by an empty `>` line, as remark reads them', () => {
    takenAsRemarkReadsIt(`${'> '.repeat(30)}a yesterday\n${'>'.repeat(30)}\n\n${'> '.repeat(28)}- > b\n`);
  });

  it.each([
    ['then its text', '- >\n  text yesterday\n\n- >\n  more\n'],
    ['then more empty `>` lines, a quote of text and the item\'s text', '- >\n  >\n  > b\n  >\n  c\n'],
    ['then the next item, and text that ends the list', '- >\n- b\n1. >\ntext\n'],
    ['then a nested item', '- >\n  - c\n'],
    ['in a nested item, after a tab', '- a\n\t- >\n\t  b\n'],
    ['as the text\'s last line', '- >'],
  ])('takes an item opening an empty quote on its line, %s, as remark reads it', (_, text) => {
    takenAsRemarkReadsIt(text);
  });

  it('takes an empty quote in an item, holding no block, as remark reads it', () => {
    takenAsRemarkReadsIt('- a\n  - b\n  >\n  c\n- d\n  >\n- e\n  >');
  });

  it('gives what remark gives on quote lines at changing depths with empty `>` lines and lines after them (property)', () => {
    // Each quote line at a depth of its own, maybe followed by an empty `>` line of its depth or of
    // another, and by a line with no `>` (lazy text, an item of any kind, a heading...); at the top
    // level, or in an item (some opening a quote on their line, of text or of more).
    const body = fc.oneof(
      { weight: 20, arbitrary: fc.constantFrom('note yesterday', 'more text', '- item', '* star', '1. one', '2. two', '# h', '- [A](a.md) x', '  continued', '  - nested') },
      { weight: 2, arbitrary: fc.constantFrom('', '    code', '```', '<!-- c -->', '<div>', '<span>', '- ', '-', 'Title', '===', '3) three', '> ') },
    );
    const mark = fc.constantFrom('> ', '> ', '> ', '>', ' > ', '>\t');
    const depth = fc.oneof({ weight: 12, arbitrary: fc.integer({ min: 1, max: 3 }) }, { weight: 2, arbitrary: fc.integer({ min: 1, max: 12 }) }, { weight: 1, arbitrary: fc.integer({ min: 20, max: 34 }) });
    const quoteLine = depth.chain((d) => fc.tuple(fc.array(mark, { minLength: d, maxLength: d }), body)).map(([ms, b]) => ms.join('') + b);
    const emptyQuote = depth.chain((d) => fc.constantFrom('> ', '>').map((mk) => mk.repeat(d).trimEnd()));
    const after = fc.constantFrom('lazy text', '2. b', '1. b', '- b', '# h', '```', '<span>', '<!-- c -->', '  text', '    code', '-', '3.', '  - nested', '   2. x');
    const entry = fc
      .tuple(
        quoteLine,
        fc.oneof({ weight: 4, arbitrary: fc.constant('same') }, { weight: 2, arbitrary: fc.constant(null) }, { weight: 2, arbitrary: emptyQuote }),
        fc.oneof({ weight: 6, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: after }),
        fc.oneof({ weight: 5, arbitrary: fc.constant([]) }, { weight: 2, arbitrary: fc.constant(['']) }, { weight: 1, arbitrary: fc.constantFrom(['Text.'], ['# Heading'], ['- item'], ['```', 'x', '```']) }),
      )
      .map(([q, empty, next, sep]) => [q, ...(empty === 'same' ? [q.replace(/^((?: *>)+).*$/, '$1').trimEnd()] : empty ? [empty] : []), ...(next ? [next] : []), ...sep]);
    const run = fc.tuple(fc.constantFrom('', '', '', '', '- item yesterday', '1. one', '  - nested', '- > > quoted', '- > - item', '1. > # h', '- > quoted yesterday', '1. > text', '- >', '1. >'), fc.constantFrom([''], []), fc.array(entry, { minLength: 1, maxLength: 6 })).map(([item, gap, es]) => {
      const indent = item.startsWith('  - ') ? '    ' : item.startsWith('1. ') ? '   ' : item ? '  ' : '';
      return [...(item ? [item, ...gap] : []), ...es.flat().map((l) => (l === '' ? '' : indent + l))];
    });
    const eol = fc.constantFrom('\n', '\n', '\n', '\r\n', '\r');
    let taken = 0;
    fc.assert(
      fc.property(fc.array(run, { minLength: 1, maxLength: 2 }), eol, fc.boolean(), fc.boolean(), (runs, e, fm, lastEnded) => {
        const ls = runs.flatMap((r) => [...r, '']);
        const text = (fm ? '---\nname: x\n---\n' : '') + ls.map((l, k) => l + (k < ls.length - 1 || lastEnded ? e : '')).join('');
        if (readsAsRemark(text)) taken++;
      }),
      { numRuns: 1000 },
    );
    expect(taken).toBeGreaterThan(120);
  });

  it('gives what remark gives on items with one to five spaces (or tabs) after their marker (property)', () => {
    const marker = fc.constantFrom('-', '*', '+', '1.', '2.', '1)', '10.');
    const spaces = fc.constantFrom(' ', ' ', '  ', '   ', '    ', '     ', '\t', ' \t', '\t ');
    const content = fc.constantFrom('item yesterday', 'text', '[A](a.md) x', '> q', '> > q', '# h', '```', '- inner', '');
    const indent = fc.constantFrom('', '', '', ' ', '  ', '   ', '    ', '     ', '      ', '        ', '\t', '  \t');
    const item = fc.tuple(indent, marker, spaces, content).map(([i, mk, sp, c]) => i + mk + sp + c);
    const other = fc.tuple(indent, fc.constantFrom('text', 'more', '> q', '```', 'code', '# h', '')).map(([i, c]) => (c === '' ? '' : i + c));
    const line = fc.oneof({ weight: 3, arbitrary: item }, { weight: 3, arbitrary: other }, { weight: 1, arbitrary: fc.constant('') });
    const eol = fc.constantFrom('\n', '\n', '\n', '\r\n', '\r');
    let taken = 0;
    fc.assert(
      fc.property(fc.array(line, { maxLength: 14 }), eol, (ls, e) => {
        if (readsAsRemark(ls.map((l) => l + e).join(''))) taken++;
      }),
      { numRuns: 800 },
    );
    expect(taken).toBeGreaterThan(80);
  });

  it('gives what remark gives on items with five columns or more after their marker, and the lines under them (property)', () => {
    const marker = fc.constantFrom('-', '*', '+', '1.', '2.', '1)', '10.');
    const spaces = fc.constantFrom('     ', '     ', '      ', '        ', '         ', '    \t', '\t ', '\t  ', '\t\t', ' \t\t', '  ');
    const content = fc.constantFrom('code yesterday', 'a', '> b', '- c', '[A](a.md) x', '```', '# h', '1. d', '');
    const item = fc.tuple(fc.constantFrom('', '', '', '', '  ', '   '), marker, spaces, content).map(([i, mk, sp, c]) => i + mk + sp + c);
    const under = fc.tuple(fc.constantFrom('', ' ', '  ', '   ', '    ', '     ', '      ', '       ', '        ', '          ', '\t', '      \t'), fc.constantFrom('b yesterday', '> q', '- c', 'x', '```', '')).map(([i, c]) => i + c);
    const other = fc.constantFrom('', '', 'text', '> quote', '- item', '# h', '<div>', '    code');
    const line = fc.oneof({ weight: 3, arbitrary: item }, { weight: 4, arbitrary: under }, { weight: 1, arbitrary: other });
    const eol = fc.constantFrom('\n', '\n', '\n', '\n', '\r\n');
    let taken = 0;
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 8 }), eol, fc.boolean(), fc.boolean(), (ls, e, quoted, lastEnded) => {
        const text = ls.map((l, k) => (quoted ? '> ' : '') + l + (k < ls.length - 1 || lastEnded ? e : '')).join('');
        if (readsAsRemark(text) && /^(?:> )?[ \t]*(?:[-*+]|\d+[.)]) {5}/m.test(text)) taken++;
      }),
      { numRuns: 1500 },
    );
    expect(taken).toBeGreaterThan(100);
  });

  it('gives what remark gives on tabs after markers, as indentation and in quotes, among spaces (property)', () => {
    const indent = fc.constantFrom(' ', '  ', '   ', '\t', '\t', '\t', ' \t', '  \t', '   \t', '\t ', '\t  ', '\t\t', '    ', '      ');
    const marker = fc.constantFrom('-', '-', '*', '+', '1.', '1)', '2.', '10.', '>', '>', '>');
    const space = fc.constantFrom(' ', ' ', '\t', '\t', '\t', '  ', ' \t', '\t ', '\t\t', '   \t', '');
    const content = fc.oneof(
      { weight: 12, arbitrary: fc.constantFrom('text yesterday', 'more text', '[A](a.md) x', '> q', '**Why:** z') },
      { weight: 3, arbitrary: fc.constantFrom('```', '```', '```js', '~~~', '```\t', '\tcode', '  \tcode', 'code', 'a\tb\t', '<div\tclass="x">', '# h', '', 'x\ty', '<div>', '<!-- c -->', '-', '2. two', '- inner', '1. one') },
    );
    const container = fc.tuple(marker, space).map(([m, sp]) => m + sp);
    const top = fc.tuple(fc.oneof({ weight: 4, arbitrary: container }, { weight: 1, arbitrary: fc.constant('') }), content).map(([c, t]) => c + t);
    const under = fc.tuple(indent, fc.array(container, { maxLength: 2 }), content).map(([i, cs, t]) => i + cs.join('') + t);
    const blank = fc.constantFrom('', '', '\t', ' \t', '>', '>\t', '\t>');
    const entry = fc.tuple(top, fc.array(fc.oneof({ weight: 5, arbitrary: under }, { weight: 1, arbitrary: blank }), { maxLength: 3 }), fc.constantFrom([], [''], ['\t'])).map(([t, us, b]) => [t, ...us, ...b]);
    const eol = fc.constantFrom('\n', '\n', '\n', '\r\n', '\r');
    let taken = 0;
    fc.assert(
      fc.property(fc.array(entry, { minLength: 1, maxLength: 3 }), eol, fc.boolean(), fc.boolean(), (es, e, fm, lastEnded) => {
        const ls = es.flat();
        const text = (fm ? '---\nname: x\n---\n' : '') + ls.map((l, k) => l + (k < ls.length - 1 || lastEnded ? e : '')).join('');
        if (readsAsRemark(text) && text.includes('\t')) taken++;
      }),
      { numRuns: 2000 },
    );
    expect(taken).toBeGreaterThan(200);
  });

  it('gives what remark gives on code in items and quotes whose lines hold tabs, in their indentation and further in (property)', () => {
    const opener = fc.constantFrom('- a', '1. a', '-\ta', '1.\ta', '  - b', '- > a', '-     a', '');
    const indent = fc.constantFrom('  ', '   ', '\t', ' \t', '  \t', '   \t', '\t ', '\t  ', '\t\t', '      ', '  \t  ', '\t    ', '   \t\t', '\t\t\t', '    ');
    const code = fc.constantFrom('x', 'a\tb', '-\tc', '>\td', '\ty', '```', '~~~', '```\t', '```js\tz', 'code yesterday', '', '\t');
    const codeLine = fc.tuple(indent, code).map(([i, c]) => i + c);
    const other = fc.constantFrom('', '', '\t', '  \t', '    ', 'text', '  text', '- next', '  ```', '\t```', '```');
    const entry = fc.tuple(opener, fc.array(fc.oneof({ weight: 5, arbitrary: codeLine }, { weight: 2, arbitrary: other }), { minLength: 1, maxLength: 8 })).map(([o, ls]) => (o ? [o, ...ls] : ls));
    const eol = fc.constantFrom('\n', '\n', '\n', '\r\n', '\r');
    let taken = 0;
    fc.assert(
      fc.property(fc.array(entry, { minLength: 1, maxLength: 2 }), fc.constantFrom('', '', '> ', '>\t', '>'), eol, (es, quote, e) => {
        const text = es.flat().map((l) => quote + l + e).join('');
        if (readsAsRemark(text) && lineBlocks(text)!.codeBlocks.length > 0 && text.includes('\t')) taken++;
      }),
      { numRuns: 2000 },
    );
    expect(taken).toBeGreaterThan(250);
  });

  it('gives what remark gives on fences in the first column whose code holds tabs, among lines with tabs in text (property)', () => {
    const line = fc.constantFrom(
      '```', '```', '```go', '~~~', '```\t', '\tx := 1\t// c', '\t\tdeep\tcode', 'a\tb', 'text', '', '', '\t', '-\ta', '\tcontinued',
      '<div\tclass="x">', '# h\tx', '- [A](a.md)\tx', '> q\tr', '  ```', '\t```',
    );
    const eol = fc.constantFrom('\n', '\n', '\r\n', '\r');
    let taken = 0;
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 10 }), eol, (ls, e) => {
        if (readsAsRemark(ls.map((l) => l + e).join(''))) taken++;
      }),
      { numRuns: 1500 },
    );
    expect(taken).toBeGreaterThan(150);
  });

  it('gives what remark gives on lines holding tabs after their first character: text, headings, tags, fences\' info (property)', () => {
    const line = fc.constantFrom(
      '- [A](a.md) — hook yesterday', 'text yesterday, more', '# Notes on it', '## a b #', '> quoted text here', '> - [Q](q.md) x y', '1. one two', '  - nested item x',
      '  continued text', '```js x', '```', '~~~ sh', '  ```ts y', '  code a b', '<div class="x">', '<span id="y">', '</div >', '<pre x>', '<!-- c d -->', '', '', '',
      '    indented code', '- a', '  > q r', '**Why:** x y', '- [T](t.md)', '> # h x', '>', 'lazy line', '-\ttab item', '\tunder', '---', '1. > a b',
    );
    // Tabs put after the line's first character that is not a space, each over a space or before a character.
    const tabbed = fc.tuple(line, fc.array(fc.tuple(fc.nat(60), fc.boolean()), { maxLength: 3 })).map(([l, tabs]) => {
      let out = l;
      for (const [n, over] of tabs) {
        const first = out.search(/[^ \t]/);
        if (first < 0) break;
        const at = first + 1 + (n % (out.length - first));
        out = out.slice(0, at) + '\t' + out.slice(over && out[at] === ' ' ? at + 1 : at);
      }
      return out;
    });
    const eol = fc.constantFrom('\n', '\n', '\n', '\r\n', '\r');
    let taken = 0;
    fc.assert(
      fc.property(fc.array(fc.oneof({ weight: 2, arbitrary: tabbed }, { weight: 1, arbitrary: line }), { minLength: 1, maxLength: 14 }), eol, fc.boolean(), fc.boolean(), (ls, e, fm, lastEnded) => {
        const text = (fm ? '---\nname:\tx\n---\n' : '') + ls.map((l, k) => l + (k < ls.length - 1 || lastEnded ? e : '')).join('');
        if (readsAsRemark(text) && /[^ \t\r\n]\t/.test(text)) taken++;
      }),
      { numRuns: 2000 },
    );
    expect(taken).toBeGreaterThan(500);
  });

  it.each([
    ['a tab after an item\'s marker, and nested items indented by a tab', '-\ta yesterday\n\t-\tb\n\t\t-\tc\n1.\tone\n'],
    ['lines of an item\'s paragraph indented by a tab, across a blank line', '- a\n\tcontinued\n\n\tmore\n'],
    ['a tab the space after a marker takes part of', '1.\ta\n  \t- b\n   \t- c\n'],
    ['tabs after a quote\'s marker', '>\tquoted\n> \tmore\n>\t> nested\n'],
    ['an item opening quotes after a tab, and quotes indented by a tab', '-\t> > a\n\t> - c\n\n1.\t> > d\n'],
    ['a tab before an item\'s link', '-\t[A](a.md) x\n\t* [B](b.md)\n'],
    ['a fence in the first column whose code is indented by tabs', '```\n\tcode\n\t\tmore\n```\n-\tafter\n'],
    ['a fence in the first column whose code holds tabs anywhere, closed after a tab', '```go\nfunc f() {\n\tx := 1\t// c\n}\n```\t\n-\tafter\n~~~\na\tb'],
    ['tabs with CR and CRLF', '-\ta\r\n\tb\r\n\t-\tc\r\n-\td\r\te\r'],
    // A tab after a line's first character that is not a space, a tab or a container's marker is
    // read as written: it tells no block from another.
    ['a tab in an item\'s text, in a paragraph and in a quote', '- a\tb yesterday\ntext\tmore\t\n> q\tr\n'],
    ['tabs in a heading: after the `#`, in its text and after it', '#\th\tx\t\n## a\tb\n'],
    ['a tab in a fence\'s info string, in the first column and in an item', '```js\tx\ny\n```\n- a\n  ~~~\tsh\n  b\n  ~~~\n'],
    ['a tab after a tag\'s name (an HTML block to a blank line), and in a closing tag', '<div\tclass="x">\n- a\n\n</div\t>\nb\n'],
    ['a tab in the text of an item\'s link, and after it', '-\t[A\tB](a.md)\tx\n\t* [C](c.md)\ty\n'],
    ['tabs in the text of a quote read as a document, and in its heading before a lazy line', '> - a\tb\n>\t- [A](a.md)\tc\n\n> #\th\nlazy\tline\n'],
    ['tabs in text and frontmatter, with CR and CRLF', '---\r\nname:\tx\r\n---\r\n- a\tb\r\tc\td\r'],
    // A code line's text starts in the column its containers and the code's indentation leave: what
    // is left there of a tab is spaces, and the rest of the line is as written.
    ['a tab in the code of an item\'s fence, one an item\'s indentation takes part of, and a closing fence after a tab', '- a\n  ```go\n  \tx := 1\t// c\n \t\ty\n\t```\n'],
    ['tabs in an item\'s indented code and in its blank lines, and after an ordered item\'s tab', '- a\n\n\t\tcode\n\t\t\n\t\t  more\ty\n\t\n  b\n1.\ta\n\n\t    code\ty\n'],
    ['tabs in the code of a quote\'s fence', '> ```\n> \t\tx\n>  \ty\n> ```\n'],
    ['code lines in an item\'s fence that would be markers followed by a tab', '- a\n  ```\n  -\tx\n  >\ty\n  ```\n'],
    ['tabs in the code an item five columns after its marker starts with', '-     a\tb\n      \tc\n'],
    ['items five columns after their marker reached by a tab (their content starts inside it)', '-\t\ta\n-\t    b\n1.\t\t\tc\n  \t  d\n> -\t\te\n'],
  ])('takes %s, as remark reads it', (_, text) => {
    takenAsRemarkReadsIt(text);
  });

  it.each([
    ['a no-break space before a marker (content, not indentation)', '- a\n \u00a0- b\n'],
    ['a no-break space around a heading\'s text', '# \u00a0a\u00a0\n'],
    ['an em space at the end of a heading', '# a\u2003\n'],
    ['a no-break space before a fence\'s info', '```\u00a0js\nx\n```\n'],
  ])('reads only spaces and tabs as whitespace: %s', (_, text) => {
    readsAsRemark(text);
  });

  it.each([
    ['a fence in an item that the text\'s end closes on spaces with no line end', '- a\n  ```\n  b\n  '],
    ['a fence whose info string holds an escape', '```js\\!\nb\n```\n'],
    ['a setext heading of two lines in a quote (its text holds the second line\'s `>`)', '> a\n> b\n> ===\n'],
    ['indented code in a text whose lines end in a lone CR', 'a\r\r    code\r'],
    ['indented code in a text holding a CR and a tab', 'a\r\n\r\n    code\tx\r\n'],
    ['a complete tag lazily after a quote\'s paragraph, then a line that goes on the quote', '> a\n<span>\n> b\n'],
    ['a complete tag lazily after an item\'s paragraph as the last line, with no line end', '- a\n<span>'],
    ['a setext underline under a lazy line of a quote', '> a\nb\n===\n'],
    ['`===` after a quote (a lazy line of its paragraph)', '> a\n===\n'],
    ['an item starting with a link text, then what may be an inline link', '[t]: t.md\n\n- [t](x y.md) z\n'],
    ['an item starting with a link text holding an angle bracket', '[t]: t.md\n\n- [a <b>][t]\n'],
    ['an item starting with a label not closed on its line', '[t]: t.md\n\n- [T][t\n  ] x\n'],
    ['a destination holding a character reference (remark decodes it)', '[t]: a&amp;b.md\n\n- [t]\n'],
    ['an item starting with a reference link on a line holding a tab', '[t]: t.md\n\n- [T][t]\tx\n'],
    ['a definition whose title may be on the next line', '[t]: t.md\n"T"\n'],
    ['a definition followed by an indented line (it goes on the paragraph)', '[t]: t.md\n    more\n'],
    ['a definition in a quote', '> [t]: t.md\n'],
    ['a line holding `]:` that may end a definition whose label started on the line before', '[t]: t.md\n\n[a\nb]: c\n'],
    ['a line holding `]:` on a paragraph whose first line may start a definition', '[t]: t.md\n\n[a] b\nx [c]: d\n'],
    ['indented code starting inside a tab, its text looking like a fence (remark\'s model reads a fence)', '- a\n\n\t  ```js\tx\n'],
    ['a tab in the code of a quote\'s fence whose lines end in a lone CR (one string: its lines are not cut)', '> ```\r> a\r> -\tc\r> ```\r'],
    ['an underline in an outer item under a nested item\'s paragraph (no lazy line: a break)', '- a\n  - b\n  ---\n'],
    ['an empty item under a paragraph (an underline, or text)', 'a\n-\nb\n*\n'],
    ['an empty item right after indented code and a blank line (micromark reads it as text)', '    code\n\n-\n'],
    ['an empty item with a tab after its marker', '-\t\n  a\n'],
    ['unclosed frontmatter', '---\na: 1\n'],
    ['a link it does not read (an inline tag in its text)', '- [a <b>] c](x.md)\n'],
  ])('leaves %s to remark', (_, text) => {
    expect(lineBlocks(text)).toBeNull();
    expect(blockModel(text).via).toBe('remark');
  });

  it('gives what remark gives, on generated Markdown (property)', () => {
    const line = fc.oneof(
      fc.constantFrom(
        '', '   ', '# Memory', '## Feedback', '### Project notes #', '#tag', 'Prose line.', 'More *prose* with `code`.',
        '- [T](t.md) — hook', '* [B](./b.md): x', '+ [C](c%20d.md)', '- [](e.md)', '- [T](t.md', '- [T](<t s.md>)', '- [a](b.md)(c)',
        '- plain item', '-  two spaces', '1. [O](o.md) — ordered', '1) one', '2. two', '10. ten', '-', '*', '1.',
        '---', '***', '- - -', '===', '___', 'Title', '> quoted', '> - [Q](q.md)', '    indented', '  - [N](n.md) nested',
        '```', '~~~', '```md', '<!-- c -->', '<div>', '[t]: t.md', '- [R][t]', '[x] checkbox', '\t- tab', '- [ ] task',
        '[A](a.md) — no bullet', '  ```', '  ```js', '    ```', '   ~~~~', ' ```', '  x = 1', '      y', '- <3', '- < x', '- <div>', '- <!-- c -->', '<details>', '</DIV>', '<div/>', '<div/x', '<table', '<pre>', '</pre>', '<custom-tag>', '<br/>', '<!-- open', 'end -->', '<!---->', '<!--->', '- a <!-- b', '  - [N](n.md) — nested', '    * deeper', '     - five', '        - eight', '  2) two', '   10. ten', '<3', '<', '- [[[', '- [a', 'b](c.md)', '- [a](', '- [a](b', '  c)', '- [a](b c)', '- [a](b) [c](', '  continued text', '      deep continued', '   - not text', '  # not text', '—', '字', 'https://x.example/a?b=c', 'name: x', '- # heading in item', '> > nested quote', '> # quoted heading', '>   - quoted nested', '- > quote in item', '  > quote in item', '  >', '   > three in', '        code in item', ' \u00a0- nbsp', '# a\u00a0', '#\u2003x', '```\u00a0js', '\u00a0text', '  \u00a0```',
      ),
      fc.string({ maxLength: 8 }),
    );
    const eol = fc.constantFrom('\n', '\r\n', '\r');
    fc.assert(
      fc.property(fc.array(fc.tuple(line, eol), { maxLength: 24 }), fc.boolean(), fc.boolean(), (parts, fm, lastEnded) => {
        const text = (fm ? '---\nname: x\n---\n' : '') + parts.map(([l, e], k) => l + (k < parts.length - 1 || lastEnded ? e : '')).join('');
        const fast = lineBlocks(text);
        if (fast) expect({ ...fast, via: 'remark' }).toEqual(remarkBlocks(text));
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    ['a setext underline', 'Feedback\n---\n'],
    ['setext headings of one and of three lines, indented, with trailing spaces', 'Title yesterday\n===\n\n  Two\nlines\n   three  \n-----  \n'],
    ['thematic breaks interrupting a paragraph and closing items', 'a\n***\n- b\n---\n- c\n\n_ _ _\n'],
    ['`===` starting a paragraph, then its setext underline', '===\n---\n'],
    ['indented code at the top level over blank lines, then text', 'a\n\n    code\n\n      more\n\nb\n'],
    ['indented code in a quote', '> a\n>\n>     code\n'],
    ['indented code at the top level with CRLF line ends (each line but the last keeps its CR)', 'a\r\n\r\n    code\r\n\r\n      more\r\n    \r\nb\r\n'],
    ['a setext heading in a quote', '> Title\n> ===\n'],
    ['reference definitions of one line, with and without a title, then a paragraph and an item starting with an inline link', '[a]: a.md\n[b]: b.md "B"\ntext [a]\n\n- [A](a.md) — hook\n'],
    ['what looks like a definition after a paragraph line (it interrupts none: text)', 'text\n[t]: t.md\n'],
    ['a definition, then a line holding `]:` that starts a paragraph and cannot start one', '[a]: b\nx [c]: d\n'],
    [
      'lines holding `]:` that start a paragraph and are no definition, or go on one whose first line starts none',
      '[t]: t.md\n\n[10:32]: deployed the fix\n[10:33]: checked\n\nNote [a]: b\n  [x]: y\n\n- [t] x\n',
    ],
    ['first-column lines of marks that open nothing: text starting, going on and ending paragraphs', '*_*_\n\n- item\n_*\n\ntext\n=-\n-_ -\n'],
    ['items opening items on their own line, and what goes on the innermost', '- - a\n  b\n- 1. - c yesterday\n       more\n    - d\ntext\n\n* + - deep\n'],
    ['items whose first block is an ATX heading, then what goes on them and what ends the list', '- # Deploy\n  text in the item\n- ## Two ##x\n\n  more\n1. # One\nlazy text is no lazy line\n'],
    ['a definition after a list, and items that start with reference links it resolves', '- [T][t]\n- [t] — x\n\n[t]: t.md\n'],
    [
      'items starting with full, collapsed and shortcut references, defined and not, labels folded',
      '[Deploy  Log]: d.md\n[a]: a.md\n[a]: second.md\n\n- [x][deploy log] — full\n- [DEPLOY LOG][] — collapsed\n- [a] — shortcut, first definition\n- [a][b] — a full label not defined: no link\n- [b][] — no link\n- [ ] — no link\n- [][a] — empty text\n  - [A] — nested\n> - [a] quoted\n',
    ],
    // An item's first text: an autolink or an inline tag (no HTML block), a link whose text holds
    // escapes, whose destination is in angle brackets or has a title; ATX headings closed by `#`s.
    ['items starting with autolinks and inline tags', '- <http://x/a> y\n- <kbd>K</kbd> z\n- <3 love\n- <a b> no tag\n'],
    ['links whose text holds escapes, and destinations in angle brackets or with titles', '[t]: t.md\n\n- [a\\]b][t]\n- [a \\` b](<x y.md>) c\n- [d](d.md "D") e\n- [f](f.md \'F\')\n- [g](<> (G))\n'],
    ['ATX headings closed by `#`s, and `#` that closes nothing', '# h ##\n## C#\n### h \\#\n#### ###\n#tag is text\n####### seven is text\n- # h #\n'],
    ['definitions whose destination is in angle brackets, and the items they link', '[a]: <a b.md>\n[e]: <>\n[t]: <t.md> "T"\n\n- [a] x\n- [T][t] y\n- [e]\n'],
    ['a lone `-` in the item whose paragraph is open (an underline there, not an empty item)', '- a\n  -\n'],
    ['setext headings in items: of the item\'s first paragraph, with a lazy line, and after a blank line', '- a\n  ---\n- [T](t.md) b\nlazy\n  ===\n- c\n\n  d\n  ---\n'],
    ['items opening an HTML comment that ends on their line (the item\'s first block), then text in the item', '- <!-- c --> y yesterday\n  more\n1. <!-- o -->\n'],
    // An item whose first line holds only its marker: its content starts on the next line, one
    // column after the marker; after a blank line, or a line indented less, it has none.
    ['an empty item, and one with a space after its bullet', '-\n\n+ \n'],
    ['an empty item after a paragraph\'s last line (a sibling of the item the paragraph is in)', '- a\n-\n'],
    ['empty items whose content is on the next line, indented to the column after the marker', '-\n  a yesterday\n-\n  b\n  more\n1.\n   c\n'],
    ['an empty item followed by a blank line and an indented line (a paragraph of its own)', '-\n\n  a\n'],
    ['empty items holding a fence, a quote, a nested item and indented code', '-\n  ```\n  x\n  ```\n*\n  > q\n\n+\n  - n\n-\n      code\n'],
    ['an empty nested item, then text of the item holding it', '- a\n\n  -\n\n  b\n'],
  ])('takes %s, as remark reads it', (_, text) => {
    takenAsRemarkReadsIt(text);
  });

  it('gives what remark gives on setext underlines, thematic breaks and top-level indented code (property)', () => {
    const line = fc.constantFrom(
      '', 'Title yesterday', '  indented text', 'text\twith tab', '===', '=== ', '---', '--', '-', '- - -', '***', '* * *', '___', '_ _', '= =', '----\t',
      '    code yesterday', '      deeper', '\tcode by tab', '    - not an item', '    ```', '- item', '  - nested', '1. one', '2. two', '10. ten',
      '> quoted', '> ===', '> ---', '>', '```', '# h', '<!-- c -->', 'lazy', '*_*_', '-_', '=-', '_*', '*-*', '-=-', '_ -', '** ', '- _',
    );
    expect(takenAsRemarkReads(line, 16, 2500)).toBeGreaterThan(400);
    const eol = fc.constantFrom('\n', '\n', '\r\n');
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), eol, fc.boolean(), fc.boolean(), (ls, e, fm, lastEnded) => {
        readsAsRemark((fm ? '---\nname: x\n---\n' : '') + ls.map((l, k) => l + (k < ls.length - 1 || lastEnded ? e : '')).join(''));
      }),
      { numRuns: 1500 },
    );
  });

  it('gives what remark gives on reference definitions among paragraphs, items, quotes and code (property)', () => {
    const line = fc.constantFrom(
      '', '[t]: t.md', '[a]: b.md "T"', '  [u]:u.md', '[t]: x', '[^1]: note', '[x]: y z', 'text', 'Title', '===', '---', '***', '- item', '- [A](a.md) x',
      '1. one', '2. two', '# h', '> q', '> [t]: q', '```', '    code', '  indented', '<div>', '<!-- c -->', '"t"', "'t'", '(t)', '[x] y', '- [t]', 'a]: b', '[t]: a b',
      '[t] yesterday', '[x](y) z', '[t][a] b', '[ab', 'c]: d', ':', '-',
    );
    expect(takenAsRemarkReads(line, 14, 2500)).toBeGreaterThan(500);
  });

  it('gives what remark gives on items that start with reference links, among definitions (property)', () => {
    const line = fc.constantFrom(
      '', '[t]: t.md', '[T  x]: tx.md', '[a]: a.md "A"', '[t]: second.md', '[é]: e.md', '[SS]: ss.md', '[t]: a&b.md', 'text', '- item', '  - nested',
      '- [t] x', '- [T][t] y', '- [T][] z', '- [t x][] w', '- [u][t]', '- [T][u]', '- [ t ][ T ]', '- [t]', '- [[t]]', '- [t][', '- [t][t](x)', '- [t](x)',
      '- [t](t.md) q', '- [ß]', '- [ẞ][]', '- [][t]', '- [ ]', '  - [a] n', '1. [t] o', '> - [t] q', '> [t] p', '- [t]: x', '- [t] [t]', '- [t]\ty', '- [a`b][t]',
      '- [t]x', '- [*t*][t]', '- [t]: q', '  continued [t]', '    code [t]', '```', '- > [t]', '# [t]', 'x [t]', '- <a>[t]', '-  [t]  two spaces', '- [t]!',
    );
    expect(takenAsRemarkReads(line, 12, 3000)).toBeGreaterThan(600);
  });

  it('gives what remark gives on items whose link text holds code spans or escapes, inline (destinations in angle brackets, titles) and by reference (property)', () => {
    const line = fc.constantFrom(
      '', '[t]: t.md', '[a `x`]: ax.md', 'text', '- item', '  - nested', '- [a `x` 0][t] y yesterday', '- [a `x`][t]', '- [`x`]', '- [`x`][]', '- [a `x`]',
      '- [a `]` b][t]', '- [a `x][t]` b', '- [a ``x`` ][t]', '- [a `` ` `` b][t]', '- [a `x` b](x.md) c', '- [`x`](x.md)', '- [a `x](y)` z](w.md)',
      '- [a `x`', '  more `]', '- [a `<b>` c][t]', '- [a `\\` b][t]', '- [a `x` [b]][t]', '- [a \\`x][t]', '- [a `x` b](x y.md)', '- [a ```x`` b][t]',
      '- [a `x` b](<x.md>)', '- [a ` b][t] c `', '- [`[t]`][t]', '- [`x`](x.md "T")', '1. [`x`](x.md)', '  - [b `y`](y.md) z', '> - [`x`][t]', '- [A `x`][T]',
      '- [a `x`][t](y)', '- [a `x`] [t]', '- [a `x`]: y.md', '`x`', '- `x` [t]', '    code', '```', '- [a\\]b](x.md)', '- [a\\\\](x.md)', '- [a\\x](y.md)',
      '- [a](x.md "T")', "- [a](x.md 'T')", '- [a](x.md (T))', '- [a](<x y.md>)', '- [a](<>)', '- [a]( x.md)', '- [a](x.md "T" )', '- [a](x.md"T")', '- [a](<x>y)',
      '- [a](x.md "a&amp;")', '- [a](<x&amp;y>)', '- [a](x.md (T)) (u)', '- [a](x.md ("T"))', '- [a](<x)y>)', '- [\\[t\\]][t]', '[a\\]b]: e.md', '- [a\\]b]',
    );
    expect(takenAsRemarkReads(line, 10, 3000, linkTextHolds(/`/))).toBeGreaterThan(300);
  });

  it('gives what remark gives on items whose inline link text holds pairs of brackets or inline HTML, with and without definitions (property)', () => {
    const line = fc.constantFrom(
      '', 'text', '- item', '  - nested', '[b]: b.md', '[t]: t.md', '- [a [b] c](x.md) y', '- [a [b]](x.md)', '- [[b]](x.md) y', '- [[b] [c]](x.md)', '- [a [b [c] d] e](x.md)',
      '- [a [b](y) c](x.md)', '- [a [b][c] d](x.md)', '- [a [b][] d](x.md)', '- [a ![b] c](x.md)', '- [a ![b](i.png) c](x.md)', '- [a [b c](x.md)', '- [a ]b](x.md)',
      '- [a [b] `]` c](x.md)', '- [a `[` b] c](x.md)', '- [a \\[b] c](x.md)', '- [a [b\\]] c](x.md)', '- [a [b]](x.md "T")', '- [a [b]](<x y.md>)', '- [a [b]]', '- [a [b]] (x.md)',
      '1. [a [b]](x.md)', '  - [a [b]](y.md) z', '> - [a [b]](x.md)', '- [A [T]](x.md)', '- [a [b]](x.md) [c](d.md)', '- [a [<b>]](x.md)', '- [a [b]](x.md)]', '[a [b]](x.md)',
      // Inline HTML in the link text: passed over whole; an autolink (a link) is remark's.
      '- [a <b>x</b> c](x.md) y', '- [a <span title="]">x</span>](x.md)', "- [a <i class='x'>](x.md)", '- [a <br/>](x.md)', '- [a <br />](x.md)', '- [a </b >](x.md)',
      '- [a <!-- c --> d](x.md)', '- [a <!-- ] -->](x.md)', '- [a <!--> b](x.md)', '- [a <!---> b](x.md)', '- [a <!-- - -- --> b](x.md)', '- [a <?p ] ?> b](x.md)', '- [a <!DOC ]> b](x.md)',
      '- [a <![CDATA[ ] ]]> b](x.md)', '- [a <http://x> b](x.md)', '- [a <a@b.co> b](x.md)', '- [a < b](x.md)', '- [a <3 b](x.md)', '- [a <b c](x.md)', '- [a <b', '  c>](x.md)',
      '- [a <!-- c](x.md)', '- [a <b x=1 y="2" z>](x.md)', '- [a <b x = 1>](x.md)', '- [a <b 1x>](x.md)', '- [a <b\tx>](x.md)', '- [a <b x=`1`>](x.md)', '- [a <B>](x.md)', '- [a <x-y:z>](x.md)',
      // A pair inside that makes a link: no link starts the item (an image, or a destination not plain, is remark's).
      '- [T [a [a ](t.md) — [x](', '- [a [b](c.md) d](x.md) y', '- [a [b](c.md)', '- [[b](c.md)](x.md)', '- [a ![b](c.png) d](x.md)', '- [a [b](c d) e](x.md)',
      '- [a [b](<c>) d](x.md)', '- [a [b](c.md "t") d](x.md)', '- [a \\![b](c.md) d](x.md)', '- [a [b] [c](d.md) e](x.md)', '- [a [b](c.md) [d](e.md)](x.md)', '- [a [b](c.md)](x.md) [y](z.md)',
    );
    expect(takenAsRemarkReads(line, 10, 3000, linkTextHolds(/[[<]/))).toBeGreaterThan(300);
  });

  it('gives what remark gives on items starting with autolinks or inline tags, and ATX headings closed by `#`s (property)', () => {
    const line = fc.constantFrom(
      '', '- <http://x> y', '- <kbd>K</kbd> y', '- <div>', '- <div> x', '- <span>', '- <span> x', '- </span> x', '- </span>', '- <pre>', '- <pre> x', '- <!-- c -->',
      '- <?x?>', '- <a href="x">l</a>', '- <3 love', '- <', '- <x', '- <http://x>', '  - <b>n</b>', '<b>top</b> x', 'text', '- item', '  more', '- <script>x', '- <br/>',
      '- <br/> x', '- <x-y z="1"> w', '- <HTTP://X/a&amp;b> y', '- <mailto:a@b.c>', '- <a@b.co> x', '- <a@b>', '- <x:y>', '- <ab:y z>', '- <http://x/%20> q',
      '- <http://x/\\y>', '- <a+b:c>', '- <http:x>y', '# h ##', '# h#', '# C#', '## #', '#', '# ', '#x', '####### seven', '# h \\#', '# h \\##', '# h ## x', '  # h ##',
      '- # h ##', '# h\t#', '# h #\t', '# ##', '#\t#', '===', '---', '> # q ##', '- [a](x.md) y', '```', '    code', '<div>', '</div>',
    );
    const autolinkOrClosed = (fast: BlockModel, text: string) => {
      const source = text.split('\n');
      return fast.lines.some((l, k) => l.item?.link?.url.includes(':') || (l.heading && /#[ \t]*$/.test(source[k]!)));
    };
    expect(takenAsRemarkReads(line, 10, 3000, autolinkOrClosed)).toBeGreaterThan(300);
  });

  it('gives what remark gives on setext underlines in items, under their paragraphs and elsewhere (property)', () => {
    const line = fc.constantFrom(
      '- a', '- [T](t.md) x', '  ---', '  ===', '  ---', '  ===', '  -', '   ---', '    ---', ' ---', '---', '===', '  b', 'lazy', '', '  - n', '    ---', '    ===',
      '1. o', '   ---', '   ===', '> q', '  > q', '- # h', '```', '  ```', '  ---  ', '  --- x', '  - - -', '  ***', '    - deep', '      ---', '* s', '   text',
    );
    const setextInItem = (fast: BlockModel) => fast.lines.some((l) => l.heading?.setext && l.item);
    expect(takenAsRemarkReads(line, 8, 3000, setextInItem, fc.constantFrom('\n', '\r\n'))).toBeGreaterThan(40);
  });

  it('gives what remark gives on items opening an HTML comment that ends on their line, and what follows them (property)', () => {
    const line = fc.constantFrom(
      '', '- <!-- c --> y', '- <!-- c -->', '- <!-- c', '  -->', '- <!-->', '- <!--->', '- <!-- a --> b -->', '  - <!-- n -->', '1. <!-- o -->', '- - <!-- d -->',
      'text', '  more', '- item', '  - nested', '<!-- top -->', '> - <!-- q -->', '- > <!-- q -->', '```', '    code', '  <!-- in item -->', 'lazy', '- [T](t.md) x', '---', '===', '  ---',
    );
    const commentInItem = (fast: BlockModel) => fast.lines.some((l) => l.kind === 'html' && l.item);
    expect(takenAsRemarkReads(line, 10, 3000, commentInItem, fc.constantFrom('\n', '\r\n'))).toBeGreaterThan(300);
  });

  it('gives what remark gives on items that open items on their own line (property)', () => {
    const line = fc.constantFrom(
      '', '- - a', '- - - a yesterday', '* + - deep', '1. - a', '- 1. a', '- 1) a', '- 2. two', '1. 2. x', '- -', '- - ', '-  - two spaces', '-   -   three',
      '- -     code', '- - # h', '- - > q', '- - [T](t.md) — hook', '-\t- tab', '- -\tb', '  - - nested', '    - - deeper', '> - - quoted', '- > - q',
      '  text', '    text', 'lazy', '  - item', '- item', 'para', '# h', '```', '  ```', '    code', '---', '- a', '2. two', '10. ten',
    );
    expect(takenAsRemarkReads(line, 14, 3000)).toBeGreaterThan(800);
  });

  it('gives what remark gives on empty items (a marker alone on its line) and the lines after them (property)', () => {
    const line = fc.constantFrom(
      '', '-', '*', '+', '-  ', '1.', '2.', '1)', '10.', '  -', '   -', '    -', '  *', '  1.', '   1.', '  -  ', '\t-', '-\t', '- -', '* *', '  - 1) ', '- 1.', '- - ', '1. -',
      'text', '  text', '   text', '    text', '     text', '      text', '  para', '- a', '- b', '* c', '  - b', '- [T](t.md) — hook', '  [T](t.md) — h',
      '```', '  ```', '   ```', '      code', '> q', '  > q', '   > q', '  > - q', '# h', '  # h', '  #', '---', '  ---', '***', '===', '  ===',
      '<!-- c -->', '  <!-- c -->', '<div>', '-\ttext',
    );
    const withEmptyItem = /^ *(?:[-*+]|\d+[.)]) *$/m;
    expect(takenAsRemarkReads(line, 12, 4000, (_, text) => withEmptyItem.test(text))).toBeGreaterThan(500);
  });

  it('gives what remark gives on items whose first block is an ATX heading (property)', () => {
    const line = fc.constantFrom(
      '', '- # h', '- ## Deploy yesterday', '-   ### three spaces', '- #', '- # h #', '- #h', '1. # one', '2) # two', '  - # nested', '    - # deeper', '> - # quoted',
      '- > # quote in item', '  text in item', 'lazy text', '  # heading in item', '  - item', '- item', 'para', '# top', '===', '---', '  ===', '```', '  ```',
      '    code', '      code in item', '- # h\ttab', '-\t# tab after marker', '- [T](t.md) — hook', '<!-- c -->',
    );
    expect(takenAsRemarkReads(line, 14, 3000)).toBeGreaterThan(800);
  });

  it('gives what remark gives on lines holding `]:` that may or may not start or end a definition (property)', () => {
    const line = fc.constantFrom(
      '', '[t]: t.md', '[10:32]: deployed the fix', '[a]: b c', '[a]: b "t"', '[a]: b "t" x', "[a]: b 't", '[a]: b (t', '[a]:  b\tc', '[a]: <b> c', '[a]: b(c d',
      '[ ]: b c', '[a]:', '[a]: b', '  [a]: b c', '    [a]: b c', 'x [a]: b', 'x]: y z', '[x', 'y]: z', '[x]', ': b c', 'text', '  text', '- [t] x', '- item',
      '  - [a]: b c', '> [a]: b c', '> x', '===', '---', '# h', '```', '"t"', '(t)', '[t] yesterday', '[a]: <b c>', '[a]: <b> c', '[a]: <b>"t"', '[a]: <>',
      '[a]: <a&amp;b>', '[a]: <b c> "t"', '- [a] x',
    );
    expect(takenAsRemarkReads(line, 12, 3000)).toBeGreaterThan(300);
  });

  it('gives what remark gives on files it takes (property over plain lines only)', () => {
    const plainLine = fc.constantFrom('', '# Memory', '  ```sh', '  ```', '    ```', '   ~~~', '  code in item', '    deeper code', '- <3 love', '- <', '- <b>bold</b>', '<details>', '</details>', '<summary>S</summary>', '<div/>', '<div/x', '<p class="x">', '<pre>', '<span>', '<br>', '<!-- note', 'still -->', '<!-- one -->', 'x --> y', '<!-->', '<!--x-->after',  '  indented text', '  - nested', '    - deeper', '   * three in', '  1. one', '  2. two', '      - far', ' - one in', '<3 text', '- [not a link', '[also not', '](x.md)', '  **Why:** x', '  [A](a.md) y', '   _x_', '  \\x', '  !x', '  *x', '  <3', '  `x`', '  <span>', '```', '```Js x', '~~~~', '> quoted', '>', '> more', '## Feedback', 'Prose line.', '- [T](t.md) — hook', '* [B](./b.md): x', '- plain item', '1. [O](o.md)', '2. two', 'Lazy prose', '**Why:** x', '[A](a.md) — no bullet');
    expect(takenAsRemarkReads(plainLine, 30, 700)).toBeGreaterThan(200);
  });
});

describe('pieceBlocks: a file cut before each top-level item, each piece its own way', () => {
  it('reads a long list with one line the line path leaves by remark for that item only, as remark reads the whole', () => {
    const text = '---\nname: x\n---\n' + '- item\n'.repeat(50) + '- last\n\n    <span>\n    more of the last item\n';
    expect(lineBlocks(text)).toBeNull();
    const cuts = topLevelBlockStarts(splitLines(text));
    expect(cuts).toHaveLength(50);
    const m = pieceBlocks(text);
    expect(m.via).toBe('remark');
    expect(m.lines).toEqual(remarkBlocks(text).lines);
  });

  it.each([
    ['a fence at the top level (it closes the item)', '- a\n```\n- in the fence\n```\n- b\n', [1, 4]],
    ['a quote, a fence and a heading that interrupt a paragraph', 'a\nb\n> q\n\nc\n```\nx\n```\n\nd\n# h\n', [2, 3, 5, 8, 10]],
    ['a fence after a lazy line of a quote (no cut)', 'a\n> q\nc\n```\nx\n```\n', [1]],
    ['a quote after a lazy line of a quote (no cut)', '> a\nb\n> c\n', []],
    ['a quote after an item\'s lazy line', '- a\nb\n> q\n', [2]],
    ['a quote after a blank line', '    code\n\n> q\n', [1]],
    ['a fence whose info string holds a backtick (no fence)', '- a\n```x`y\n- b\n', [2]],
    ['a fence indented under an item: no cut after it', '- a\n  ```\n- b\n```\n- c\n```\n', []],
    ['an HTML comment over a blank line', '- a\n<!-- x\n\n- in the comment\n-->\n- b\n', [5]],
    ['an HTML block to a blank line (cut before the blank lines)', '- a\n<div>\n- in the block\n\n- b\n', [3]],
    ['a fence opened in an item', '- a\n- ```\n\nProse.\n', []],
    ['an empty item after a blank line (no cut)', '\t- tab\n\n-\n', []],
    ['a paragraph after a blank line', 'x\n\n\nProse.\n', [1]],
    ['a fence inside what looked like HTML', '<3 love\n```\n- code\n\n- code\n```\n- b\n', []],
    ['a thematic break and a setext underline', 'Title\n- - -\n-\n- a\n', [3]],
    ['frontmatter', '---\n- a: 1\n---\n- a\n- b\n', [4]],
    ['indented code and a blank line indented as far (no cut before it: it is the code\'s)', '    code\n    \n\n- a\n', [2]],
    ['a blank line with a tab after indented code', '\t- tab\r\t\n- item\r', [2]],
    ['a quote opening an empty item after text (remark reads it as text: no cut)', ':\n>-\n', []],
    ['an item opening a quote after text (no cut)', ':\n- > -\n', []],
    ['an item opening an ordered item after indented code and a blank line (no cut)', '    code\n\n- 2. x\n', []],
    ['a fence in a quote four columns in, in an item (no cut after it)', '1. one\n\n    > ```\n   >     code\n   > \n- item\n', []],
    ['a line of forty quote markers (read once: it held the cutter for hours)', '> '.repeat(40) + 'x\n- a\n', [1]],
  ])('cuts only where a top-level block surely starts: %s', (_, text, expected) => {
    expect(topLevelBlockStarts(splitLines(text))).toEqual(expected);
    expect(pieceBlocks(text)).toEqual({ ...remarkBlocks(text), via: pieceBlocks(text).via });
  });

  it('gives what remark gives, on generated Markdown (property)', () => {
    const line = fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom('- item', '* star item', '+ plus', '- [T](t.md) — hook', '-  two', '-\tx', '- > q', '- ```', '- # h') },
      {
        weight: 5,
        arbitrary: fc.constantFrom(
          '', '   ', '# Memory', 'Prose.', '  continued', '    indented', '      deeper', '  - nested', '1. one', '2. two', '-', '---', '- - -', '===',
          '> quoted', '>', '```', '```md', '~~~', '  ```', '   ~~~~', '````', '<!-- c', '-->', '<!-- one -->', '<div>', '</div>', '<pre>', '</pre>', '<?x', '?>',
          '<!X', '>', '<3', '  <b>', '\t- tab', '[t]: t.md', '- [R][t]', '<![CDATA[', ']]>', '字', '    ', '\t', '> - x', '> > q', '> 2. x', '- 2. x', '- > -', ':',
        ),
      },
      { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
    );
    const eol = fc.constantFrom('\n', '\n', '\r\n', '\r');
    let cut = 0;
    fc.assert(
      fc.property(fc.array(fc.tuple(line, eol), { maxLength: 30 }), fc.boolean(), (parts, fm) => {
        const text = (fm ? '---\nname: x\n---\n' : '') + parts.map(([l, e]) => l + e).join('');
        const whole = remarkBlocks(text);
        const pieces = pieceBlocks(text);
        if (topLevelBlockStarts(splitLines(text.replace(/^\uFEFF/, ''))).length > 0) cut++;
        expect(pieces.lines).toEqual(whole.lines);
        expect(pieces.codeBlocks).toEqual(whole.codeBlocks);
        expect(pieces.comments).toEqual(whole.comments);
      }),
      { numRuns: 4000 },
    );
    expect(cut).toBeGreaterThan(1000);
  });

  it('gives what remark gives on files holding definitions, read piece by piece (property)', () => {
    // Definitions the line path cannot read (over two lines, in a quote or an item) send a piece
    // to remark; the links items start with are resolved through every piece's definitions.
    const line = fc.constantFrom(
      '', '[t]: t.md', '[t]:', '  t.md', '[u]: u.md', '"title"', '> [q]: q.md', '- [i]: i.md', '[T]: second.md', '[a\nb]: ab.md', '[w]: w.md x',
      '- [t] x', '- [T][t] y', '- [q][] z', '- [i]', '- [A B]', '- [u][t]', '- [x][q]', '- [t](t.md) inline', '- [a `b`][t]', '- [t][', '  - [u] nested',
      '> - [t] quoted', '- item', 'Prose.', '# H', '```', '- > q', '- # h', '    code', '> q', '[10:32]: said it', 'x [t]: y', '===', '---',
      '- [a\\]b][t]', '- [`t`]', '- [<b>][q]', '- [a `]` b][u]', '- [T][t](x', '- [t]\tx', '[a\\]b]: esc.md', '- [a\\]b]', '- [ẞ]', '[ß]: ss.md',
    );
    const eol = fc.constantFrom('\n', '\n', '\r\n');
    let cut = 0;
    let linked = 0;
    fc.assert(
      fc.property(fc.array(line, { maxLength: 24 }), eol, (ls, e) => {
        const text = ls.join(e) + e;
        const whole = remarkBlocks(text);
        const pieces = pieceBlocks(text);
        if (pieces.via === 'lines' || topLevelBlockStarts(splitLines(text)).length > 0) cut++;
        if (whole.lines.some((l) => l.item?.link?.form === 'reference')) linked++;
        expect(pieces.lines).toEqual(whole.lines);
        expect(pieces.codeBlocks).toEqual(whole.codeBlocks);
      }),
      { numRuns: 3000 },
    );
    expect(cut).toBeGreaterThan(1000);
    expect(linked).toBeGreaterThan(200);
  });

  it('cuts no piece inside an HTML block opened one to three columns in, after a processing instruction `<?>` that ends itself', () => {
    for (const text of ['<?>\n   <pre>\n?>\n\nx ?> y', '  <pre>\n\n# h\n', '   <div>\n# h\n']) {
      expect(pieceBlocks(text).lines).toEqual(remarkBlocks(text).lines);
    }
  });

  it('reads an item whose brackets the line cannot resolve in its piece again, with every definition of the file after it', () => {
    const text = '[t]: first.md\n\n' + '- [Item][t] shipped\n'.repeat(20) + '\nProse.\n\n- [a \\] b][t] and\n- [a `code` b][t] and\n- [`t`] x\n\n[t]: second.md\n[`t`]: code.md\n';
    const m = pieceBlocks(text);
    expect(m.lines).toEqual(remarkBlocks(text).lines);
    expect(m.lines.filter((l) => l.item?.link?.url === 'first.md')).toHaveLength(22);
    expect(m.lines.find((l) => l.item?.link?.url === 'code.md')).toBeDefined();
  });

  it('reads a file whose definition the line path cannot read piece by piece, its items linked through it', () => {
    const text = '[t]:\n  t.md\n\n' + '- [Item][t] shipped\n'.repeat(30) + '\nProse.\n\n- [t] again\n';
    expect(lineBlocks(text)).toBeNull();
    const m = pieceBlocks(text);
    expect(m.lines.filter((l) => l.item?.link?.url === 't.md')).toHaveLength(31);
    expect(m.lines).toEqual(remarkBlocks(text).lines);
    // Only the piece holding the definition went to remark.
    expect(topLevelBlockStarts(splitLines(text)).length).toBeGreaterThan(30);
  });
});


describe('remarkBlocks: a run of empty lines read as two', () => {
  const asParsed = (text: string) => {
    const src = text.replace(/^\uFEFF/, '');
    return parsedBlocks(src, splitLines(src));
  };

  it.each([
    ['between paragraphs', 'a\n\n\n\n\nb\n'],
    ['inside indented code', '    a\n\n\n\n\n    b\n'],
    ['inside a fence, and an unclosed fence at the end', '```\na\n\n\n\nb\n```\n\n\n\n~~~\n\n\n\n'],
    ['in a list item that goes on after them', '- a\n\n\n\n\n  b\n- c\n'],
    ['a fence in an item closed by the item\'s end', '- ```\n  a\n\n\n\n\nx\n'],
    ['a fence in an item that holds only them', '- ```\n\n\n\n!\n'],
    ['inside an HTML comment', '<!-- a\n\n\n\n-->\n'],
    ['before an indented line at the start', '\n\n\n\n    x\n'],
    ['with CR and CRLF (runs left as they are)', 'a\r\n\r\n\r\n\r\nb\r\r\r\r    c\r'],
  ])('gives what the whole parse gives: %s', (_, text) => {
    expect(remarkBlocks(text)).toEqual(asParsed(text));
  });

  it('gives what the whole parse gives, on generated Markdown with long empty runs (property)', () => {
    const line = fc.oneof(
      { weight: 4, arbitrary: fc.constant('') },
      {
        weight: 5,
        arbitrary: fc.constantFrom(
          'Prose.', '    indented', '      deeper', '  continued', '- item', '  - nested', '1. one', '> quoted', '>', '```', '~~~', '  ```',
          '<!-- c', '-->', '<div>', '<pre>', '</pre>', '# h', 'Title', '===', '---', '-', '   ', '\t', '- ```', '[t]: t.md', '- [R][t]',
        ),
      },
      { weight: 1, arbitrary: fc.string({ maxLength: 4 }) },
    );
    const eol = fc.constantFrom('\n', '\n', '\r\n', '\r');
    fc.assert(
      fc.property(fc.array(fc.tuple(line, eol), { maxLength: 30 }), fc.boolean(), (parts, fm) => {
        const text = (fm ? '---\nname: x\n---\n' : '') + parts.map(([l, e]) => l + e).join('');
        expect(remarkBlocks(text)).toEqual(asParsed(text));
      }),
      { numRuns: 3000 },
    );
  });
});
