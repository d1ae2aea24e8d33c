// memlint where and memlint link: argument errors and --help through the built CLI; the paths, the
// settings written and the reports in this process (cliInProcess: the same main(), the hermetic
// environment as the whole environment of the run).
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sanitizePath } from '../../src/claude/auto-memory.js';
import { appendIgnoreLine, withAutoMemoryDirectory } from '../../src/claude/link.js';
import { commitFiles, git, initRepo, tempDir, writeFiles } from '../helpers/repo.js';
import { cli, cliInProcess, hermetic } from './helpers.js';

function repoWithMemory(): string {
  const repo = initRepo();
  writeFiles(repo, {
    '.claude/memory/MEMORY.md': '- [Testing](feedback_testing.md) — run the whole suite\n',
    '.claude/memory/feedback_testing.md': '---\nname: testing\ndescription: how we test\ntype: feedback\n---\nRun it all.\n',
  });
  git(repo, 'add', '.');
  git(repo, 'commit', '-qm', 'memory');
  return repo;
}

describe('memlint where', () => {
  it('prints the default path, its source and that it lies outside the repository', async () => {
    const h = hermetic();
    const repo = repoWithMemory();
    const r = await cliInProcess(repo, ['where'], h);
    expect(r.code).toBe(0);
    const expected = path.join(h.configDir, 'projects', sanitizePath(repo), 'memory') + '/';
    expect(r.stdout.split('\n')[0]).toBe(expected);
    expect(r.stdout).toMatch(/source: +default/);
    expect(r.stdout).toMatch(/auto memory: +enabled \(default\)/);
    expect(r.stdout).toMatch(/outside this repository/);
  });

  it('--json has the documented shape', async () => {
    const h = hermetic();
    const repo = repoWithMemory();
    const r = await cliInProcess(repo, ['where', '--json'], h);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j).toMatchObject({
      resolved: path.join(h.configDir, 'projects', sanitizePath(repo), 'memory') + '/',
      source: 'default',
      autoMemoryEnabled: { value: true, source: 'default' },
      insideRepository: false,
      canonicalRoot: repo,
      canonicalRootKind: 'main',
      gitRoot: repo,
      slug: sanitizePath(repo),
      repository: { root: repo, path: null, committed: false, ignored: false },
    });
    expect(j.candidates).toEqual([
      { source: 'default', file: null, value: j.resolved, accepted: true, path: j.resolved, reason: null, rule: null },
    ]);
    expect(Array.isArray(j.notes)).toBe(true);
  });

  it('prints every rejected candidate with its reason', async () => {
    const h = hermetic({ CLAUDE_COWORK_MEMORY_PATH_OVERRIDE: 'relative/dir' });
    const repo = repoWithMemory();
    writeFiles(repo, { '.claude/settings.json': JSON.stringify({ autoMemoryDirectory: '~/.ssh' }) });
    writeFiles(h.configDir, { 'settings.json': JSON.stringify({ autoMemoryDirectory: '~/' }) });
    const r = await cliInProcess(repo, ['where'], h);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/rejected CLAUDE_COWORK_MEMORY_PATH_OVERRIDE "relative\/dir": not an absolute path/);
    expect(r.stdout).toMatch(/rejected userSettings \(.*settings\.json\) "~\/": expands to the home directory/);
    expect(r.stdout).toMatch(/ignored +projectSettings \(.*\.claude\/settings\.json\) "~\/\.ssh": project settings .* ignored/);
    expect(r.stdout).toMatch(/used +default/);
  });

  it('reports auto memory disabled by CLAUDE_CODE_DISABLE_AUTO_MEMORY and by settings', async () => {
    const h = hermetic({ CLAUDE_CODE_DISABLE_AUTO_MEMORY: '1' });
    const repo = repoWithMemory();
    expect((await cliInProcess(repo, ['where'], h)).stdout).toMatch(/auto memory: +DISABLED \(CLAUDE_CODE_DISABLE_AUTO_MEMORY\)/);
    const h2 = hermetic();
    writeFiles(h2.configDir, { 'settings.json': JSON.stringify({ autoMemoryEnabled: false }) });
    const j = JSON.parse((await cliInProcess(repo, ['where', '--json'], h2)).stdout);
    expect(j.autoMemoryEnabled).toMatchObject({ value: false, source: 'userSettings' });
  });

  it('from a linked worktree, the slug is the main repository root', async () => {
    const h = hermetic();
    const repo = repoWithMemory();
    const wt = path.join(tempDir(), 'feature');
    git(repo, 'worktree', 'add', '-q', wt);
    const j = JSON.parse((await cliInProcess(wt, ['where', '--json'], h)).stdout);
    expect(j).toMatchObject({ gitRoot: wt, canonicalRoot: repo, canonicalRootKind: 'linked-worktree', slug: sanitizePath(repo) });
    expect(j.resolved).toBe(path.join(h.configDir, 'projects', sanitizePath(repo), 'memory') + '/');
  });

  it('from a subfolder, notes where Claude Code reads local settings and where link writes them', async () => {
    const h = hermetic();
    const repo = repoWithMemory();
    mkdirSync(path.join(repo, 'src'));
    const r = await cliInProcess(path.join(repo, 'src'), ['where'], h);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Claude Code reads .claude/settings.local.json from the folder it starts in (${path.join(repo, 'src')}); "memlint link" writes it at the top of the worktree (${repo})`);
  });

  it("from a bare repository's worktree, the slug is the bare repository", async () => {
    const h = hermetic();
    const src = repoWithMemory();
    const bare = path.join(tempDir(), 'proj.git');
    git(src, 'clone', '-q', '--bare', src, bare);
    const wt = path.join(tempDir(), 'main');
    git(bare, 'worktree', 'add', '-q', wt);
    const j = JSON.parse((await cliInProcess(wt, ['where', '--json'], h)).stdout);
    expect(j).toMatchObject({ canonicalRoot: bare, canonicalRootKind: 'bare-worktree', slug: sanitizePath(bare) });
  });

  it('rejects arguments it does not take', () => {
    const h = hermetic();
    const r = cli(tempDir(), ['where', 'extra'], h);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^memlint: unexpected argument: extra/);
  });

  it('--help', () => {
    const r = cli(tempDir(), ['where', '--help'], hermetic());
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: memlint where/);
  });
});

describe('memlint link', () => {
  it('writes autoMemoryDirectory (absolute) into .claude/settings.local.json, keeps other keys, git-ignores it', async () => {
    const h = hermetic();
    const repo = repoWithMemory();
    writeFiles(repo, { '.claude/settings.local.json': '{\n    "permissions": {"allow": ["Bash(ls)"]},\n    "model": "opus"\n}\n' });
    const r = await cliInProcess(repo, ['link'], h);
    expect(r.code).toBe(0);
    const memdir = path.join(repo, '.claude', 'memory');
    const text = readFileSync(path.join(repo, '.claude', 'settings.local.json'), 'utf8');
    expect(text).toBe(`{\n  "permissions": {\n    "allow": [\n      "Bash(ls)"\n    ]\n  },\n  "model": "opus",\n  "autoMemoryDirectory": "${memdir}"\n}\n`);
    expect(readFileSync(path.join(repo, '.gitignore'), 'utf8')).toBe('.claude/settings.local.json\n');
    expect(r.stdout).toMatch(new RegExp(`Claude Code now resolves: ${memdir}/ \\(localSettings\\)`));
    const j = JSON.parse((await cliInProcess(repo, ['where', '--json'], h)).stdout);
    expect(j).toMatchObject({ resolved: memdir + '/', source: 'localSettings', insideRepository: true, repository: { path: '.claude/memory', committed: true, ignored: false } });
  });

  it('is idempotent and keeps an existing .gitignore rule', async () => {
    const h = hermetic();
    const repo = repoWithMemory();
    writeFiles(repo, { '.gitignore': 'node_modules/\n*.local.json\n' });
    expect((await cliInProcess(repo, ['link'], h)).code).toBe(0);
    const first = readFileSync(path.join(repo, '.claude', 'settings.local.json'), 'utf8');
    const r = await cliInProcess(repo, ['link'], h);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/already is/);
    expect(readFileSync(path.join(repo, '.claude', 'settings.local.json'), 'utf8')).toBe(first);
    expect(readFileSync(path.join(repo, '.gitignore'), 'utf8')).toBe('node_modules/\n*.local.json\n');
  });

  it('--unlink removes only the key it set', async () => {
    const h = hermetic();
    const repo = repoWithMemory();
    writeFiles(repo, { '.claude/settings.local.json': '{"model": "opus"}' });
    expect((await cliInProcess(repo, ['link'], h)).code).toBe(0);
    const r = await cliInProcess(repo, ['link', '--unlink'], h);
    expect(r.code).toBe(0);
    expect(readFileSync(path.join(repo, '.claude', 'settings.local.json'), 'utf8')).toBe('{\n  "model": "opus"\n}\n');
    expect(r.stdout).toMatch(/now resolves: .*\(default\)/);
  });

  it('--unlink leaves alone a value pointing outside the repository', async () => {
    const h = hermetic();
    const repo = repoWithMemory();
    writeFiles(repo, { '.claude/settings.local.json': '{"autoMemoryDirectory": "/srv/elsewhere"}' });
    const r = await cliInProcess(repo, ['link', '--unlink'], h);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/does not point into this repository/);
    expect(readFileSync(path.join(repo, '.claude', 'settings.local.json'), 'utf8')).toBe('{"autoMemoryDirectory": "/srv/elsewhere"}');
  });

  it('--memdir picks another folder; a target Claude Code would reject is refused', async () => {
    const h = hermetic();
    const repo = repoWithMemory();
    mkdirSync(path.join(repo, 'team-memory'));
    expect((await cliInProcess(repo, ['link', '--memdir', 'team-memory'], h)).code).toBe(0);
    expect(JSON.parse(readFileSync(path.join(repo, '.claude', 'settings.local.json'), 'utf8')).autoMemoryDirectory).toBe(path.join(repo, 'team-memory'));
    const bad = await cliInProcess(repo, ['link', '--memdir', '/'], h);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/Claude Code would reject \/: the filesystem root/);
    const outside = await cliInProcess(repo, ['link', '--memdir', tempDir()], h);
    expect(outside.code).toBe(2);
    expect(outside.stderr).toMatch(/outside this repository/);
    expect(JSON.parse(readFileSync(path.join(repo, '.claude', 'settings.local.json'), 'utf8')).autoMemoryDirectory).toBe(path.join(repo, 'team-memory'));
  });

  it('refuses a --memdir that names no folder: exit 2, one line, nothing written', async () => {
    const h = hermetic();
    const repo = repoWithMemory();
    writeFileSync(path.join(repo, 'notes.md'), '# notes\n');
    for (const [arg, why] of [['nowhere', 'no such folder'], ['notes.md', 'not a folder']]) {
      const r = await cliInProcess(repo, ['link', '--memdir', arg], h);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`memlint: --memdir ${arg}: ${why} (${path.join(repo, arg)}); create it first, or leave --memdir out for .claude/memory\n`);
      expect(r.stdout).toBe('');
    }
    expect(existsSync(path.join(repo, '.claude', 'settings.local.json'))).toBe(false);
    expect(existsSync(path.join(repo, 'nowhere'))).toBe(false);
  });

  it('refuses a memdir that is a symlink out of the repository', async () => {
    const h = hermetic();
    const repo = repoWithMemory();
    symlinkSync(tempDir(), path.join(repo, 'outside'));
    const r = await cliInProcess(repo, ['link', '--memdir', 'outside'], h);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/symlink out of the repository/);
    expect(existsSync(path.join(repo, '.claude', 'settings.local.json'))).toBe(false);
  });

  it('refuses a settings file that is not valid JSON, changing nothing', async () => {
    const h = hermetic();
    const repo = repoWithMemory();
    writeFiles(repo, { '.claude/settings.local.json': '{ broken' });
    const r = await cliInProcess(repo, ['link'], h);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/not valid JSON/);
    expect(readFileSync(path.join(repo, '.claude', 'settings.local.json'), 'utf8')).toBe('{ broken');
  });

  it('exits 1 when a higher-priority source still wins', async () => {
    const h = hermetic({ CLAUDE_COWORK_MEMORY_PATH_OVERRIDE: '/srv/cowork' });
    const repo = repoWithMemory();
    const r = await cliInProcess(repo, ['link'], h);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/CLAUDE_COWORK_MEMORY_PATH_OVERRIDE takes precedence/);
  });

  it('exits 1 when the local settings file is committed', async () => {
    const h = hermetic();
    const repo = repoWithMemory();
    commitFiles(repo, { '.claude/settings.local.json': '{}' }, 'oops');
    const r = await cliInProcess(repo, ['link'], h);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/is committed/);
  });

  it('in a linked worktree, links that worktree to its own memory folder', async () => {
    const h = hermetic();
    const repo = repoWithMemory();
    const wt = path.join(tempDir(), 'feature');
    git(repo, 'worktree', 'add', '-q', wt);
    const r = await cliInProcess(wt, ['link'], h);
    expect(r.code).toBe(0);
    const j = JSON.parse((await cliInProcess(wt, ['where', '--json'], h)).stdout);
    expect(j).toMatchObject({ resolved: path.join(wt, '.claude', 'memory') + '/', source: 'localSettings', insideRepository: true });
    expect(existsSync(path.join(repo, '.claude', 'settings.local.json'))).toBe(false);
  });

  it('--dry-run changes nothing', async () => {
    const h = hermetic();
    const repo = repoWithMemory();
    const r = await cliInProcess(repo, ['link', '--dry-run'], h);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/would set autoMemoryDirectory/);
    expect(existsSync(path.join(repo, '.claude', 'settings.local.json'))).toBe(false);
    expect(existsSync(path.join(repo, '.gitignore'))).toBe(false);
  });

  it('pure helpers: key order kept, CRLF .gitignore kept', () => {
    expect(withAutoMemoryDirectory({ a: 1, autoMemoryDirectory: '/old', b: 2 }, '/new')).toBe('{\n  "a": 1,\n  "autoMemoryDirectory": "/new",\n  "b": 2\n}\n');
    expect(appendIgnoreLine('x\r\ny', 'z')).toBe('x\r\ny\r\nz\r\n');
    expect(appendIgnoreLine('', 'z')).toBe('z\n');
  });
});

describe('where after a repository moved behind a symlink', () => {
  it('uses the real path for the slug, as Claude Code does', async () => {
    const h = hermetic();
    const repo = repoWithMemory();
    const alias = path.join(tempDir(), 'alias');
    symlinkSync(repo, alias);
    writeFileSync(path.join(repo, 'x'), '');
    const j = JSON.parse((await cliInProcess(alias, ['where', '--json'], h)).stdout);
    expect(j.projectRoot).toBe(repo);
    expect(j.slug).toBe(sanitizePath(repo));
  });
});
