// memlint's inline directives (`<!-- memlint-disable r -->`) are found in one pass, as the pattern
// that defines them matches them one after another (docs/configuration.md).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findDirectives, onlyDirectives } from '../../src/lint/directives.js';

// The definition: what a directive is, matched left to right (quadratic on unclosed comments).
const DEFINITION = /<!--\s*memlint-(disable-next-line|disable|enable)\b([^>]*?)\s*-->/g;

const byDefinition = (text: string) =>
  [...text.matchAll(DEFINITION)].map((m) => ({ start: m.index, end: m.index + m[0].length, kind: m[1], rules: m[2]!.trim() }));

describe('findDirectives', () => {
  it('finds what the defining pattern matches, in order (property)', () => {
    const piece = fc.constantFrom('<!--', '<!-- ', ' ', '\t', 'memlint-', 'disable', 'enable', '-next-line', '-line', 'r1', ',', ' r2', '-->', '--', '->', '>', '-', 'a', '<', '!', '\n');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (ps) => {
        const text = ps.join('');
        expect(findDirectives(text).map((d) => ({ ...d, rules: d.rules.trim() }))).toEqual(byDefinition(text));
      }),
      { numRuns: 20000 },
    );
  });

  it('reads a line of unclosed directives, and one closed at its end, each once', () => {
    const unclosed = '<!-- memlint-disable '.repeat(5000);
    expect(findDirectives(unclosed)).toEqual([]);
    const closed = `${unclosed}r1 -->`;
    const found = findDirectives(closed);
    expect(found).toHaveLength(1);
    expect({ ...found[0]!, rules: found[0]!.rules.trim().slice(-30) }).toEqual({ ...byDefinition(closed)[0]!, rules: byDefinition(closed)[0]!.rules.slice(-30) });
  });

  it('tells a comment of directives alone from one holding other text', () => {
    expect(onlyDirectives('<!-- memlint-disable r1 --> <!-- memlint-enable -->')).toBe(true);
    expect(onlyDirectives('<!-- memlint-disable r1 --> hidden words')).toBe(false);
    expect(onlyDirectives('<!-- note -->')).toBe(false);
  });
});
