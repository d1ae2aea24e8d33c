// firstParentChangesOf asks git once for many paths: the same commits, in the same order, as
// asking one path at a time did, through merges that change a path on either side,
// a merge that takes theirs' version, deletions, and names git would read as globs.
import { describe, expect, it } from 'vitest';
import { firstParentChangesOf, type CommitParents } from '../../src/git/history.js';
import { commitFiles, git, gitAt, initRepo, writeFiles } from '../helpers/repo.js';
import type { GitContext } from '../../src/git/repo.js';

/** What resolve asked git for one path at a time before (`git log --first-parent -n<max> -- <path>`). */
function firstParentChanges(at: GitContext, path: string, max = 100): CommitParents[] {
  try {
    git(at.cwd, 'rev-parse', '--verify', '-q', 'HEAD');
  } catch {
    return []; // no commit yet
  }
  return git(at.cwd, 'log', '--first-parent', `-n${max}`, '--format=%H %P', '--', `:(literal)${path}`)
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => {
      const [commit, ...parents] = l.trim().split(' ');
      return { commit: commit!, parents };
    });
}

describe('firstParentChangesOf', () => {
  it('gives each path the commits firstParentChanges gives it', () => {
    const repo = initRepo();
    const paths = ['m/a.md', 'm/b.md', 'm/c*.md', 'm/d.md', 'm/none.md'];
    commitFiles(repo, { 'm/a.md': 'a\n', 'm/b.md': 'b\n', 'm/c*.md': 'c\n' }, 'one');
    git(repo, 'checkout', '-q', '-b', 'side');
    commitFiles(repo, { 'm/b.md': 'b side\n', 'm/d.md': 'd\n' }, 'side edits b, adds d');
    commitFiles(repo, { 'm/c*.md': 'c side\n' }, 'side edits c*');
    git(repo, 'checkout', '-q', 'main');
    commitFiles(repo, { 'm/a.md': 'a main\n' }, 'main edits a');
    git(repo, 'merge', '-q', '--no-ff', '--no-edit', 'side');
    commitFiles(repo, { 'm/b.md': 'b again\n' }, 'main edits b');
    git(repo, 'checkout', '-q', '-b', 'other', 'HEAD~1');
    commitFiles(repo, { 'm/a.md': 'a other\n' }, 'other edits a');
    git(repo, 'checkout', '-q', 'main');
    git(repo, 'merge', '-q', '--no-ff', '--no-edit', '-X', 'theirs', 'other');
    git(repo, 'rm', '-q', 'm/d.md');
    writeFiles(repo, {});
    git(repo, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'remove d');
    const at = gitAt(repo);
    const batch = firstParentChangesOf(at, paths);
    for (const p of paths) expect({ p, commits: batch.get(p) }).toEqual({ p, commits: firstParentChanges(at, p) });
    expect(batch.get('m/a.md')!.length).toBeGreaterThanOrEqual(3);
    expect(batch.get('m/none.md')).toEqual([]);
    // At most `max` a path, the newest.
    expect(firstParentChangesOf(at, paths, 1).get('m/a.md')).toEqual(firstParentChanges(at, 'm/a.md', 1));
  });

  it('gives nothing before the first commit', () => {
    expect(firstParentChangesOf(gitAt(initRepo()), ['a.md']).get('a.md')).toEqual([]);
  });
});
