// gray-matter's check for an empty frontmatter, in one pass (scripts/gray-matter-linear.mjs): the
// same string as its regex, in every bundle that holds gray-matter.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ORIGINAL_CALL, linearGrayMatter, withoutYamlComments } from '../../scripts/gray-matter-linear.mjs';
import { ROOT } from '../helpers/repo.js';

describe("gray-matter's comment check in one pass", () => {
  it('gives what the regex gives (property, with every line terminator and white space)', () => {
    const pieces = [' ', '\t', '\n', '\r', '\r\n', '#', '# c', 'a', 'k: v', '\u2028', '\u2029', '\u00a0', '\uFEFF', '\v'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 20 }), (p) => {
        const text = p.join('');
        expect(withoutYamlComments(text)).toBe(text.replace(/^\s*#[^\n]+/gm, ''));
      }),
      { numRuns: 20_000, seed: 5 },
    );
  });

  it('drops a comment after 200,000 blank lines, with the blank lines before it', () => {
    const text = `name: a\n${'\n'.repeat(200_000)}# note\n`;
    expect(withoutYamlComments(text)).toBe('name: a\n\n');
  });

  it('is in every bundle that holds gray-matter, and stops the build when gray-matter changes', () => {
    const dist = join(ROOT, 'dist');
    const files = ['remark.mjs', 'main.mjs', 'merge.cjs', ...readdirSync(join(dist, 'chunks')).map((f) => `chunks/${f}`)];
    const holding = files.filter((f) => readFileSync(join(dist, f), 'utf8').includes('file.matter'));
    expect(holding.length).toBeGreaterThanOrEqual(1);
    for (const f of holding) expect({ f, linear: readFileSync(join(dist, f), 'utf8').includes('withoutYamlComments(file.matter)') }).toEqual({ f, linear: true });
    const source = readFileSync(join(ROOT, 'node_modules', 'gray-matter', 'index.js'), 'utf8');
    expect(source).toContain(ORIGINAL_CALL);
    expect(linearGrayMatter(source)).not.toContain(ORIGINAL_CALL);
    expect(() => linearGrayMatter(source.replace(ORIGINAL_CALL, "file.matter.replace(/^#.*/gm, '')"))).toThrow(/not the one scripts\/gray-matter-linear\.mjs replaces/);
  });
});
