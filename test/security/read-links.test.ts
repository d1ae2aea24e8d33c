// Nothing is read through a symlink that leads out of the repository (README "Security"):
// no-derivable-content compares memory with the CLAUDE.md files and `.claude/rules/` in scope,
// and a CLAUDE.md or rules folder linked from outside is not read (its lines are not compared,
// so they cannot be quoted back). The same files inside the repository are read.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memlintInProcess } from '../helpers/in-process.js';
import { initRepo, tempDir, writeFiles } from '../helpers/repo.js';

const MEM = '.claude/memory';
const RULE = 'Integration tests must hit a real database, never mocks or in-memory fakes.';
const LATER = 'Every database migration must be reversible and tried on staging first.';
const memory = {
  [`${MEM}/MEMORY.md`]: '- [Tests](feedback_tests.md) — tests and the database\n',
  [`${MEM}/feedback_tests.md`]: `---\nname: Tests\ndescription: Integration tests and the database\ntype: feedback\n---\n${RULE}\n${LATER}\n\n**Why:** mocked tests passed while a migration broke production.\n\n**How to apply:** any test touching the database.\n`,
};
const repeats = (stdout: string) => stdout.split('\n').filter((l) => l.includes('repeats a CLAUDE.md')).map((l) => l.trim().split(/\s+/)[0]);

describe('CLAUDE.md and .claude/rules in scope', () => {
  it('reads them inside the repository', async () => {
    const repo = initRepo();
    writeFiles(repo, { ...memory, 'CLAUDE.md': `# Rules\n- ${RULE}\n`, '.claude/rules/db.md': `- ${LATER}\n` });
    const r = await memlintInProcess(repo, [MEM]);
    expect(repeats(r.stdout)).toEqual([`${MEM}/feedback_tests.md:6:1`, `${MEM}/feedback_tests.md:7:1`]);
  });

  it('does not read a CLAUDE.md, a rules folder or a rules file linked from outside', async () => {
    const outside = tempDir('memlint-outside-');
    mkdirSync(join(outside, 'rules'));
    writeFileSync(join(outside, 'CLAUDE.md'), `# Rules\n- ${RULE}\n`);
    writeFileSync(join(outside, 'rules', 'db.md'), `- ${LATER}\n`);
    for (const linkedRules of ['folder', 'file'] as const) {
      const repo = initRepo();
      writeFiles(repo, memory);
      symlinkSync(join(outside, 'CLAUDE.md'), join(repo, 'CLAUDE.md'));
      if (linkedRules === 'folder') symlinkSync(join(outside, 'rules'), join(repo, '.claude', 'rules'));
      else {
        mkdirSync(join(repo, '.claude', 'rules'));
        symlinkSync(join(outside, 'rules', 'db.md'), join(repo, '.claude', 'rules', 'db.md'));
      }
      const r = await memlintInProcess(repo, [MEM]);
      expect({ linkedRules, code: r.code, repeats: repeats(r.stdout) }).toEqual({ linkedRules, code: 0, repeats: [] });
    }
  });
});
