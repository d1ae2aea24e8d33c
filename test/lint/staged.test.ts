// What --staged reads from git, gathered ahead (the launcher) or asked synchronously (the program):
// both must see the same memdirs, listings and blobs, in a real repository.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readBlobs } from '../../src/git/blobs.js';
import { gitIndexEntries } from '../../src/git/status.js';
import { candidateIndexes, likelyMemdirs, memoryIndexesFor, ownerFolder, prefetchStaged, stagedMemdirsFor, type StagedFacts } from '../../src/lint/staged.js';
import { memlintInProcess } from '../helpers/in-process.js';
import { filesInTree, parseNameStatus } from '../../src/git/parse.js';
import { inIndexFrom } from '../../src/lint/staged-paths.js';
import { git, gitAt, initRepo, tempDir, writeFiles } from '../helpers/repo.js';

describe('staged memdirs: the pure parts', () => {
  it('lists every MEMORY.md that could own a staged path, never under node_modules', () => {
    expect(candidateIndexes(['a/b/x.md', 'a/y.md', 'node_modules/p/README.md']).sort()).toEqual(['MEMORY.md', 'a/MEMORY.md', 'a/b/MEMORY.md']);
  });

  it('the owner is the nearest folder whose MEMORY.md is present', () => {
    const present = new Set(['MEMORY.md', 'a/MEMORY.md']);
    expect(ownerFolder('a/b/x.md', present)).toBe('a');
    expect(ownerFolder('c/x.md', present)).toBe('');
    expect(ownerFolder('c/x.md', new Set())).toBeNull();
    expect(ownerFolder('a/node_modules/x.md', present)).toBeNull();
  });

  it('knows which MEMORY.md files are in the index from HEAD and the staged change', () => {
    const staged = parseNameStatus('M\0docs/a.md\0A\0new/MEMORY.md\0D\0gone/MEMORY.md\0U\0c/MEMORY.md\0');
    expect([...staged]).toEqual([['docs/a.md', 'M'], ['new/MEMORY.md', 'A'], ['gone/MEMORY.md', 'D'], ['c/MEMORY.md', 'U']]);
    const inHead = filesInTree(['100644 blob 1111\tMEMORY.md', '040000 tree 2222\tdir/MEMORY.md', '160000 commit 3333\tsub/MEMORY.md', ''].join('\0'));
    expect([...inHead]).toEqual(['MEMORY.md']);
    expect(inIndexFrom(['MEMORY.md', 'new/MEMORY.md', 'gone/MEMORY.md', 'c/MEMORY.md', 'dir/MEMORY.md', 'x/MEMORY.md'], staged, new Set([...inHead, 'gone/MEMORY.md']))).toEqual([
      'MEMORY.md',
      'new/MEMORY.md',
      'c/MEMORY.md',
    ]);
  });

  it('guesses memdirs from MEMORY.md files on disk, nearest first', () => {
    const onDisk = new Set(['m/MEMORY.md', 'MEMORY.md']);
    expect(likelyMemdirs(['m/logs/2026/11/2026-11-28.md', 'm/x.md', 'docs/a.md'], (p) => onDisk.has(p)).sort()).toEqual(['', 'm']);
    expect(likelyMemdirs(['docs/a.md'], () => false)).toEqual([]);
  });
});

describe('prefetchStaged', () => {
  function repoWithTwoMemdirs(): string {
    const repo = initRepo(tempDir('memlint-staged-'));
    writeFiles(repo, {
      'm/MEMORY.md': '- [A](a.md) — a\n',
      'm/a.md': '---\nname: A\ndescription: a\ntype: user\n---\nA.\n',
      'm/sub/b.md': 'B.\n',
      'n/MEMORY.md': '- [C](c.md) — c\n',
      'n/c.md': 'C.\n',
      'docs/guide.md': '# Guide\n',
    });
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'two memdirs');
    writeFiles(repo, { 'm/a.md': 'changed\n', 'n/c.md': 'changed too\n', 'docs/guide.md': '# Guide 2\n' });
    git(repo, 'add', '-A');
    return repo;
  }
  const STAGED = ['docs/guide.md', 'm/a.md', 'n/c.md'];

  it('finds what the synchronous path finds: memdirs, complete listings, the blobs read', async () => {
    const repo = repoWithTwoMemdirs();
    const facts = await prefetchStaged({ cwd: join(repo, 'docs'), env: process.env }, STAGED, ['m', 'n']);
    expect(facts).not.toBeNull();
    expect(facts!.root).toBe(git(repo, 'rev-parse', '--show-toplevel').trim());
    expect(facts!.indexes.sort()).toEqual(memoryIndexesFor(gitAt(repo), STAGED).sort());
    expect(facts!.listings.get('m')).toEqual(gitIndexEntries(gitAt(repo), { folders: ['m'] }));
    expect(facts!.listings.get('n')).toEqual(gitIndexEntries(gitAt(repo), { folders: ['n'] }));
    const ids = ['m/MEMORY.md', 'm/a.md', 'n/MEMORY.md', 'n/c.md'].map((p) => gitIndexEntries(gitAt(repo), { files: [p] })[0]!.object);
    expect([...facts!.blobs.keys()].sort()).toEqual([...ids].sort());
    const sync = readBlobs(gitAt(repo), ids);
    for (const id of ids) expect(facts!.blobs.get(id)!.equals(sync.get(id)!)).toBe(true);
    expect(stagedMemdirsFor(gitAt(facts!.root), STAGED, facts!.indexes)).toEqual(stagedMemdirsFor(gitAt(facts!.root), STAGED));
    // HEAD's versions of the same files come in the same call, for no-memory-loss.
    const atHead = ['m/MEMORY.md', 'm/a.md', 'n/MEMORY.md', 'n/c.md'];
    expect([...facts!.headBlobs.keys()].sort()).toEqual(atHead);
    const head = readBlobs(gitAt(repo), atHead.map((p) => `HEAD:${p}`));
    for (const p of atHead) expect(facts!.headBlobs.get(p)!.equals(head.get(`HEAD:${p}`)!), p).toBe(true);
  });

  it('has HEAD’s versions as null for a new file, and for every file before the first commit', async () => {
    const repo = repoWithTwoMemdirs();
    writeFiles(repo, { 'm/new.md': 'new\n' });
    git(repo, 'add', '-A');
    const facts = await prefetchStaged({ cwd: repo, env: process.env }, [...STAGED, 'm/new.md'], ['m', 'n']);
    expect(facts!.headBlobs.get('m/new.md')).toBeNull();
    expect(facts!.headBlobs.get('m/a.md')!.toString()).toContain('type: user');
    const fresh = initRepo(tempDir('memlint-staged-'));
    writeFiles(fresh, { 'm/MEMORY.md': '- [A](a.md) — a\n', 'm/a.md': 'A.\n' });
    git(fresh, 'add', '-A');
    const first = await prefetchStaged({ cwd: fresh, env: process.env }, ['m/MEMORY.md', 'm/a.md'], ['m']);
    expect([...first!.headBlobs]).toEqual([['m/MEMORY.md', null], ['m/a.md', null]]);
    expect(first!.blobs.size).toBe(2);
  });

  it('no-memory-loss reads a deleted topic from the HEAD versions it is handed, as git would give them', async () => {
    const repo = initRepo(tempDir('memlint-staged-'));
    const topic = (name: string, body: string) => `---\nname: ${name}\ndescription: ${name} in short\ntype: project\n---\n\n${body}\n`;
    writeFiles(repo, {
      '.claude/memory/MEMORY.md': '- [Deploys](deploys.md) — deploys go out on Tuesdays\n- [Freeze](freeze.md) — the December freeze\n',
      '.claude/memory/deploys.md': topic('Deploys', 'Deploys go out on Tuesdays after the standup.'),
      '.claude/memory/freeze.md': topic('Freeze', 'Nothing ships between 2026-12-18 and 2027-01-04 but security fixes.'),
    });
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'memory');
    git(repo, 'rm', '-q', '.claude/memory/freeze.md');
    const staged = ['.claude/memory/freeze.md'];
    const handed = (facts: StagedFacts | null) => ({ given: { staged: { paths: staged, facts: Promise.resolve(facts) } } });
    const facts = await prefetchStaged({ cwd: repo, env: process.env }, staged, ['.claude/memory']);
    expect(facts!.headBlobs.get('.claude/memory/freeze.md')!.toString()).toContain('Nothing ships between');
    const asked = await memlintInProcess(repo, ['--staged', '--format', 'json'], handed(null));
    const read = await memlintInProcess(repo, ['--staged', '--format', 'json'], handed(facts));
    expect(read).toEqual(asked);
    expect(read.stdout).toContain('the staged change deletes 1 topic file (freeze.md)');
    // Handed a HEAD without freeze.md, the program believes it (git is not asked): nothing lost.
    const without = new Map(facts!.headBlobs).set('.claude/memory/freeze.md', null);
    const believed = await memlintInProcess(repo, ['--staged', '--format', 'json'], handed({ ...facts!, headBlobs: without }));
    expect(believed.stdout).not.toContain('deletes 1 topic file');
  });

  it('with a wrong guess it still names the memdirs; the listings it lacks are the program’s to read', async () => {
    const repo = repoWithTwoMemdirs();
    const facts = await prefetchStaged({ cwd: repo, env: process.env }, STAGED, ['docs']);
    expect(facts!.indexes.sort()).toEqual(['m/MEMORY.md', 'n/MEMORY.md']);
    expect(facts!.listings.has('m')).toBe(false);
    expect(facts!.blobs.size).toBe(0);
  });

  it('answers null outside a repository, so the program asks again and explains', async () => {
    expect(await prefetchStaged({ cwd: tempDir('memlint-norepo-'), env: process.env }, ['m/a.md'], ['m'])).toBeNull();
  });
});
