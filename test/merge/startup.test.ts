// What the driver loads when git starts it: the CommonJS launcher (dist/cli.js) hands `merge` to
// dist/merge.cjs, one self-contained file (remark aside: dist/lint-lazy/markdown.cjs, loaded only
// for an index the block model cannot read line by line). Nothing on this path may load remark, unified,
// gray-matter, secretlint, chrono, isomorphic-git, or git's machinery (child_process is loaded
// only for the fallback, lazily).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI } from '../helpers/repo.js';

/** Top-level (eager) lines of a CommonJS bundle: those not indented inside a lazy __esm/__commonJS wrapper. */
function eagerRequires(code: string): string[] {
  return [...code.matchAll(/^(?:var|const|let) [\w$]+ = (?:__toESM\()?require\("([^"]+)"\)/gm)].map((m) => m[1]!);
}

describe('the merge driver start-up path', () => {
  const launcher = readFileSync(CLI, 'utf8');
  const mergeFile = join(dirname(CLI), 'merge.cjs');

  it('starts from a launcher that loads nothing eagerly but Node builtins it needs', () => {
    expect(launcher).toContain('merge.cjs');
    // Node loads these four itself before any user code (process.moduleLoadList of `node -e 0`),
    // so requiring them costs nothing; util carries parseArgs for the commands' option tables.
    expect(eagerRequires(launcher).filter((m) => !['node:fs', 'node:path', 'node:url', 'node:util'].includes(m))).toEqual([]);
  });

  it('loads only the modules the merge uses', () => {
    const code = readFileSync(mergeFile, 'utf8');
    expect(eagerRequires(code).filter((m) => !m.startsWith('node:'))).toEqual([]);
    const packages = new Set([...code.matchAll(/^\/\/ node_modules\/((?:@[^/]+\/)?[^/]+)\//gm)].map((m) => m[1]));
    // node-diff3, and the block model's list of block-level HTML tag names (micromark's, data only)
    // and its label folding (micromark's `normalizeIdentifier`, three lines).
    expect([...packages].sort()).toEqual(['micromark-util-html-tag-name', 'micromark-util-normalize-identifier', 'node-diff3']);
    expect(eagerRequires(code)).not.toContain('node:child_process');
    expect(code.replace(/micromark[-_]util[-_](?:html[-_]tag[-_]name|normalize[-_]identifier)/g, '')).not.toMatch(/remark-parse|remark-frontmatter|mdast-util|micromark|unified|gray-matter|js-yaml|secretlint|chrono|isomorphic-git/);
    // An index the block model's line path cannot read loads remark from its own file, then.
    expect(code).toContain('"lint-lazy", "markdown.cjs"');
  });
});
