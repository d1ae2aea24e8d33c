// Config comes from the repository, so it is untrusted (README "Security"): memoryDirs and
// consolidate.archiveDir naming a folder outside the repository (an absolute path, `../`, an
// in-repository symlink that resolves outside) are refused with exit 2 and one line naming them,
// and that run writes nothing, in the repository or out of it. A memoryDirs folder without
// MEMORY.md is not memory: nothing in it is rewritten, and it gets no lock. The writing commands
// run in this process (test/helpers/in-process.ts: the same main(), the same output).
import { existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memlintInProcess } from '../helpers/in-process.js';
import { git, initRepo, writeFiles } from '../helpers/repo.js';
import { topic } from '../install/helpers.js';
import { sentinel, treeState } from './helpers.js';

const MEM = '.claude/memory';
const env = { MEMLINT_TODAY: '2026-11-30' };
const stale = `---\nname: Old\ndescription: An old project fact\ntype: project\nmodified: 2020-01-01\n---\n\nShipped on 2020-01-01.\n`;
/** A memdir --fix and consolidate --prune would both change (an orphan, a stale project memory). */
const OUTSIDE_MEMORY = {
  'MEMORY.md': '# Memory\n\n- [Old](project_old.md) — old project fact\n',
  'project_old.md': stale,
  'project_orphan.md': topic('Orphan', 'project', 'A topic with no index entry', 'Body.\n'),
};

function repoWithMemory(): string {
  const repo = initRepo();
  writeFiles(repo, {
    [`${MEM}/MEMORY.md`]: '# Memory\n\n- [Old](project_old.md) — old project fact\n',
    [`${MEM}/project_old.md`]: stale,
    [`${MEM}/project_orphan.md`]: topic('Orphan', 'project', 'A topic with no index entry', 'Body.\n'),
  });
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'init');
  return repo;
}

const WRITERS = [['--fix'], ['consolidate', '--force', '--prune'], ['touch']];

describe('hostile config', () => {
  const cases: Array<[string, (repo: string, outside: string) => Record<string, unknown>, RegExp]> = [
    ['memoryDirs: an absolute path outside', (_r, o) => ({ memoryDirs: [o] }), /^memlint: config memoryDirs: "[^"]+" names \S+, outside the repository; memlint does not read or write there\n$/],
    ['memoryDirs: a ../ path out of the repository', (r, o) => ({ memoryDirs: [relative(r, o)] }), /^memlint: config memoryDirs: "\.\.\/[^"]+" names \S+, outside the repository/],
    ['memoryDirs: an in-repository symlink that resolves outside', (r, o) => (symlinkSync(o, join(r, 'shared')), { memoryDirs: ['shared'] }), /^memlint: config memoryDirs: "shared" names \S+, a symlink to \S+, outside the repository/],
    ['consolidate.archiveDir: ../../..', () => ({ consolidate: { archiveDir: '../../..' } }), /^memlint: config consolidate\.archiveDir: "\.\.\/\.\.\/\.\." is refused: \S+ is outside the repository/],
    ['consolidate.archiveDir: an absolute path outside', (_r, o) => ({ consolidate: { archiveDir: o } }), /^memlint: config consolidate\.archiveDir: "[^"]+" is refused: \S+ is outside the repository/],
    ['consolidate.archiveDir: an in-repository symlink', (r, o) => (symlinkSync(o, join(r, 'archive')), { consolidate: { archiveDir: '../../archive' } }), /^memlint: config consolidate\.archiveDir: "\.\.\/\.\.\/archive" is refused: \S+archive is a symlink/],
  ];
  for (const [name, config, message] of cases) {
    it(`${name}: exit 2, one line, nothing written by the run`, async () => {
      const outside = sentinel(OUTSIDE_MEMORY);
      const repo = repoWithMemory();
      writeFiles(repo, { '.memlintrc.json': JSON.stringify(config(repo, outside.dir)) });
      const before = outside.state();
      const inRepo = treeState(join(repo, '.claude'));
      const writers = name.startsWith('memoryDirs') ? WRITERS : [['consolidate', '--force', '--prune'], ['consolidate', '--force', '--prune', MEM]];
      for (const args of writers) {
        const r = await memlintInProcess(repo, args, { env });
        expect(r.code, args.join(' ')).toBe(2);
        expect(r.stderr, args.join(' ')).toMatch(message);
        expect(r.stderr.split('\n').filter(Boolean), args.join(' ')).toHaveLength(1);
      }
      expect(outside.state()).toEqual(before);
      expect(treeState(join(repo, '.claude'))).toEqual(inRepo);
    });
  }

  it('a memoryDirs symlink out of the repository is named with where it leads, at its own level or a parent\'s', async () => {
    const outside = sentinel(OUTSIDE_MEMORY);
    const real = realpathSync(outside.dir);
    const repo = repoWithMemory();
    symlinkSync(outside.dir, join(repo, 'shared'));
    writeFiles(repo, { '.memlintrc.json': JSON.stringify({ memoryDirs: ['shared'] }) });
    const direct = await memlintInProcess(repo, [], { env });
    expect(direct.code).toBe(2);
    expect(direct.stderr).toBe(`memlint: config memoryDirs: "shared" names ${join(repo, 'shared')}, a symlink to ${real}, outside the repository; memlint does not read or write there\n`);
    mkdirSync(join(outside.dir, 'sub'));
    writeFiles(repo, { '.memlintrc.json': JSON.stringify({ memoryDirs: ['shared/sub'] }) });
    const parent = await memlintInProcess(repo, [], { env });
    expect(parent.code).toBe(2);
    expect(parent.stderr).toBe(`memlint: config memoryDirs: "shared/sub" names ${join(repo, 'shared', 'sub')}, which leads to ${join(real, 'sub')} (${join(repo, 'shared')} is a symlink to ${real}), outside the repository; memlint does not read or write there\n`);
  });

  it('a memoryDirs folder without MEMORY.md: its *.md are not rewritten and it gets no lock', async () => {
    const repo = repoWithMemory();
    writeFiles(repo, {
      '.memlintrc.json': JSON.stringify({ memoryDirs: ['docs'], consolidate: { minHours: 0, minCommits: 0 } }),
      'docs/project_notes.md': topic('Notes', 'project', 'Not a memory folder', 'See you tomorrow.\n'),
      'docs/guide.md': '# Guide\n\nsome text\n',
    });
    const before = treeState(join(repo, 'docs'));
    for (const args of [['--fix'], ['consolidate', '--force', '--prune'], ['consolidate', '--force', '--prune', 'docs'], ['touch']]) await memlintInProcess(repo, args, { env });
    expect(treeState(join(repo, 'docs'))).toEqual(before);
    expect(existsSync(join(repo, 'docs', '.consolidate-lock'))).toBe(false);
    expect(existsSync(join(repo, 'docs', 'MEMORY.md'))).toBe(false);
    // The real memdir beside it was consolidated as usual.
    expect(readFileSync(join(repo, MEM, 'MEMORY.md'), 'utf8')).toContain('(project_orphan.md)');
  });

  it('memoryDirs and archiveDir inside the repository work as before', async () => {
    const repo = repoWithMemory();
    writeFiles(repo, {
      '.claude/team/MEMORY.md': '# Team\n',
      '.claude/team/project_t.md': topic('T', 'project', 'A team fact', 'Body.\n'),
      '.memlintrc.json': JSON.stringify({ memoryDirs: ['.claude/team'], consolidate: { archiveDir: '../../archive/memory' } }),
    });
    const r = await memlintInProcess(repo, ['consolidate', '--force', '--prune'], { env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(readFileSync(join(repo, '.claude', 'team', 'MEMORY.md'), 'utf8')).toContain('(project_t.md)');
    expect(existsSync(join(repo, 'archive', 'memory', 'project_old.md'))).toBe(true);
  });
});
