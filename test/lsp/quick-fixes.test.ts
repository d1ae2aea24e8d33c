// The language server offers each finding's fix on its own, as --fix would make it: every fixable
// finding's paths were checked on disk again (lstat of each folder on the way), 25,000 times for a
// topic of relative dates. Counted, never timed: the lstat calls while a document is linted.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintDocument, locateDocument } from '../../src/lsp/lint-document.js';
import { tempDir, writeFiles } from '../helpers/repo.js';

const topicOf = (lines: number) =>
  `---\nname: Dated\ndescription: dated\ntype: project\n---\n## 2026-11-30\n\n${Array.from({ length: lines }, (_, i) => `- Item ${i}: shipped yesterday, review it tomorrow.`).join('\n')}\n`;

async function lintCounted(lines: number): Promise<{ lstats: number; fixes: number }> {
  const dir = tempDir('memlint-lsp-fixes-');
  const text = topicOf(lines);
  writeFiles(dir, { 'mem/MEMORY.md': '- [Dated](dated.md) — dated\n', 'mem/dated.md': text });
  const env = { ...process.env, HOME: dir, MEMLINT_TODAY: '2026-12-02' };
  const located = await locateDocument(join(dir, 'mem', 'dated.md'), [dir], env);
  expect(located).not.toBeNull();
  const lstat = fs.lstatSync;
  // node:fs's own object, whose ESM exports syncBuiltinESMExports brings in line with it.
  const nodeFs = fs as { lstatSync: typeof lstat };
  let lstats = 0;
  nodeFs.lstatSync = ((...args: Parameters<typeof lstat>) => {
    lstats++;
    return lstat(...args);
  }) as typeof lstat;
  syncBuiltinESMExports();
  try {
    const linted = await lintDocument(located!, text, new Map(), env);
    return { lstats, fixes: linted?.quickFixes().fixes.length ?? 0 };
  } finally {
    nodeFs.lstatSync = lstat;
    syncBuiltinESMExports();
  }
}

describe('quick fixes of a document with thousands of fixable findings', () => {
  it('checks the paths they edit once, not once per finding', async () => {
    const small = await lintCounted(100);
    const large = await lintCounted(1000);
    expect(small.fixes).toBe(200);
    expect(large.fixes).toBe(2000);
    expect(large.lstats).toBe(small.lstats);
  });
});
