// lineWikiNames: the [[name]] links of a line outside inline code, its backticks counted once
// from left to right; held to the count from the line's start for each link on generated lines.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lineWikiNames } from '../../src/memdir/links.js';
import { linkedByName } from '../../src/content/index-mentions.js';

/** The names a line links, each link's code-ness by the backticks from the line's start. */
function byCountFromStart(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\[\[([^\[\]\n|#]+?)(?:[|#][^\[\]\n]*)?\]\]/g)) {
    if ((text.slice(0, m.index).match(/`/g)?.length ?? 0) % 2 === 1) continue;
    out.push(m[1]!.trim());
  }
  return out;
}

describe('lineWikiNames', () => {
  it('gives the links a count of backticks from the line\'s start gives', () => {
    const piece = fc.constantFrom('[[a]]', '[[b c|see]]', '[[d#part]]', '`', '``', 'x', ' ', '[[', ']]', '[[e]] `[[f]]`');
    let links = 0;
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const line = pieces.join('');
        const expected = byCountFromStart(line);
        links += expected.length;
        expect(lineWikiNames(line)).toEqual(expected);
      }),
      { numRuns: 3000 },
    );
    expect(links).toBeGreaterThan(1000);
  });

  it('an index links a name, asked by each of many orphans: the same answer from the names read once', () => {
    const lines = [{ text: '- see [[Billing rules]] and `[[not a link]]`', kind: 'other' }, { text: '[[In code]]', kind: 'code' }] as Array<{ text: string; kind: 'other' | 'code' }>;
    expect(linkedByName(lines as never, 'Billing rules')).toBe(true);
    expect(linkedByName(lines as never, ' Billing rules ')).toBe(true);
    expect(linkedByName(lines as never, 'not a link')).toBe(false);
    expect(linkedByName(lines as never, 'In code')).toBe(false);
    expect(linkedByName(lines as never, undefined)).toBe(false);
  });
});
