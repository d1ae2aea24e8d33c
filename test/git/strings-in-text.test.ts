// stringsInText: which strings occur in a text (no-derivable-content's lines of code in the
// repository), held to Buffer.includes of each string on generated texts and strings.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringsInText } from '../../src/git/blobs.js';

const piece = fc.constantFrom('a', 'b', 'ab', ' ', '\n', '(', 'é', '日本', '😀', 'return x;', 'const v = 1;');
const text = fc.array(piece, { maxLength: 60 }).map((p) => p.join(''));
const needle = fc.array(piece, { minLength: 1, maxLength: 6 }).map((p) => p.join(''));

describe('stringsInText', () => {
  it('finds exactly the strings the text holds, whatever else is asked with them', () => {
    let held = 0;
    fc.assert(
      fc.property(text, fc.array(needle, { minLength: 1, maxLength: 12 }), (t, needles) => {
        const buf = Buffer.from(t, 'utf8');
        const expected = new Set(needles.filter((n) => buf.includes(Buffer.from(n, 'utf8'))));
        held += expected.size;
        expect(stringsInText(needles, buf)).toEqual(expected);
        // Each alone, as with any others: the answer for a string is its own.
        for (const n of needles) expect(stringsInText([n], buf).has(n)).toBe(expected.has(n));
      }),
      { numRuns: 3000 },
    );
    expect(held).toBeGreaterThan(1000);
  });

  it('finds strings that overlap, nest and repeat, at the text\'s start and end', () => {
    const t = Buffer.from('import { a } from "b";\nexport const x = 1;\n', 'utf8');
    const needles = ['import { a } from "b";', 'import { a }', '{ a } from', 'const x = 1;', 'x = 1;\n', 'import { b }', 'port'];
    expect([...stringsInText(needles, t)].sort()).toEqual(['const x = 1;', 'import { a }', 'import { a } from "b";', 'port', 'x = 1;\n', '{ a } from'].sort());
    expect(stringsInText(['longer than the text itself'], Buffer.from('short'))).toEqual(new Set());
  });
});
