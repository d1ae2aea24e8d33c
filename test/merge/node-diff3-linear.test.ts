// node-diff3's LCS with the halving search (scripts/node-diff3-linear.mjs): the same common
// subsequence as the scan it replaces, in every bundle that holds node-diff3, and linear enough
// for a file added on both sides of a merge.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ORIGINAL_SCAN, linearDiff3 } from '../../scripts/node-diff3-linear.mjs';
import { ROOT, tempDir } from '../helpers/repo.js';

type Chain = { buffer1index: number; buffer2index: number; chain: Chain | null } | null;
type Lcs = (a: string[], b: string[]) => Chain;

/** node-diff3's dist/diff3.mjs as written, and patched: each loaded from a file of its own (vitest patches only node-diff3's). */
async function bothLcs(): Promise<{ original: Lcs; halving: Lcs; source: string }> {
  const source = readFileSync(join(ROOT, 'node_modules', 'node-diff3', 'dist', 'diff3.mjs'), 'utf8');
  const dir = tempDir('memlint-diff3-');
  // Without the source map comment: its map is not beside these copies.
  const code = source.replace(/^\/\/# sourceMappingURL=.*$/m, '');
  writeFileSync(join(dir, 'original.mjs'), code);
  writeFileSync(join(dir, 'halving.mjs'), linearDiff3(code));
  const original = (await import(pathToFileURL(join(dir, 'original.mjs')).href)) as { LCS: Lcs };
  const halving = (await import(pathToFileURL(join(dir, 'halving.mjs')).href)) as { LCS: Lcs };
  return { original: original.LCS, halving: halving.LCS, source };
}

const pairs = (c: Chain): Array<[number, number]> => {
  const out: Array<[number, number]> = [];
  for (let x = c; x && x.buffer1index >= 0; x = x.chain) out.push([x.buffer1index, x.buffer2index]);
  return out;
};

describe("node-diff3's LCS by halving", () => {
  it('finds the same common subsequence as the scan (property, lines repeated and not)', async () => {
    const { original, halving } = await bothLcs();
    const line = fc.constantFrom('a', 'b', 'c', 'd', 'e', '', '# h');
    fc.assert(
      fc.property(fc.array(line, { maxLength: 40 }), fc.array(line, { maxLength: 40 }), (a, b) => {
        expect(pairs(halving(a, b))).toEqual(pairs(original(a, b)));
      }),
      { numRuns: 20_000, seed: 3 },
    );
  });

  it('takes two files of 20,000 unique lines in the same order without comparing each with each', async () => {
    const { halving } = await bothLcs();
    const a = Array.from({ length: 20_000 }, (_, i) => `line ${i}`);
    const b = a.filter((_, i) => i % 7 !== 0);
    // The scan visited about 17,000 candidates for each of 17,000 lines; halving, about 15.
    expect(pairs(halving(a, b))).toHaveLength(b.length);
  });

  it('is in every bundle that holds node-diff3, and stops the build when node-diff3 changes', async () => {
    const { source } = await bothLcs();
    const dist = join(ROOT, 'dist');
    const files = ['main.mjs', 'merge.cjs', 'update-branch.cjs', ...readdirSync(join(dist, 'chunks')).map((f) => `chunks/${f}`)];
    const holding = files.filter((f) => readFileSync(join(dist, f), 'utf8').includes('equivalenceClasses'));
    expect(holding.length).toBeGreaterThanOrEqual(1);
    for (const f of holding) expect({ f, halving: readFileSync(join(dist, f), 'utf8').includes('lo + hi >> 1') }).toEqual({ f, halving: true });
    expect(source.replace(/\s+/g, '')).toContain(ORIGINAL_SCAN.replace(/\s+/g, ''));
    expect(() => linearDiff3(source.replace('s < candidates.length; s++', 's < candidates.length; s += 1'))).toThrow(/not the one scripts\/node-diff3-linear\.mjs replaces/);
  });
});
