// node-diff3's LCS (Hunt and McIlroy's candidates) finds the candidate each matching line extends
// by scanning the candidates from the last one it used: time proportional to the matching pairs
// times the length of the common subsequence, quadratic even when every line is unique (a topic
// or a daily log added on both sides of a merge, 1 MB: 10 to 35 s in the merge driver; an index
// one side reversed). The candidates from that point on rise in buffer2index, so the one place the
// scan stops is found by halving instead (Hunt and Szymanski). The build replaces the scan in every
// bundle that holds node-diff3 (scripts/build.mjs) and vitest in the tests (vitest.config.ts); the
// build stops if node-diff3's loop ever reads differently. test/merge/node-diff3-linear.test.ts
// holds the two to each other.
import { sourcePatchPlugins } from './source-patch.mjs';

/** node-diff3 3's scan (dist/diff3.mjs and dist/diff3.cjs, what import and require load), formatting aside. */
export const ORIGINAL_SCAN = `
      let s;
      for (s = r; s < candidates.length; s++) {
        if (candidates[s].buffer2index < j && (s === candidates.length - 1 || candidates[s + 1].buffer2index > j)) {
          break;
        }
      }
`;

export const HALVING = `
      let s;
      {
        let lo = r;
        let hi = candidates.length;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (candidates[mid].buffer2index < j) lo = mid + 1;
          else hi = mid;
        }
        s = lo - 1;
        if (s < r || !(s === candidates.length - 1 || candidates[s + 1].buffer2index > j)) s = candidates.length;
      }
`;

const SCAN = /\n\s*let s;\s*\n\s*for \(s = r;[\s\S]*?\n\s*break;\s*\n\s*\}\s*\n\s*\}\s*\n/;
const normal = (code) => code.replace(/\s+/g, '');

/** node-diff3's source with the halving search; throws when the scan is not there as expected. */
export function linearDiff3(source, file = 'node-diff3') {
  const m = SCAN.exec(source);
  if (!m || normal(m[0]) !== normal(ORIGINAL_SCAN) || SCAN.test(source.slice(m.index + m[0].length))) {
    throw new Error(`${file}: LCS's candidate scan is not the one scripts/node-diff3-linear.mjs replaces (node-diff3 changed?)`);
  }
  return source.slice(0, m.index) + HALVING + source.slice(m.index + m[0].length);
}

const FILE = /[\\/]node-diff3[\\/]dist[\\/]diff3\.(?:mjs|cjs)$/;

// For the bundles, and for vitest, which must transform the package to patch it (the configs inline
// it), so the tests run what the bundles ship.
export const { esbuildPlugin, vitePlugin } = sourcePatchPlugins('node-diff3-linear', FILE, linearDiff3);
