// Containers nested past MAX_NESTING on one line read as text, so that remark's work stays in
// proportion to what a memory holds (a line of a million `>` took a minute and 3 GB).
import { describe, expect, it } from 'vitest';
import type { Node, Parent } from 'unist';
import { MAX_NESTING, parseMarkdown, withNestingCapped } from '../../src/memdir/markdown.js';

function depth(node: Node): number {
  const kids = (node as Parent).children ?? [];
  return 1 + Math.max(0, ...kids.map(depth));
}

describe('withNestingCapped', () => {
  it('returns a text that nests no deeper than the cap as it is', () => {
    const texts = ['# Memory\n\n- [A](a.md) — hook\n', `${'> '.repeat(MAX_NESTING)}deep\n`, `${'- '.repeat(MAX_NESTING)}item\n`, '1. 2. 3) > - x\n', '  -not a list\n'];
    for (const text of texts) expect(withNestingCapped(text)).toBe(text);
  });

  it('turns the marker past the cap into text, keeping every position', () => {
    const line = '>'.repeat(MAX_NESTING + 5);
    expect(withNestingCapped(`a\n${line}\nb`)).toBe(`a\n${'>'.repeat(MAX_NESTING)}x>>>>\nb`);
    expect(withNestingCapped(`${'- '.repeat(MAX_NESTING + 1)}[x](y.md)`)).toBe(`${'- '.repeat(MAX_NESTING)}x [x](y.md)`);
    expect(withNestingCapped(`${'12. '.repeat(MAX_NESTING + 1)}z`)).toBe(`${'12. '.repeat(MAX_NESTING)}12x z`);
  });

  it('keeps the tree of a line of 100,000 `>` as deep as the cap, its positions those of the file', () => {
    const text = `# Memory\n\n${'>'.repeat(100_000)} tail\n`;
    const tree = parseMarkdown(text);
    expect(depth(tree)).toBeLessThanOrEqual(MAX_NESTING + 3);
    expect(tree.position?.end.offset).toBe(text.length);
    expect(tree.children[0]!.type).toBe('heading');
  });
});
