// The parsers and readers of src/git that several callers share: each against the real git output
// it parses (temporary repositories, the git CLI).
import { readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configValue, configValueAsync, localConfigReader, setLocalConfig } from '../../src/git/config.js';
import { dirtyPaths } from '../../src/git/commits.js';
import { attributeValues, ignoredPaths, lastCommitTimesUnder, readBlobs, uncommittedPaths } from '../../src/git/index.js';
import { uncommittedTracked } from '../../src/git/branch.js';
import { parseCheckAttr, parseLogRecords, parseStatusPaths } from '../../src/git/parse.js';
import { commitFiles, git, initRepo, tempDir, writeFiles } from '../helpers/repo.js';

describe('git config: one reader, sync and async alike', () => {
  it('reads a value as git resolves it, --local only when asked, null when unset; empty values stay empty', async () => {
    const repo = initRepo(tempDir('memlint-config-'));
    setLocalConfig(repo, 'memlint.test', 'a value with spaces');
    setLocalConfig(repo, 'memlint.empty', '');
    expect(configValue(repo, 'memlint.test')).toBe('a value with spaces');
    expect(configValue(repo, 'memlint.test', { local: true })).toBe('a value with spaces');
    expect(await configValueAsync(repo, 'memlint.test')).toBe('a value with spaces');
    expect(configValue(repo, 'memlint.empty')).toBe('');
    expect(await configValueAsync(repo, 'memlint.empty')).toBe('');
    expect(configValue(repo, 'memlint.unset')).toBeNull();
    expect(await configValueAsync(repo, 'memlint.unset')).toBeNull();
    // `-c` (GIT_CONFIG_PARAMETERS) counts for the resolved value, not for --local.
    process.env.GIT_CONFIG_PARAMETERS = "'memlint.fromcommand'='yes'";
    try {
      expect(configValue(repo, 'memlint.fromcommand')).toBe('yes');
      expect(configValue(repo, 'memlint.fromcommand', { local: true })).toBeNull();
    } finally {
      delete process.env.GIT_CONFIG_PARAMETERS;
    }
    setLocalConfig(repo, 'memlint.test', null);
    expect(configValue(repo, 'memlint.test')).toBeNull();
    setLocalConfig(repo, 'memlint.test', null); // unsetting what is unset is no failure
  });

  it('answers null outside a repository for local config, as for a key that is unset', () => {
    expect(configValue(tempDir('memlint-norepo-'), 'memlint.anything', { local: true })).toBeNull();
    expect(localConfigReader(tempDir('memlint-norepo-'))('memlint.anything')).toBeNull();
  });

  it('reads the local config at once as configValue reads each key of it: case, subsections, empty, multi-line and repeated values', () => {
    const repo = initRepo(tempDir('memlint-config-'));
    setLocalConfig(repo, 'core.hooksPath', '.husky/_');
    setLocalConfig(repo, 'merge.Memlint-Ours.driver', 'memlint merge %O %A %B %L %P');
    setLocalConfig(repo, 'memlint.empty', '');
    setLocalConfig(repo, 'memlint.lines', 'one\ntwo');
    git(repo, 'config', '--local', '--add', 'memlint.many', 'first');
    git(repo, 'config', '--local', '--add', 'memlint.many', 'last');
    const read = localConfigReader(repo);
    for (const key of ['core.hooksPath', 'CORE.HOOKSPATH', 'merge.Memlint-Ours.driver', 'merge.memlint-ours.driver', 'memlint.empty', 'memlint.lines', 'memlint.many', 'memlint.unset', 'user.name']) {
      expect(read(key), key).toBe(configValue(repo, key, { local: true }));
    }
    expect(read('memlint.many')).toBe('last');
    expect(read('merge.memlint-ours.driver')).toBeNull();
  });
});

describe('git status, one parser for its three readers', () => {
  it('lists staged, unstaged and untracked paths; a rename as the two paths it touches', async () => {
    const repo = initRepo(tempDir('memlint-status-'));
    commitFiles(repo, { 'm/a.md': 'a\n', 'm/b b.md': 'b\n', 'm/c.md': 'c\n' });
    writeFiles(repo, { 'm/a.md': 'changed\n', 'm/new.md': 'new\n' });
    renameSync(join(repo, 'm/c.md'), join(repo, 'm/d.md'));
    git(repo, 'add', '-A', 'm/c.md', 'm/d.md');
    const out = git(repo, 'status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames');
    expect(parseStatusPaths(out).sort()).toEqual(['m/a.md', 'm/c.md', 'm/d.md', 'm/new.md']);
    expect([...uncommittedPaths(repo, ['m'])].sort()).toEqual(['m/a.md', 'm/c.md', 'm/d.md', 'm/new.md']);
    expect(dirtyPaths(repo, ['m']).sort()).toEqual(['m/a.md', 'm/c.md', 'm/d.md', 'm/new.md']);
    expect((await uncommittedTracked(repo)).sort()).toEqual(['m/a.md', 'm/c.md', 'm/d.md']);
  });
});

describe('git check-attr and check-ignore', () => {
  it('gives each path its attribute value, odd names included', () => {
    const repo = initRepo(tempDir('memlint-attr-'));
    writeFiles(repo, { '.gitattributes': 'm/** merge=memlint\n*.txt merge=unset-me -merge\n', '.gitignore': 'm/.consolidate-lock\n' });
    const paths = ['m/MEMORY.md', 'm/a "quoted" b.md', 'x.txt', 'other.md'];
    const values = attributeValues(repo, 'merge', paths);
    expect(values).toEqual(new Map([['m/MEMORY.md', 'memlint'], ['m/a "quoted" b.md', 'memlint'], ['x.txt', 'unset'], ['other.md', 'unspecified']]));
    expect(parseCheckAttr(git(repo, 'check-attr', '-z', 'merge', '--', 'm/MEMORY.md'))).toEqual(new Map([['m/MEMORY.md', 'memlint']]));
    expect(ignoredPaths(repo, ['m/.consolidate-lock', 'm/MEMORY.md'], { noIndex: true })).toEqual(new Set(['m/.consolidate-lock']));
  });
});

describe('git cat-file --batch', () => {
  it('reads blobs by any name, a path with a line break in it too; a missing one is null', () => {
    const repo = initRepo(tempDir('memlint-blobs-'));
    commitFiles(repo, { 'm/a.md': 'A at HEAD\n', 'm/x\ny.md': 'XY at HEAD\n', 'm/b.md': 'B at HEAD\n' });
    writeFiles(repo, { 'm/x\ny.md': 'XY staged\n' });
    git(repo, 'add', '-A');
    const specs = ['HEAD:m/a.md', 'HEAD:m/x\ny.md', ':m/x\ny.md', 'HEAD:m/b.md', 'HEAD:m/gone\nname.md', 'HEAD:m/gone.md', ':m/b.md'];
    const blobs = readBlobs(repo, specs);
    expect(specs.map((s) => blobs.get(s)?.toString('utf8') ?? null)).toEqual(['A at HEAD\n', 'XY at HEAD\n', 'XY staged\n', 'B at HEAD\n', null, null, 'B at HEAD\n']);
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
    const times = lastCommitTimesUnder(repo, ['m']);
    expect(Object.fromEntries(times)).toEqual({ 'm/a.md': 1_000_000_100, 'm/b.md': 1_000_000_300, 'm/c d.md': 1_000_000_000, 'm/x\ny.md': 1_000_000_200 });
    expect(parseLogRecords(git(repo, 'log', '--format=%x01%ct %s', '--name-only', '-c', '-z', '--no-renames', '--', 'm'))).toEqual([
      { fields: "1000000300 Merge branch 'side'", paths: ['m/b.md'] },
      { fields: '1000000200 main', paths: ['m/b.md', 'm/x\ny.md'] },
      { fields: '1000000100 side', paths: ['m/a.md', 'm/b.md'] },
      { fields: '1000000000 one', paths: ['m/a.md', 'm/b.md', 'm/c d.md', 'm/x\ny.md'] },
    ]);
  });
});
