import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  autoMemoryEnabled,
  djb2Hash,
  findGitRoot,
  managedSettingsDir,
  parseSettingsJson,
  resolveAutoMemoryPath,
  resolveCanonicalRoot,
  sanitizePath,
  validateMemoryPath,
  type SettingsFile,
} from '../../src/claude/auto-memory.js';
import { commitFiles, git, initRepo, tempDir } from '../helpers/repo.js';

/** djb2 as Claude Code computes it under Node, written independently: seed 0, h*31 + unit, int32. */
function referenceHash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return h;
}

describe('sanitizePath (the project slug)', () => {
  it.each([
    ['/Users/me/proj', '-Users-me-proj'],
    ['/Users/me/proj/.worktrees/x', '-Users-me-proj--worktrees-x'],
    ['/home/a_b/my project', '-home-a-b-my-project'],
    ['C:\\Users\\x', 'C--Users-x'],
    ['/tmp/café', '-tmp-caf-'],
    ['/tmp/😀', '-tmp---'], // one '-' per UTF-16 unit of the surrogate pair
    ['/a//b', '-a--b'], // nothing collapsed
  ])('%s -> %s', (input, slug) => {
    expect(sanitizePath(input)).toBe(slug);
  });

  it('keeps a 200-character slug as it is', () => {
    const input = '/' + 'a'.repeat(199);
    expect(sanitizePath(input)).toBe('-' + 'a'.repeat(199));
  });

  it('cuts a longer slug at 200 and appends the base-36 djb2 of the whole path', () => {
    const input = '/very/long/' + 'segment-name/'.repeat(20);
    const slug = sanitizePath(input);
    const expected = input.replace(/[^a-zA-Z0-9]/g, '-').slice(0, 200) + '-' + Math.abs(referenceHash(input)).toString(36);
    expect(slug).toBe(expected);
    expect(slug.length).toBeGreaterThan(201);
  });

  it.each([
    ['', 0],
    ['a', 97],
    ['ab', 97 * 31 + 98],
    ['/Users/someone/a/deeply/nested/project/path', referenceHash('/Users/someone/a/deeply/nested/project/path')],
  ])('djb2Hash(%j) = %d (signed 32-bit, seed 0)', (input, hash) => {
    expect(djb2Hash(input)).toBe(hash);
  });

  it('djb2Hash wraps to a signed 32-bit integer', () => {
    const h = djb2Hash('x'.repeat(1000));
    expect(h).toBe(referenceHash('x'.repeat(1000)));
    expect(h | 0).toBe(h);
  });
});

describe('validateMemoryPath: every rule', () => {
  const posix = { home: '/home/u', path: path.posix };
  const win = { home: 'C:\\Users\\u', path: path.win32 };
  it.each([
    // [raw, expandTilde, expected path or rule]
    ['/srv/memory', true, '/srv/memory/'],
    ['/srv/memory///', true, '/srv/memory/'],
    ['/srv/./a/../memory', false, '/srv/memory/'],
    ['~/notes/memory', true, '/home/u/notes/memory/'],
    ['~\\notes', true, '/home/u/notes/'],
    ['~/../shared/mem', true, '/home/shared/mem/'], // only "." and ".." themselves are refused
    ['', true, 'empty'],
    ['~/', true, 'home-or-above'],
    ['~/.', true, 'home-or-above'],
    ['~/..', true, 'home-or-above'],
    ['~/foo/..', true, 'home-or-above'],
    ['~', true, 'not-absolute'], // a bare ~ is not expanded
    ['~/x', false, 'not-absolute'], // the override variable never expands ~
    ['relative/dir', true, 'not-absolute'],
    ['./memory', true, 'not-absolute'],
    ['/', true, 'root'],
    ['/a', true, 'too-short'],
    ['/ab', true, '/ab/'],
    ['/a\0b', true, 'nul'],
    ['//srv/share', true, '/srv/share/'], // POSIX normalize() collapses the leading //
  ] as const)('posix %j (expandTilde=%s) -> %s', (raw, expand, expected) => {
    const r = validateMemoryPath(raw, expand, posix);
    if (expected.startsWith('/')) expect(r).toEqual({ ok: true, path: expected });
    else expect(r).toMatchObject({ ok: false, rule: expected });
  });

  it.each([
    ['C:\\Users\\u\\memory', true, 'C:\\Users\\u\\memory\\'],
    ['C:\\', true, 'drive-root'],
    ['C:', true, 'not-absolute'], // normalize('C:') is the drive-relative 'C:.'
    ['\\\\server\\share\\mem', true, 'unc'],
    ['//server/share/mem', true, 'unc'], // win32 normalize() turns // into \\
    ['~\\mem', true, 'C:\\Users\\u\\mem\\'],
    ['mem', true, 'not-absolute'],
  ] as const)('win32 %j (expandTilde=%s) -> %s', (raw, expand, expected) => {
    const r = validateMemoryPath(raw, expand, win);
    if (expected.includes('\\')) expect(r).toEqual({ ok: true, path: expected });
    else expect(r).toMatchObject({ ok: false, rule: expected });
  });

  it('normalizes to NFC', () => {
    const decomposed = '/srv/cafe\u0301';
    expect(validateMemoryPath(decomposed, false, posix)).toEqual({ ok: true, path: '/srv/caf\u00e9/' });
  });

  it('gives a one-line reason for every rejection', () => {
    const r = validateMemoryPath('rel', true, posix);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/not an absolute path/);
  });
});

describe('canonical git root (real repositories)', () => {
  it('a main working tree is its own root; a subfolder finds it', () => {
    const repo = initRepo();
    mkdirSync(path.join(repo, 'src', 'deep'), { recursive: true });
    expect(findGitRoot(path.join(repo, 'src', 'deep'))).toBe(repo);
    expect(resolveCanonicalRoot(repo)).toMatchObject({ root: repo, kind: 'main' });
  });

  it('a linked worktree resolves to the main repository', () => {
    const repo = initRepo();
    commitFiles(repo, { 'a.txt': 'a\n' }, 'init');
    const wt = path.join(tempDir(), 'wt');
    git(repo, 'worktree', 'add', '-q', wt);
    expect(findGitRoot(wt)).toBe(wt);
    expect(resolveCanonicalRoot(wt)).toMatchObject({ root: repo, kind: 'linked-worktree' });
  });

  it("a bare repository's worktree resolves to the common dir itself", () => {
    const src = initRepo();
    commitFiles(src, { 'a.txt': 'a\n' }, 'init');
    const bare = path.join(tempDir(), 'project.git');
    git(src, 'clone', '-q', '--bare', src, bare);
    const wt = path.join(tempDir(), 'wt');
    git(bare, 'worktree', 'add', '-q', wt);
    expect(resolveCanonicalRoot(wt)).toMatchObject({ root: bare, kind: 'bare-worktree' });
  });

  it('a .git file without commondir (a submodule) keeps its own root', () => {
    const dir = tempDir();
    const gitdir = path.join(dir, 'modules', 'sub');
    mkdirSync(gitdir, { recursive: true });
    const work = path.join(dir, 'sub');
    mkdirSync(work);
    writeFileSync(path.join(work, '.git'), `gitdir: ${gitdir}\n`);
    expect(resolveCanonicalRoot(work)).toMatchObject({ root: work, kind: 'own-root' });
  });

  it('a .git file that is not "gitdir:" keeps its own root', () => {
    const work = tempDir();
    writeFileSync(path.join(work, '.git'), 'something else\n');
    expect(resolveCanonicalRoot(work)).toMatchObject({ root: work, kind: 'own-root' });
  });

  it('safety check 1: a worktree git dir outside <common>/worktrees/ is not trusted', () => {
    const victim = initRepo();
    const attacker = tempDir();
    const fake = path.join(attacker, 'fakegit');
    mkdirSync(fake);
    writeFileSync(path.join(fake, 'commondir'), `${path.join(victim, '.git')}\n`);
    writeFileSync(path.join(fake, 'gitdir'), `${path.join(attacker, '.git')}\n`);
    writeFileSync(path.join(attacker, '.git'), `gitdir: ${fake}\n`);
    const r = resolveCanonicalRoot(attacker);
    expect(r).toMatchObject({ root: attacker, kind: 'own-root' });
    expect(r.reason).toMatch(/safety check failed/);
  });

  it("safety check 2: borrowing another worktree's entry (gitdir not pointing back) is not trusted", () => {
    const repo = initRepo();
    commitFiles(repo, { 'a.txt': 'a\n' }, 'init');
    const wt = path.join(tempDir(), 'wt');
    git(repo, 'worktree', 'add', '-q', wt);
    const intruder = tempDir();
    writeFileSync(path.join(intruder, '.git'), `gitdir: ${path.join(repo, '.git', 'worktrees', 'wt')}\n`);
    const r = resolveCanonicalRoot(intruder);
    expect(r).toMatchObject({ root: intruder, kind: 'own-root' });
    expect(r.reason).toMatch(/does not point back/);
  });

  it('a worktree reached through a symlinked path still resolves (realpath on the back-link)', () => {
    const repo = initRepo();
    commitFiles(repo, { 'a.txt': 'a\n' }, 'init');
    const base = tempDir();
    const wt = path.join(base, 'wt');
    git(repo, 'worktree', 'add', '-q', wt);
    const alias = path.join(tempDir(), 'alias');
    symlinkSync(base, alias);
    expect(resolveCanonicalRoot(path.join(alias, 'wt'))).toMatchObject({ root: repo, kind: 'linked-worktree' });
  });
});

function settingsFile(source: SettingsFile['source'], data: Record<string, unknown>): SettingsFile {
  return { source, file: `/x/${source}.json`, exists: true, data, error: null };
}

describe('autoMemoryEnabled: first matching rule wins', () => {
  it.each([
    [{}, [], true, 'default'],
    [{ CLAUDE_CODE_DISABLE_AUTO_MEMORY: '1' }, [], false, 'CLAUDE_CODE_DISABLE_AUTO_MEMORY'],
    [{ CLAUDE_CODE_DISABLE_AUTO_MEMORY: 'TRUE' }, [], false, 'CLAUDE_CODE_DISABLE_AUTO_MEMORY'],
    [{ CLAUDE_CODE_DISABLE_AUTO_MEMORY: 'off' }, [settingsFile('userSettings', { autoMemoryEnabled: false })], true, 'CLAUDE_CODE_DISABLE_AUTO_MEMORY'],
    [{ CLAUDE_CODE_DISABLE_AUTO_MEMORY: 'maybe' }, [], true, 'default'],
    [{ CLAUDE_CODE_SIMPLE: 'yes' }, [], false, 'CLAUDE_CODE_SIMPLE'],
    [{ CLAUDE_CODE_REMOTE: '1' }, [], false, 'CLAUDE_CODE_REMOTE (without CLAUDE_CODE_REMOTE_MEMORY_DIR)'],
    [{ CLAUDE_CODE_REMOTE: '1', CLAUDE_CODE_REMOTE_MEMORY_DIR: '/mnt/mem' }, [], true, 'default'],
    [{}, [settingsFile('projectSettings', { autoMemoryEnabled: false })], false, 'projectSettings'],
    [{}, [settingsFile('userSettings', { autoMemoryEnabled: false }), settingsFile('localSettings', { autoMemoryEnabled: true })], true, 'localSettings'],
    [{}, [settingsFile('localSettings', { autoMemoryEnabled: true }), settingsFile('policySettings', { autoMemoryEnabled: false })], false, 'policySettings'],
  ] as const)('%j + settings -> %s (%s)', (env, settings, value, source) => {
    expect(autoMemoryEnabled(env, [...settings])).toMatchObject({ value, source });
  });
});

describe('resolveAutoMemoryPath: order and candidates', () => {
  function layout() {
    const home = tempDir('memlint-home-');
    const configDir = path.join(home, '.claude');
    const managed = path.join(tempDir(), 'managed');
    mkdirSync(configDir, { recursive: true });
    mkdirSync(managed, { recursive: true });
    const repo = initRepo();
    return { home, configDir, managed, repo };
  }
  const setJson = (file: string, data: unknown) => {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(data));
  };

  it('defaults to <CLAUDE_CONFIG_DIR>/projects/<slug>/memory/', () => {
    const { home, configDir, managed, repo } = layout();
    const r = resolveAutoMemoryPath({ cwd: repo, env: { CLAUDE_CONFIG_DIR: configDir }, home, managedDir: managed });
    expect(r.source).toBe('default');
    expect(r.resolved).toBe(path.join(configDir, 'projects', sanitizePath(repo), 'memory') + '/');
    expect(r.slug).toBe(repo.replace(/[^a-zA-Z0-9]/g, '-'));
  });

  it('without CLAUDE_CONFIG_DIR uses ~/.claude; CLAUDE_CODE_REMOTE_MEMORY_DIR takes precedence for memory', () => {
    const { home, managed, repo } = layout();
    expect(resolveAutoMemoryPath({ cwd: repo, env: {}, home, managedDir: managed }).resolved).toBe(path.join(home, '.claude', 'projects', sanitizePath(repo), 'memory') + '/');
    const remote = tempDir();
    expect(resolveAutoMemoryPath({ cwd: repo, env: { CLAUDE_CODE_REMOTE_MEMORY_DIR: remote }, home, managedDir: managed }).resolved).toBe(
      path.join(remote, 'projects', sanitizePath(repo), 'memory') + '/',
    );
  });

  it('from a subfolder of a linked worktree the slug is the main repository root', () => {
    const { home, configDir, managed, repo } = layout();
    commitFiles(repo, { 'a.txt': 'a\n' }, 'init');
    const wt = path.join(tempDir(), 'wt');
    git(repo, 'worktree', 'add', '-q', wt);
    mkdirSync(path.join(wt, 'sub'));
    const r = resolveAutoMemoryPath({ cwd: path.join(wt, 'sub'), env: { CLAUDE_CONFIG_DIR: configDir }, home, managedDir: managed });
    expect(r.gitRoot).toBe(wt);
    expect(r.canonicalRoot).toBe(repo);
    expect(r.slug).toBe(sanitizePath(repo));
  });

  it('the override variable wins; an invalid override falls through to the settings', () => {
    const { home, configDir, managed, repo } = layout();
    setJson(path.join(configDir, 'settings.json'), { autoMemoryDirectory: '~/mem' });
    const ok = resolveAutoMemoryPath({ cwd: repo, env: { CLAUDE_CONFIG_DIR: configDir, CLAUDE_COWORK_MEMORY_PATH_OVERRIDE: '/srv/cowork' }, home, managedDir: managed });
    expect(ok).toMatchObject({ resolved: '/srv/cowork/', source: 'CLAUDE_COWORK_MEMORY_PATH_OVERRIDE' });
    expect(ok.candidates.find((c) => c.source === 'userSettings')).toMatchObject({ accepted: false, rule: 'not-reached' });
    const bad = resolveAutoMemoryPath({ cwd: repo, env: { CLAUDE_CONFIG_DIR: configDir, CLAUDE_COWORK_MEMORY_PATH_OVERRIDE: '~/cowork' }, home, managedDir: managed });
    expect(bad).toMatchObject({ resolved: path.join(home, 'mem') + '/', source: 'userSettings' });
    expect(bad.candidates[0]).toMatchObject({ source: 'CLAUDE_COWORK_MEMORY_PATH_OVERRIDE', accepted: false, rule: 'not-absolute' });
  });

  it('policy (managed-settings.json, then drop-ins in name order) beats local beats user', () => {
    const { home, configDir, managed, repo } = layout();
    setJson(path.join(configDir, 'settings.json'), { autoMemoryDirectory: '/srv/user' });
    setJson(path.join(repo, '.claude', 'settings.local.json'), { autoMemoryDirectory: '/srv/local' });
    const env = { CLAUDE_CONFIG_DIR: configDir };
    expect(resolveAutoMemoryPath({ cwd: repo, env, home, managedDir: managed })).toMatchObject({ resolved: '/srv/local/', source: 'localSettings' });
    setJson(path.join(managed, 'managed-settings.json'), { autoMemoryDirectory: '/srv/policy' });
    setJson(path.join(managed, 'managed-settings.d', '20-b.json'), { autoMemoryDirectory: '/srv/dropin-b' });
    setJson(path.join(managed, 'managed-settings.d', '10-a.json'), { autoMemoryDirectory: '/srv/dropin-a' });
    setJson(path.join(managed, 'managed-settings.d', '.hidden.json'), { autoMemoryDirectory: '/srv/hidden' });
    const r = resolveAutoMemoryPath({ cwd: repo, env, home, managedDir: managed });
    expect(r).toMatchObject({ resolved: '/srv/dropin-b/', source: 'policySettings' });
    expect(r.candidates.map((c) => [c.source, c.rule])).toEqual([
      ['policySettings', null],
      ['localSettings', 'not-reached'],
      ['userSettings', 'not-reached'],
      ['default', 'not-reached'],
    ]);
  });

  it('in Cowork mode user settings come from cowork_settings.json', () => {
    const { home, configDir, managed, repo } = layout();
    setJson(path.join(configDir, 'settings.json'), { autoMemoryDirectory: '/srv/user' });
    setJson(path.join(configDir, 'cowork_settings.json'), { autoMemoryDirectory: '/srv/cowork-user' });
    const r = resolveAutoMemoryPath({ cwd: repo, env: { CLAUDE_CONFIG_DIR: configDir, CLAUDE_CODE_USE_COWORK_PLUGINS: '1' }, home, managedDir: managed });
    expect(r).toMatchObject({ resolved: '/srv/cowork-user/', source: 'userSettings' });
  });

  it('an invalid first setting falls back to the default, never to the next source', () => {
    const { home, configDir, managed, repo } = layout();
    setJson(path.join(configDir, 'settings.json'), { autoMemoryDirectory: '/srv/user' });
    setJson(path.join(repo, '.claude', 'settings.local.json'), { autoMemoryDirectory: '~/' });
    const r = resolveAutoMemoryPath({ cwd: repo, env: { CLAUDE_CONFIG_DIR: configDir }, home, managedDir: managed });
    expect(r.source).toBe('default');
    expect(r.candidates.map((c) => [c.source, c.accepted, c.rule])).toEqual([
      ['localSettings', false, 'home-or-above'],
      ['userSettings', false, 'shadowed'],
      ['default', true, null],
    ]);
  });

  it('an empty string stops the chain too (it is set, then rejected)', () => {
    const { home, configDir, managed, repo } = layout();
    setJson(path.join(configDir, 'settings.json'), { autoMemoryDirectory: '/srv/user' });
    setJson(path.join(repo, '.claude', 'settings.local.json'), { autoMemoryDirectory: '' });
    const r = resolveAutoMemoryPath({ cwd: repo, env: { CLAUDE_CONFIG_DIR: configDir }, home, managedDir: managed });
    expect(r.source).toBe('default');
    expect(r.candidates[0]).toMatchObject({ source: 'localSettings', rule: 'empty' });
  });

  it('project settings are reported as ignored, never used', () => {
    const { home, configDir, managed, repo } = layout();
    setJson(path.join(repo, '.claude', 'settings.json'), { autoMemoryDirectory: '~/.ssh' });
    const r = resolveAutoMemoryPath({ cwd: repo, env: { CLAUDE_CONFIG_DIR: configDir }, home, managedDir: managed });
    expect(r.source).toBe('default');
    const project = r.candidates.find((c) => c.source === 'projectSettings');
    expect(project).toMatchObject({ accepted: false, rule: 'project-settings', value: '~/.ssh' });
    expect(project!.reason).toMatch(/ignored/);
    expect(project!.reason).toMatch(/trusted/);
  });

  it('a settings file with a wrong value type or broken JSON is ignored as a whole, with a note', () => {
    const { home, configDir, managed, repo } = layout();
    mkdirSync(path.join(repo, '.claude'), { recursive: true });
    writeFileSync(path.join(repo, '.claude', 'settings.local.json'), '{ "autoMemoryDirectory": 42 }');
    writeFileSync(path.join(configDir, 'settings.json'), '{ not json');
    const r = resolveAutoMemoryPath({ cwd: repo, env: { CLAUDE_CONFIG_DIR: configDir }, home, managedDir: managed });
    expect(r.source).toBe('default');
    expect(r.notes.join('\n')).toMatch(/settings\.local\.json: autoMemoryDirectory is not a string/);
    expect(r.notes.join('\n')).toMatch(/settings\.json: not valid JSON/);
  });

  it('outside a git repository the project root itself is the slug source', () => {
    const { home, configDir, managed } = layout();
    const plain = tempDir();
    const r = resolveAutoMemoryPath({ cwd: plain, env: { CLAUDE_CONFIG_DIR: configDir }, home, managedDir: managed });
    expect(r.gitRoot).toBeNull();
    expect(r.canonicalRootKind).toBe('no-git');
    expect(r.slug).toBe(sanitizePath(realpathSync(plain)));
  });

  it('names the managed settings folder of each platform', () => {
    expect(managedSettingsDir('linux')).toBe('/etc/claude-code');
    expect(managedSettingsDir('darwin')).toBe('/Library/Application Support/ClaudeCode');
    expect(managedSettingsDir('win32')).toBe('C:\\Program Files\\ClaudeCode');
  });
});

describe('parseSettingsJson (read by where, link and install alike)', () => {
  it('takes an empty file and a byte order mark, and says what is wrong with anything but an object', () => {
    expect(parseSettingsJson('')).toEqual({ data: {} });
    expect(parseSettingsJson('\uFEFF  \n')).toEqual({ data: {} });
    expect(parseSettingsJson('\uFEFF{"autoMemoryEnabled": false}')).toEqual({ data: { autoMemoryEnabled: false } });
    expect(parseSettingsJson('[1]')).toEqual({ problem: 'not a JSON object' });
    expect(parseSettingsJson('null')).toEqual({ problem: 'not a JSON object' });
    const bad = parseSettingsJson('{"a": ');
    expect('problem' in bad && bad.problem).toMatch(/^not valid JSON at line 1, column 7 \(.+\)$/);
    // The place an editor shows: line and column, not V8's offset, on every Node.
    const comma = parseSettingsJson('\uFEFF{\n  "hooks": {\n    "x": 1,\n  }\n}\n');
    expect('problem' in comma && comma.problem).toMatch(/^not valid JSON at line 4, column 3 \([^)]*property name\)$/);
  });
});
