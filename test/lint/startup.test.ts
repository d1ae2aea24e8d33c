// What the lint path loads: the ES module program (dist/main.mjs and its chunks) keeps remark out
// of every module `memlint lint` can import; the block model and ctx.tree() require
// dist/lint-lazy/markdown.cjs on the first file that needs a remark parse (most files take the
// line path and never do). `memlint lsp` runs the same engine, so it loads remark the same way.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, initRepo, memlint, tempDir, writeFiles } from '../helpers/repo.js';

const DIST = join(ROOT, 'dist');
// The parser's packages. micromark's list of block-level HTML tag names (data, no code) and its
// label folding (one function of three lines) are the block model's line path's, as they are micromark's.
const REMARK = /^\/\/ node_modules\/(?:micromark(?!-util-html-tag-name\/|-util-normalize-identifier\/)[\w-]*|unified|remark-[\w-]+|mdast-util-[\w-]+|vfile)\//m;

/** Every program file main.mjs can load, by static or dynamic import. */
function reachable(): Map<string, string> {
  const seen = new Map<string, string>();
  const queue = [join(DIST, 'main.mjs')];
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    const code = readFileSync(file, 'utf8');
    seen.set(file, code);
    const dir = file.endsWith('main.mjs') ? DIST : join(DIST, 'chunks');
    for (const m of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)"(\.\/[^"]+\.mjs)"/g)) {
      const target = join(dir, m[1]!);
      queue.push(target);
    }
  }
  return seen;
}

describe('the lint start-up path', () => {
  it('no module the CLI loads for lint bundles remark: it is required from dist/lint-lazy/markdown.cjs when a file needs it', () => {
    const files = reachable();
    expect(files.size).toBeGreaterThan(10);
    const withRemark = [...files].filter(([, code]) => REMARK.test(code)).map(([f]) => f);
    expect(withRemark).toEqual([]);
    expect([...files.values()].some((code) => code.includes('"lint-lazy", "markdown.cjs"'))).toBe(true);
    expect(readFileSync(join(DIST, 'lint-lazy', 'markdown.cjs'), 'utf8')).toMatch(REMARK);
    // The language server among them: it is memlint's own (src/lsp/), on the CLI's engine.
    expect([...files.keys()].some((f) => /[\\/]chunks[\\/]server-[\w-]+\.mjs$/.test(f))).toBe(true);
  });

  it('a file the line path cannot read is parsed by remark from the lazy file, through the built CLI', () => {
    expect(existsSync(join(DIST, 'lint-lazy', 'markdown.cjs'))).toBe(true);
    const repo = initRepo(tempDir('memlint-lazy-remark-'));
    writeFiles(repo, {
      'mem/MEMORY.md': '- [Testing](feedback_testing.md) — integration tests hit a real database\n\n```md\n- [Example](example_only.md) — an entry shown as code\n```\n',
      'mem/feedback_testing.md': '---\nname: Testing\ndescription: Integration tests hit a real database\ntype: feedback\n---\nIntegration tests hit a real database.\n\n**Why:** mocks hid a broken migration.\n\n**How to apply:** every test under tests/integration.\n',
    });
    // The fenced line is code, not an entry: no index-link-target for example_only.md.
    expect(memlint(repo, ['mem'])).toEqual({ code: 0, stdout: '', stderr: '' });
  });
});
