// The parsers and readers of src/git that several callers share: each against the real git output
// it parses (temporary repositories, the git CLI).
import { mkdirSync, readFileSync, realpathSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configValue, configValueAsync, localConfigReader, setLocalConfig } from '../../src/git/config.js';
import { readBlobs, readBlobsAsync } from '../../src/git/blobs.js';
import { deletionCommits, lastCommitTimesUnder } from '../../src/git/history.js';
import { gitOperation, worktreeState } from '../../src/git/progress.js';
import { mergeBases, mergeBasesAsync, resolveRef, resolveRefAsync } from '../../src/git/refs.js';
import { gitEnv, repository, repositoryAsync } from '../../src/git/repo.js';
import { attributeValues, attributeValuesAsync, gitIndexEntries, gitIndexEntriesAsync, ignoredPaths, trackedAmong, trackedAmongAsync, uncommittedPaths, uncommittedPathsAsync } from '../../src/git/status.js';
import { addPaths, LOCAL_STATE } from '../../src/git/write.js';
import { parseCheckAttr, parseLogRecords, parseStatusPaths } from '../../src/git/parse.js';
import { filesInHead, markdownHolding } from '../../src/git/staged.js';
import { commitFiles, git, gitAt, initRepo, tempDir, writeFiles } from '../helpers/repo.js';

describe('git config: one reader, sync and async alike', () => {
  it('reads a value as git resolves it, --local only when asked, null when unset; empty values stay empty', async () => {
    const repo = initRepo(tempDir('memlint-config-'));
    setLocalConfig(gitAt(repo), 'memlint.test', 'a value with spaces');
    setLocalConfig(gitAt(repo), 'memlint.empty', '');
    expect(configValue(gitAt(repo), 'memlint.test')).toBe('a value with spaces');
    expect(configValue(gitAt(repo), 'memlint.test', { local: true })).toBe('a value with spaces');
    expect(await configValueAsync(gitAt(repo), 'memlint.test')).toBe('a value with spaces');
    expect(configValue(gitAt(repo), 'memlint.empty')).toBe('');
    expect(await configValueAsync(gitAt(repo), 'memlint.empty')).toBe('');
    expect(configValue(gitAt(repo), 'memlint.unset')).toBeNull();
    expect(await configValueAsync(gitAt(repo), 'memlint.unset')).toBeNull();
    // `-c` (GIT_CONFIG_PARAMETERS, in the environment handed to it) counts for the resolved value, not for --local.
    const withC = { cwd: repo, env: { ...process.env, GIT_CONFIG_PARAMETERS: "'memlint.fromcommand'='yes'" } };
    expect(configValue(withC, 'memlint.fromcommand')).toBe('yes');
    expect(configValue(withC, 'memlint.fromcommand', { local: true })).toBeNull();
    expect(configValue(gitAt(repo), 'memlint.fromcommand')).toBeNull();
    setLocalConfig(gitAt(repo), 'memlint.test', null);
    expect(configValue(gitAt(repo), 'memlint.test')).toBeNull();
    setLocalConfig(gitAt(repo), 'memlint.test', null); // unsetting what is unset is no failure
  });

  it('answers null outside a repository for local config, as for a key that is unset', () => {
    expect(configValue(gitAt(tempDir('memlint-norepo-')), 'memlint.anything', { local: true })).toBeNull();
    expect(localConfigReader(gitAt(tempDir('memlint-norepo-')))('memlint.anything')).toBeNull();
  });

  it('reads the local config at once as configValue reads each key of it: case, subsections, empty, multi-line and repeated values', () => {
    const repo = initRepo(tempDir('memlint-config-'));
    setLocalConfig(gitAt(repo), 'core.hooksPath', '.husky/_');
    setLocalConfig(gitAt(repo), 'merge.Memlint-Ours.driver', 'memlint merge %O %A %B %L %P');
    setLocalConfig(gitAt(repo), 'memlint.empty', '');
    setLocalConfig(gitAt(repo), 'memlint.lines', 'one\ntwo');
    git(repo, 'config', '--local', '--add', 'memlint.many', 'first');
    git(repo, 'config', '--local', '--add', 'memlint.many', 'last');
    const read = localConfigReader(gitAt(repo));
    for (const key of ['core.hooksPath', 'CORE.HOOKSPATH', 'merge.Memlint-Ours.driver', 'merge.memlint-ours.driver', 'memlint.empty', 'memlint.lines', 'memlint.many', 'memlint.unset', 'user.name']) {
      expect(read(key), key).toBe(configValue(gitAt(repo), key, { local: true }));
    }
    expect(read('memlint.many')).toBe('last');
    expect(read('merge.memlint-ours.driver')).toBeNull();
  });
});

describe('git status: one reader', () => {
  it('lists staged, unstaged and untracked paths; a rename as the two paths it touches', async () => {
    const repo = initRepo(tempDir('memlint-status-'));
    commitFiles(repo, { 'm/a.md': 'a\n', 'm/b b.md': 'b\n', 'm/c.md': 'c\n' });
    writeFiles(repo, { 'm/a.md': 'changed\n', 'm/new.md': 'new\n' });
    renameSync(join(repo, 'm/c.md'), join(repo, 'm/d.md'));
    git(repo, 'add', '-A', 'm/c.md', 'm/d.md');
    const out = git(repo, 'status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames');
    expect(parseStatusPaths(out).sort()).toEqual(['m/a.md', 'm/c.md', 'm/d.md', 'm/new.md']);
    expect(uncommittedPaths(gitAt(repo), { pathspec: ['m'] }).sort()).toEqual(['m/a.md', 'm/c.md', 'm/d.md', 'm/new.md']);
    expect((await uncommittedPathsAsync(gitAt(repo), { pathspec: ['m'] })).sort()).toEqual(['m/a.md', 'm/c.md', 'm/d.md', 'm/new.md']);
    expect((await uncommittedPathsAsync(gitAt(repo), { untracked: false })).sort()).toEqual(['m/a.md', 'm/c.md', 'm/d.md']);
    expect(uncommittedPaths(gitAt(repo), { untracked: false })).toEqual(await uncommittedPathsAsync(gitAt(repo), { untracked: false }));
    // Consolidation's local state (the lock) is never a change of the memdir's.
    writeFiles(repo, { 'm/.consolidate-lock': '1\n' });
    expect(uncommittedPaths(gitAt(repo), { pathspec: ['m'] })).toContain('m/.consolidate-lock');
    expect(uncommittedPaths(gitAt(repo), { pathspec: ['m', ...LOCAL_STATE] }).sort()).toEqual(['m/a.md', 'm/c.md', 'm/d.md', 'm/new.md']);
  });
});

describe('git check-attr and check-ignore', () => {
  it('gives each path its attribute value, odd names included', async () => {
    const repo = initRepo(tempDir('memlint-attr-'));
    writeFiles(repo, { '.gitattributes': 'm/** merge=memlint\n*.txt merge=unset-me -merge\n', '.gitignore': 'm/.consolidate-lock\n' });
    const paths = ['m/MEMORY.md', 'm/a "quoted" b.md', 'x.txt', 'other.md'];
    const values = attributeValues(gitAt(repo), 'merge', paths);
    expect(await attributeValuesAsync(gitAt(repo), 'merge', paths)).toEqual(values);
    expect(values).toEqual(new Map([['m/MEMORY.md', 'memlint'], ['m/a "quoted" b.md', 'memlint'], ['x.txt', 'unset'], ['other.md', 'unspecified']]));
    expect(parseCheckAttr(git(repo, 'check-attr', '-z', 'merge', '--', 'm/MEMORY.md'))).toEqual(new Map([['m/MEMORY.md', 'memlint']]));
    expect(ignoredPaths(gitAt(repo), ['m/.consolidate-lock', 'm/MEMORY.md'], { noIndex: true })).toEqual(new Set(['m/.consolidate-lock']));
  });
});

describe('git cat-file --batch', () => {
  it('reads blobs by any name, a path with a line break in it too; a missing one is null', () => {
    const repo = initRepo(tempDir('memlint-blobs-'));
    commitFiles(repo, { 'm/a.md': 'A at HEAD\n', 'm/x\ny.md': 'XY at HEAD\n', 'm/b.md': 'B at HEAD\n' });
    writeFiles(repo, { 'm/x\ny.md': 'XY staged\n' });
    git(repo, 'add', '-A');
    const specs = ['HEAD:m/a.md', 'HEAD:m/x\ny.md', ':m/x\ny.md', 'HEAD:m/b.md', 'HEAD:m/gone\nname.md', 'HEAD:m/gone.md', ':m/b.md'];
    const blobs = readBlobs(gitAt(repo), specs);
    expect(specs.map((s) => blobs.get(s)?.toString('utf8') ?? null)).toEqual(['A at HEAD\n', 'XY at HEAD\n', 'XY staged\n', 'B at HEAD\n', null, null, 'B at HEAD\n']);
  });
});

describe('readBlobs: many names at one revision', () => {
  it('reads them by their blob ids from one listing, the same as by name: nested, glob-like, colons, missing, a folder, another revision', async () => {
    const repo = initRepo(tempDir('memlint-blobs-many-'));
    const files: Record<string, string> = {};
    for (let i = 0; i < 100; i++) files[`m/t${i}.md`] = `topic ${i}\n`;
    Object.assign(files, { 'm/logs/2026/01/a.md': 'log\n', 'm/*.md': 'star\n', 'm/x:y.md': 'colon\n', 'm/[ab].md': 'brackets\n', 'other/o.md': 'other\n' });
    commitFiles(repo, files);
    const head = git(repo, 'rev-parse', 'HEAD').trim();
    commitFiles(repo, { 'm/t0.md': 'topic 0, later\n' });
    const specs = [
      ...Object.keys(files).map((p) => `HEAD:${p}`),
      ...Object.keys(files).map((p) => `${head}:${p}`),
      'HEAD:m/gone.md', 'HEAD:m/logs', 'HEAD:./m/t1.md', ':m/t2.md',
    ];
    const many = readBlobs(gitAt(repo), specs);
    const manyAsync = await readBlobsAsync(gitAt(repo), specs);
    for (const spec of specs) {
      expect(manyAsync.get(spec)?.toString('utf8') ?? null, spec).toBe(many.get(spec)?.toString('utf8') ?? null);
      const one = readBlobs(gitAt(repo), [spec]).get(spec);
      expect(many.get(spec)?.toString('utf8') ?? null, spec).toBe(one?.toString('utf8') ?? null);
    }
    expect(many.get('HEAD:m/t0.md')?.toString('utf8')).toBe('topic 0, later\n');
    expect(many.get(`${head}:m/t0.md`)?.toString('utf8')).toBe('topic 0\n');
    expect(many.get('HEAD:m/*.md')?.toString('utf8')).toBe('star\n');
    expect(many.get('HEAD:m/gone.md')).toBeNull();
  });
});

describe('git grep for --staged: the Markdown files that name a path', () => {
  it('finds tracked Markdown at any depth in its staged version, whatever the pathspec variables say', () => {
    const repo = initRepo(tempDir('memlint-holding-'));
    const names = 'Rounding: src/billing/round.ts\n';
    commitFiles(repo, { 'top.md': names, 'a/b/c/d/deep.md': names, 'x/.claude/memory/m.md': names, 'src/billing/round.ts': names, 'README.txt': names, 'dropped.md': names, 'later.md': 'nothing\n' });
    // The index is asked: a version staged counts, one only on disk or only at HEAD does not.
    writeFiles(repo, { 'later.md': names, 'dropped.md': 'nothing\n', 'unstaged.md': names });
    git(repo, 'add', 'later.md', 'dropped.md');
    writeFiles(repo, { 'top.md': 'edited on disk alone\n' });
    const expected = ['a/b/c/d/deep.md', 'later.md', 'top.md', 'x/.claude/memory/m.md'];
    expect(markdownHolding(gitAt(repo), ['src/billing/', 'no/such/']).sort()).toEqual(expected);
    for (const variable of ['GIT_GLOB_PATHSPECS', 'GIT_NOGLOB_PATHSPECS', 'GIT_LITERAL_PATHSPECS']) {
      expect(markdownHolding({ cwd: repo, env: { ...process.env, [variable]: '1' } }, ['src/billing/']).sort(), variable).toEqual(expected);
    }
    expect(markdownHolding(gitAt(repo), ['no/such/'])).toEqual([]);
    expect(markdownHolding(gitAt(repo), [''])).toEqual([]);
  });
});

describe('git log: one parser for its readers', () => {
  it('gives each file the time of the newest commit that changed it; a merge counts only where it left the file unlike both parents', () => {
    const repo = initRepo(tempDir('memlint-log-'));
    const at = (seconds: number, fn: () => void) => {
      process.env.GIT_COMMITTER_DATE = `${seconds} +0000`;
      try {
        fn();
      } finally {
        delete process.env.GIT_COMMITTER_DATE;
      }
    };
    at(1_000_000_000, () => commitFiles(repo, { 'm/a.md': 'a\n', 'm/b.md': 'b\n', 'm/c d.md': 'c\n', 'm/x\ny.md': 'x\n' }, 'one'));
    git(repo, 'switch', '-q', '-c', 'side');
    at(1_000_000_100, () => commitFiles(repo, { 'm/a.md': 'a from side\n', 'm/b.md': 'b\nfrom side\n' }, 'side'));
    git(repo, 'switch', '-q', 'main');
    at(1_000_000_200, () => commitFiles(repo, { 'm/b.md': 'from main\nb\n', 'm/x\ny.md': 'x again\n' }, 'main'));
    // b.md merges line by line into something neither parent had; a.md comes from the side as it was.
    at(1_000_000_300, () => git(repo, 'merge', '-q', '--no-edit', 'side'));
    expect(readFileSync(join(repo, 'm/b.md'), 'utf8')).toBe('from main\nb\nfrom side\n');
    const times = lastCommitTimesUnder(gitAt(repo), ['m']);
    expect(Object.fromEntries(times)).toEqual({ 'm/a.md': 1_000_000_100, 'm/b.md': 1_000_000_300, 'm/c d.md': 1_000_000_000, 'm/x\ny.md': 1_000_000_200 });
    expect(parseLogRecords(git(repo, 'log', '--format=%x01%ct %s', '--name-only', '-c', '-z', '--no-renames', '--', 'm'))).toEqual([
      { fields: "1000000300 Merge branch 'side'", paths: ['m/b.md'] },
      { fields: '1000000200 main', paths: ['m/b.md', 'm/x\ny.md'] },
      { fields: '1000000100 side', paths: ['m/a.md', 'm/b.md'] },
      { fields: '1000000000 one', paths: ['m/a.md', 'm/b.md', 'm/c d.md', 'm/x\ny.md'] },
    ]);
  });
});

describe('deletionCommits: the commit that deleted each path', () => {
  it('finds them among more paths than a command line holds, few or many, in one folder or several; names taken literally, a line break in one too', () => {
    const repo = initRepo(tempDir('memlint-deleted-'));
    commitFiles(repo, { 'm/a.md': 'a\n', 'm/[b].md': 'b\n', 'm/x\ny.md': 'x\n', 'm/keep.md': 'k\n' }, 'one');
    git(repo, 'rm', '-q', 'm/a.md', 'm/[b].md', 'm/x\ny.md');
    git(repo, 'commit', '-qm', 'gone');
    const commit = git(repo, 'rev-parse', 'HEAD').trim();
    // 70,000 names of 40 bytes: 2.8 MB, past Linux's 2 MB for a command's arguments.
    const never = Array.from({ length: 70_000 }, (_, i) => `m/never-committed-${String(i).padStart(20, '0')}.md`);
    const found = deletionCommits(gitAt(repo), [...never, 'm/a.md', 'm/[b].md', 'm/x\ny.md', 'm/keep.md', 'm/?.md']);
    expect([...found.keys()].sort()).toEqual(['m/[b].md', 'm/a.md', 'm/x\ny.md']);
    expect(found.get('m/a.md')?.commit).toBe(commit);
    // A glob-like name is that name only: `m/?.md` matches no deleted file.
    expect(deletionCommits(gitAt(repo), ['m/?.md', 'm/*.md']).size).toBe(0);
    // A few paths are asked one by one, a line break in one too.
    expect([...deletionCommits(gitAt(repo), ['m/x\ny.md', 'm/a.md', 'm/keep.md']).keys()].sort()).toEqual(['m/a.md', 'm/x\ny.md']);
    // Many in several folders: the top is walked.
    const spread = Array.from({ length: 600 }, (_, i) => `other${i}/t.md`);
    expect([...deletionCommits(gitAt(repo), [...spread, 'm/a.md']).keys()]).toEqual(['m/a.md']);
  });
});

describe('paths past a command line: every reader that takes paths as arguments', () => {
  it('answers for 70,000 paths (2.8 MB) as for the few that exist: tracked, index entries, in HEAD, staged', async () => {
    const repo = initRepo(tempDir('memlint-many-paths-'));
    commitFiles(repo, { 'm/a.md': 'a\n', 'm/b.md': 'b\n' }, 'one');
    writeFiles(repo, { 'm/new.md': 'new\n' });
    const never = Array.from({ length: 70_000 }, (_, i) => `m/never-committed-${String(i).padStart(20, '0')}.md`);
    const asked = [...never, 'm/a.md', 'm/b.md', 'm/new.md'];
    expect([...trackedAmong(gitAt(repo), asked)].sort()).toEqual(['m/a.md', 'm/b.md']);
    expect([...(await trackedAmongAsync(gitAt(repo), asked))].sort()).toEqual(['m/a.md', 'm/b.md']);
    expect([...filesInHead(gitAt(repo), asked)].sort()).toEqual(['m/a.md', 'm/b.md']);
    // A file named and under a folder named is listed once.
    const scope = { files: asked, folders: ['m'] };
    expect(gitIndexEntries(gitAt(repo), scope).map((e) => e.path).sort()).toEqual(['m/a.md', 'm/b.md']);
    expect((await gitIndexEntriesAsync(gitAt(repo), scope)).map((e) => e.path).sort()).toEqual(['m/a.md', 'm/b.md']);
    // 9,000 names of 240 bytes: 2.2 MB.
    const many = Array.from({ length: 9_000 }, (_, i) => `m/${'long-folder-name-'.repeat(7)}/${String(i).padStart(100, '0')}.md`);
    writeFiles(repo, Object.fromEntries(many.map((p) => [p, 'x\n'])));
    addPaths(gitAt(repo), [...many, 'm/new.md']);
    expect(trackedAmong(gitAt(repo), [...many, 'm/new.md']).size).toBe(many.length + 1);
  });
});

describe('where is the repository: one answer, from any folder, in a hook too', () => {
  it('names the top, the git dir and the common dir, for the main and a linked worktree; null outside', async () => {
    const repo = realpathSync(initRepo(tempDir('memlint-where-')));
    commitFiles(repo, { 'm/MEMORY.md': '# Memory\n' });
    const wt = join(realpathSync(tempDir('memlint-wt-')), 'wt');
    git(repo, 'worktree', 'add', '-q', '-b', 'side', wt);
    const from = { cwd: repo, env: process.env };
    expect(repository(from, join(repo, 'm'))).toEqual({ root: repo, gitDir: join(repo, '.git'), commonDir: join(repo, '.git'), isLinkedWorktree: false });
    expect(repository(from, join(wt, 'm'))).toEqual({ root: wt, gitDir: join(repo, '.git', 'worktrees', 'wt'), commonDir: join(repo, '.git'), isLinkedWorktree: true });
    expect(await repositoryAsync(from, join(wt, 'm'))).toEqual(repository(from, join(wt, 'm')));
    expect(repository({ cwd: tempDir('memlint-norepo-'), env: process.env })).toBeNull();
    expect(await repositoryAsync({ cwd: tempDir('memlint-norepo-'), env: process.env })).toBeNull();
  });

  it("takes git's hook environment as a value: GIT_DIR without a work tree names the folder memlint started in, and nothing is set on the process", () => {
    const repo = realpathSync(initRepo(tempDir('memlint-hookenv-')));
    commitFiles(repo, { 'm/MEMORY.md': '# Memory\n' });
    const wt = join(realpathSync(tempDir('memlint-wt-')), 'wt');
    git(repo, 'worktree', 'add', '-q', '-b', 'side', wt);
    mkdirSync(join(wt, 'm', 'deep'), { recursive: true });
    // What git hands a hook it runs in a linked worktree: GIT_DIR, and the hook runs at the top.
    const env: NodeJS.ProcessEnv = { ...process.env, GIT_DIR: join(repo, '.git', 'worktrees', 'wt') };
    delete env.GIT_WORK_TREE;
    const hook = { cwd: wt, env };
    expect(gitEnv(hook).GIT_WORK_TREE).toBe(wt);
    expect(gitEnv(hook, wt)).toBe(env); // in the folder it started in, git reads it right already
    expect(repository(hook, join(wt, 'm', 'deep'))?.root).toBe(wt);
    // Without the rule git would take the folder it runs in for the top.
    expect(repository({ cwd: join(wt, 'm', 'deep'), env })?.root).toBe(join(wt, 'm', 'deep'));
    // core.worktree, when set, is git's own answer: the environment is left as it is.
    const named = { ...env, GIT_CONFIG_PARAMETERS: `'core.worktree'='${wt}'` };
    expect(gitEnv({ cwd: wt, env: named })).toBe(named);
    expect(process.env.GIT_WORK_TREE).toBeUndefined();
    expect(process.env.GIT_DIR).toBeUndefined();
  });
});

describe('what a name resolves to: one answer, sync or async alike', () => {
  it('gives the commit and the full ref of a branch, a tag, HEAD and an id; null for a missing name, an option, or no commit yet', async () => {
    const repo = initRepo(tempDir('memlint-refs-'));
    expect(resolveRef(gitAt(repo), 'HEAD')).toBeNull();
    commitFiles(repo, { 'a.md': 'a\n' }, 'one');
    const one = git(repo, 'rev-parse', 'HEAD').trim();
    git(repo, 'tag', 'v1');
    git(repo, 'switch', '-q', '-c', 'side');
    commitFiles(repo, { 'b.md': 'b\n' }, 'two');
    const two = git(repo, 'rev-parse', 'HEAD').trim();
    const cases: Array<[string, { commit: string; fullRef: string | null } | null]> = [
      ['HEAD', { commit: two, fullRef: 'refs/heads/side' }],
      ['main', { commit: one, fullRef: 'refs/heads/main' }],
      ['v1', { commit: one, fullRef: 'refs/tags/v1' }],
      [one, { commit: one, fullRef: null }],
      ['MERGE_HEAD', null],
      ['nope', null],
      ['--all', null],
    ];
    for (const [name, want] of cases) {
      expect(resolveRef(gitAt(repo), name), name).toEqual(want);
      expect(await resolveRefAsync(gitAt(repo), name), name).toEqual(want);
    }
    git(repo, 'switch', '-q', '--detach', 'main');
    expect(resolveRef(gitAt(repo), 'HEAD')).toEqual({ commit: one, fullRef: null });
  });

  it('gives the merge bases of two commits, the one `git merge-base` names first; none for unrelated histories', async () => {
    const repo = initRepo(tempDir('memlint-bases-'));
    commitFiles(repo, { 'a.md': 'a\n' }, 'one');
    git(repo, 'switch', '-q', '-c', 'side');
    commitFiles(repo, { 'b.md': 'b\n' }, 'side');
    git(repo, 'switch', '-q', 'main');
    commitFiles(repo, { 'c.md': 'c\n' }, 'main');
    const best = git(repo, 'merge-base', 'main', 'side').trim();
    expect(mergeBases(gitAt(repo), 'main', 'side')).toEqual([best]);
    expect(await mergeBasesAsync(gitAt(repo), 'main', 'side')).toEqual([best]);
    git(repo, 'switch', '-q', '--orphan', 'alone');
    commitFiles(repo, { 'd.md': 'd\n' }, 'alone');
    expect(mergeBases(gitAt(repo), 'main', 'alone')).toEqual([]);
  });
});

describe('what is in progress: one reader of git\'s state files', () => {
  it('names a merge with conflicts, a stopped rebase, and nothing once they are done, from any folder of the worktree', async () => {
    const repo = realpathSync(initRepo(tempDir('memlint-progress-')));
    commitFiles(repo, { 'm/a.md': 'base\n' }, 'base');
    git(repo, 'switch', '-q', '-c', 'side');
    commitFiles(repo, { 'm/a.md': 'side\n' }, 'side');
    git(repo, 'switch', '-q', 'main');
    commitFiles(repo, { 'm/a.md': 'main\n' }, 'main');
    const state = async () => worktreeState({ cwd: repo, env: process.env }, join(repo, 'm'));
    expect(await state()).toMatchObject({ root: repo, gitDir: join(repo, '.git'), operation: null, branch: 'main', mergeHeadPath: join(repo, '.git', 'MERGE_HEAD') });
    expect(() => git(repo, 'merge', '-q', 'side')).toThrow();
    expect((await state())?.operation).toEqual({ kind: 'merge', pending: true });
    expect(gitOperation({ cwd: repo, env: process.env }, join(repo, '.git'))).toEqual((await state())?.operation);
    git(repo, 'merge', '--abort');
    expect(() => git(repo, 'rebase', '-q', 'side')).toThrow();
    expect((await state())?.operation).toMatchObject({ kind: 'rebase' });
    expect((await state())?.branch).toBeNull();
    git(repo, 'rebase', '--abort');
    expect((await state())?.operation).toBeNull();
    expect(worktreeState({ cwd: tempDir('memlint-norepo-'), env: process.env })).toBeNull();
  });
});
