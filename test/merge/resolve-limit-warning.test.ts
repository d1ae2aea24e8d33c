// `memlint resolve --ours|--theirs` on an index over Claude Code's limits: the warning names what
// the written index hides, not what the conflicted merge (both sides of each entry) would.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { limitWarning } from '../../src/merge/driver.js';
import { memlintInProcess } from '../helpers/in-process.js';
import { git, initRepo, writeFiles } from '../helpers/repo.js';

const INDEX = '.claude/memory/MEMORY.md';
const N = 240;

/** Both branches edit every hook of a 240-entry index, merged without the driver: git's conflict. */
function conflicted(): string {
  const dir = initRepo();
  const commit = (hook: string, m: string) => {
    const entries = Array.from({ length: N }, (_, i) => `- [Topic ${i}](topic-${i}.md) — ${hook} ${i}`);
    writeFiles(dir, { [INDEX]: `# Memory\n\n${entries.join('\n')}\n` });
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', m);
  };
  commit('hook', 'base');
  git(dir, 'checkout', '-q', '-b', 'other');
  commit('theirs', 'other');
  git(dir, 'checkout', '-q', 'main');
  commit('ours', 'main');
  expect(() => git(dir, 'merge', '-q', '--no-edit', 'other')).toThrow();
  return dir;
}

describe('resolve with a choice on an index over the limits', () => {
  for (const choice of ['--ours', '--theirs'] as const) {
    it(`${choice}: the limit warning is about the index written, each entry it hides named once`, async () => {
      const dir = conflicted();
      const r = await memlintInProcess(dir, ['resolve', choice]);
      expect(r.code).toBe(0);
      const written = readFileSync(join(dir, INDEX), 'utf8');
      expect(written.split('\n')).toHaveLength(N + 3);
      const warning = limitWarning(written, INDEX)!;
      expect(warning).toContain(`the merged index is ${N + 2} lines`);
      expect(warning).toContain(`the agent will not see ${N + 2 - 200} entries: topic-198.md, topic-199.md, topic-200.md,`);
      expect(r.stderr.split('\n').filter((l) => l.includes('will not see'))).toEqual([warning]);
    });
  }

  it('without a choice: the warning is about the conflicted merge written, as before', async () => {
    const dir = conflicted();
    const r = await memlintInProcess(dir, ['resolve']);
    expect(r.code).toBe(1);
    const lines = r.stderr.split('\n').filter((l) => l.includes('will not see'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`the merged index is ${N * 5 + 2} lines`);
  });
});
