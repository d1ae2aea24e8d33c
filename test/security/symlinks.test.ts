// A repository may hold a symlink at any level of a path memlint writes (README "Security"): the memdir,
// a parent folder, MEMORY.md, a topic, .consolidate-lock, the archive, the snapshots folder, and
// .gitignore, .gitattributes, settings.local.json or a hook file. Every writing command is run
// against each, and a sentinel folder outside the repository (the links' target) must come out
// exactly as it went in: contents, modes and mtimes. The link itself stays a link.
import { spawnSync } from 'node:child_process';
import { lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memlintInProcess } from '../helpers/in-process.js';
import { committedRepo, git, writeFiles, type CliResult } from '../helpers/repo.js';
import { project, topic } from '../install/helpers.js';
import { sentinel, treeState } from './helpers.js';

const MEM = '.claude/memory';
const env = { MEMLINT_TODAY: '2026-11-30' };
const stale = (name: string) => `---\nname: ${name}\ndescription: An old project fact\ntype: project\nmodified: 2020-01-01\n---\n\nShipped on 2020-01-01.\n`;

/** Memory that --fix and consolidate both want to change: an orphan topic, a stale project memory. */
const MEMORY = {
  'MEMORY.md': '# Memory\n\n- [Role](user_role.md) — Backend lead on payments\n- [Old](project_old.md) — old project fact\n',
  'user_role.md': topic('Role', 'user', 'Backend lead on payments', 'Reads diffs before descriptions.\n'),
  'project_old.md': stale('Old'),
  'project_orphan.md': topic('Orphan', 'project', 'A topic with no index entry', 'Body.\n'),
};
const prefixed = (prefix: string, files: Record<string, string>) => Object.fromEntries(Object.entries(files).map(([k, v]) => [`${prefix}${k}`, v]));

function repoWith(files: Record<string, string> = {}): string {
  return committedRepo({ 'README.md': '# app\n', ...files }, 'init');
}

function link(repo: string, rel: string, target: string): void {
  mkdirSync(dirname(join(repo, rel)), { recursive: true });
  rmSync(join(repo, rel), { recursive: true, force: true });
  symlinkSync(target, join(repo, rel));
}

const isLink = (p: string) => lstatSync(p).isSymbolicLink();
// The writing commands run in this process (the same main() as the CLI); the pre-push case runs
// memlint as git does, through the installed hook.
const run = (repo: string, args: string[]): Promise<CliResult> => memlintInProcess(repo, args, { env });

describe('a symlinked memdir, parent folder, index, topic, lock or archive', () => {
  it('.claude a symlink out of the repository: --fix, consolidate and touch write nothing there', async () => {
    const outside = sentinel(prefixed('memory/', MEMORY));
    const repo = repoWith();
    link(repo, '.claude', outside.dir);
    const before = outside.state();
    for (const args of [['--fix', `${MEM}/MEMORY.md`], ['--fix', MEM], ['consolidate', '--force', '--prune', MEM], ['consolidate', '--force', `${MEM}/MEMORY.md`], ['touch', MEM]]) {
      const r = await run(repo, args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(/^memlint: [^\n]*leads out of the repository through a symlink; memlint does not follow it\n$/);
    }
    // Without a PATH, discovery does not enter a symlinked folder (git lists the link itself).
    for (const args of [['--fix'], ['consolidate', '--force', '--prune'], ['touch']]) await run(repo, args);
    expect(outside.state()).toEqual(before);
    expect(isLink(join(repo, '.claude'))).toBe(true);
  });

  it('.claude/memory a symlink out of the repository: the same', async () => {
    const outside = sentinel(MEMORY);
    const repo = repoWith();
    link(repo, MEM, outside.dir);
    const before = outside.state();
    for (const args of [['--fix', `${MEM}/MEMORY.md`], ['consolidate', '--force', '--prune', MEM], ['consolidate', '--force', `${MEM}/MEMORY.md`], ['touch', MEM], ['resolve', `${MEM}/MEMORY.md`], ['resolve', MEM]]) {
      const r = await run(repo, args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(/^memlint: [^\n]*(is a symlink out of|leads out of) the repository[^\n]*; memlint does not follow it\n$/);
    }
    expect(outside.state()).toEqual(before);
    expect(isLink(join(repo, MEM))).toBe(true);
  });

  it('.claude/memory a symlink to another folder of the repository: read by lint, never written', async () => {
    const repo = repoWith(prefixed('notes/', MEMORY));
    link(repo, MEM, '../notes');
    const before = treeState(join(repo, 'notes'));
    const fixed = await run(repo, ['--fix', MEM]);
    expect(fixed.stdout).toContain('index-orphan');
    expect(fixed.stderr).toMatch(/not fixed: \S*\.claude\/memory is a symlink; memlint does not write or read through it/);
    expect((await run(repo, ['consolidate', '--force', '--prune', MEM])).stdout).toMatch(/\.claude\/memory is a symlink; memlint does not write or read through it; not consolidated/);
    expect((await run(repo, ['touch', MEM])).stderr).toMatch(/memlint touch: left alone: \S*\.claude\/memory is a symlink/);
    expect(treeState(join(repo, 'notes'))).toEqual(before);
  });

  it('MEMORY.md and a topic symlinked out: --fix and consolidate leave them and their targets alone', async () => {
    const outside = sentinel({ 'MEMORY.md': MEMORY['MEMORY.md'], 'project_old.md': stale('Old') });
    const repo = repoWith(prefixed(`${MEM}/`, { 'user_role.md': MEMORY['user_role.md'], 'project_orphan.md': MEMORY['project_orphan.md'] }));
    link(repo, `${MEM}/MEMORY.md`, join(outside.dir, 'MEMORY.md'));
    link(repo, `${MEM}/project_old.md`, join(outside.dir, 'project_old.md'));
    const before = outside.state();
    await run(repo, ['--fix', MEM]);
    const c = await run(repo, ['consolidate', '--force', '--prune', MEM]);
    expect(c.code).toBe(2);
    expect(c.stdout).toMatch(/MEMORY\.md is a symlink; memlint does not write or read through it; not consolidated/);
    await run(repo, ['touch', MEM]);
    expect(outside.state()).toEqual(before);
    expect(isLink(join(repo, MEM, 'MEMORY.md'))).toBe(true);
    expect(isLink(join(repo, MEM, 'project_old.md'))).toBe(true);
  });

  it('a topic symlinked out of an otherwise real memdir: never read, pruned, moved or re-timed', async () => {
    const outside = sentinel({ 'project_old.md': stale('Old') });
    const repo = repoWith(prefixed(`${MEM}/`, { 'MEMORY.md': MEMORY['MEMORY.md'], 'user_role.md': MEMORY['user_role.md'], 'project_orphan.md': MEMORY['project_orphan.md'] }));
    link(repo, `${MEM}/project_old.md`, join(outside.dir, 'project_old.md'));
    const before = outside.state();
    expect((await run(repo, ['--fix'])).stdout).toContain('symlink pointing outside the repository; memlint does not follow it');
    await run(repo, ['consolidate', '--force', '--prune']);
    await run(repo, ['touch']);
    expect(outside.state()).toEqual(before);
    expect(isLink(join(repo, MEM, 'project_old.md'))).toBe(true);
    expect(readFileSync(join(repo, MEM, 'MEMORY.md'), 'utf8')).toContain('(project_orphan.md)');
  });

  it('a symlinked .consolidate-lock: never written, re-timed or removed through, by consolidate or its rollback', async () => {
    const outside = sentinel({ 'lock-target': 'precious\n' });
    const repo = repoWith(prefixed(`${MEM}/`, MEMORY));
    link(repo, `${MEM}/.consolidate-lock`, join(outside.dir, 'lock-target'));
    writeFiles(repo, { '.memlintrc.json': JSON.stringify({ consolidate: { minHours: 0, minCommits: 0 } }) });
    // The user's own agent command fails, so the rollback runs too.
    git(repo, 'config', 'memlint.consolidateCommand', 'exit 3');
    const before = outside.state();
    for (const args of [['consolidate', '--force'], ['consolidate'], ['consolidate', '--force', '--prune', MEM]]) {
      const r = await run(repo, args);
      expect(r.code).toBe(2);
      expect(r.stdout).toMatch(/\.consolidate-lock is a symlink; memlint does not write or read through it; not consolidated/);
    }
    expect(outside.state()).toEqual(before);
    expect(isLink(join(repo, MEM, '.consolidate-lock'))).toBe(true);
  });

  it('a .consolidate-lock that is a folder: reported, left alone', async () => {
    const repo = repoWith(prefixed(`${MEM}/`, MEMORY));
    mkdirSync(join(repo, MEM, '.consolidate-lock'));
    const r = await run(repo, ['consolidate', '--force']);
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/\.consolidate-lock is not a regular file; not consolidated/);
    expect(lstatSync(join(repo, MEM, '.consolidate-lock')).isDirectory()).toBe(true);
  });

  it('a symlinked .consolidate-lock on git push (pre-push hook, gates opened by config): nothing written through it', async () => {
    const outside = sentinel({ 'lock-target': 'precious\n' });
    const repo = project();
    expect((await memlintInProcess(repo, ['install'])).code).toBe(0);
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'memlint install');
    const remote = join(outside.dir, '..', `${outside.dir.split('/').pop()}-remote.git`);
    git(repo, 'init', '-q', '--bare', '-b', 'main', remote);
    git(repo, 'remote', 'add', 'origin', remote);
    writeFiles(repo, {
      '.memlintrc.json': JSON.stringify({ consolidate: { minHours: 0, minCommits: 0 } }),
      [`${MEM}/project_orphan.md`]: MEMORY['project_orphan.md'],
    });
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '--no-verify', '-m', 'orphan');
    link(repo, `${MEM}/.consolidate-lock`, join(outside.dir, 'lock-target'));
    const before = outside.state();
    const push = spawnSync('git', ['push', '-u', 'origin', 'main'], { cwd: repo, encoding: 'utf8' });
    expect(push.stderr).toMatch(/\.consolidate-lock is a symlink; memlint does not write or read through it/);
    expect(outside.state()).toEqual(before);
    expect(isLink(join(repo, MEM, '.consolidate-lock'))).toBe(true);
  });

  it('a pre-created archive folder symlinked out: consolidate --prune moves nothing there', async () => {
    const outside = sentinel({ 'ARCHIVE.md': '# Memory archive\n' });
    const repo = repoWith(prefixed(`${MEM}/`, MEMORY));
    link(repo, '.claude/memory-archive', outside.dir);
    const before = outside.state();
    const r = await run(repo, ['consolidate', '--force', '--prune']);
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/memory-archive is a symlink; memlint does not write or read through it; not consolidated/);
    expect(outside.state()).toEqual(before);
    expect(readFileSync(join(repo, MEM, 'project_old.md'), 'utf8')).toBe(stale('Old'));
  });

  it('the agent step rollback never writes through a folder the agent replaced by a symlink', async () => {
    const outside = sentinel({ 'logs/2026/11/2026-11-29.md': 'outside log\n' });
    const repo = repoWith(prefixed(`${MEM}/`, { ...MEMORY, 'logs/2026/11/2026-11-29.md': '- [project_old] Still old.\n' }));
    // The agent moves logs/ away, leaves a symlink out of the repository in its place, and fails.
    git(repo, 'config', 'memlint.consolidateCommand', `mv "$MEMLINT_MEMDIR/logs" "$MEMLINT_MEMDIR/../moved-logs" && ln -s ${JSON.stringify(join(outside.dir, 'logs'))} "$MEMLINT_MEMDIR/logs"; exit 1`);
    const before = outside.state();
    const r = await run(repo, ['consolidate', '--force']);
    expect(r.stdout).toMatch(/agent step rolled back/);
    expect(r.stdout).toMatch(/not restored: \S*logs is a symlink/);
    expect(outside.state()).toEqual(before);
  });
});

describe('snapshot with a symlinked snapshots folder', () => {
  const agentFiles = prefixed('.claude/agent-memory/reviewer/', { 'MEMORY.md': '- [Style](style.md) — review style\n', 'style.md': topic('Style', 'feedback', 'How reviews are written', 'Short.\n') });

  for (const [level, rel] of [
    ['the snapshots folder', '.claude/agent-memory-snapshots'],
    ["the agent's snapshot folder", '.claude/agent-memory-snapshots/reviewer'],
  ] as const) {
    it(`${level} a symlink out of the repository: refused, nothing written or deleted there`, async () => {
      const outside = sentinel(rel.endsWith('reviewer') ? { 'old.md': 'a file snapshot would remove\n' } : { 'reviewer/old.md': 'a file snapshot would remove\n' });
      const repo = repoWith(agentFiles);
      link(repo, rel, outside.dir);
      const before = outside.state();
      for (const args of [['snapshot', 'reviewer'], ['snapshot', 'reviewer', '--dry-run']]) {
        const r = await run(repo, args);
        expect(r.code).toBe(2);
        expect(r.stderr).toMatch(/^memlint: [^\n]*is a symlink; memlint does not write or read through it\n$/);
      }
      expect(outside.state()).toEqual(before);
      expect(isLink(join(repo, rel))).toBe(true);
    });
  }

  it('.claude a symlink out of the repository: refused', async () => {
    const outside = sentinel(prefixed('agent-memory-snapshots/reviewer/', { 'old.md': 'x\n' }));
    const repo = repoWith();
    writeFiles(outside.dir, prefixed('agent-memory/reviewer/', { 'MEMORY.md': '- [Style](style.md) — review style\n', 'style.md': 'x\n' }));
    link(repo, '.claude', outside.dir);
    const before = outside.state();
    expect((await run(repo, ['snapshot', 'reviewer'])).code).toBe(2);
    expect(outside.state()).toEqual(before);
  });
});

describe('resolve through a symlinked folder', () => {
  it('a conflicted MEMORY.md reached through a symlinked memdir is not written', async () => {
    const conflicted = '<<<<<<< ours\n- [A](a.md) — a\n=======\n- [B](b.md) — b\n>>>>>>> theirs\n';
    const outside = sentinel({ 'MEMORY.md': conflicted, 'a.md': 'a\n', 'b.md': 'b\n' });
    const repo = repoWith();
    link(repo, MEM, outside.dir);
    const before = outside.state();
    const r = await run(repo, ['resolve', `${MEM}/MEMORY.md`]);
    expect(r.code).toBe(2);
    expect(outside.state()).toEqual(before);
  });

  it('a conflicted MEMORY.md symlinked within the repository is reported, not written', async () => {
    const conflicted = '<<<<<<< ours\n- [A](a.md) — a\n=======\n- [B](b.md) — b\n>>>>>>> theirs\n';
    const repo = repoWith({ 'notes/MEMORY.md': conflicted, 'notes/a.md': 'a\n', 'notes/b.md': 'b\n' });
    link(repo, MEM, '../notes');
    const before = treeState(join(repo, 'notes'));
    const r = await run(repo, ['resolve', `${MEM}/MEMORY.md`]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/conflict {2}\.claude\/memory\/MEMORY\.md: not written: \S*\.claude\/memory is a symlink/);
    expect(treeState(join(repo, 'notes'))).toEqual(before);
  });
});

describe('link, install and uninstall with symlinked shared files', () => {
  it('link: a symlinked settings.local.json or .claude is not read or written; a symlinked .gitignore is left', async () => {
    for (const [rel, files] of [
      ['.claude/settings.local.json', { 'settings.local.json': '{"keep": true}\n' }],
      ['.claude', { 'settings.local.json': '{"keep": true}\n', 'memory/MEMORY.md': '# x\n' }],
    ] as const) {
      const outside = sentinel(files);
      const repo = repoWith(prefixed(`${MEM}/`, MEMORY));
      link(repo, rel, rel === '.claude' ? outside.dir : join(outside.dir, 'settings.local.json'));
      const before = outside.state();
      const r = await run(repo, ['link', '--memdir', MEM]);
      expect(r.code, rel).toBe(2);
      expect(r.stderr, rel).toMatch(/symlink/);
      expect(outside.state()).toEqual(before);
      expect(isLink(join(repo, rel))).toBe(true);
    }
    const outside = sentinel({ gitignore: 'node_modules\n' });
    const repo = repoWith(prefixed(`${MEM}/`, MEMORY));
    link(repo, '.gitignore', join(outside.dir, 'gitignore'));
    const before = outside.state();
    const r = await run(repo, ['link', '--memdir', MEM]);
    expect(r.stderr).toMatch(/\.gitignore is a symlink; memlint does not write or read through it; add \.claude\/settings\.local\.json to it yourself/);
    expect(outside.state()).toEqual(before);
    expect(isLink(join(repo, '.gitignore'))).toBe(true);
  });

  it('install and uninstall leave symlinked .gitattributes, .gitignore, package.json, .husky and hook files as they are', async () => {
    const outside = sentinel({ gitattributes: '* text=auto\n', gitignore: 'node_modules\n', 'pre-commit': 'echo mine\n', 'husky/pre-push': 'echo mine\n', 'package.json': '{"name":"outside"}\n' });
    for (const links of [
      { '.gitattributes': 'gitattributes', '.gitignore': 'gitignore', '.husky/pre-commit': 'pre-commit' },
      { '.husky': 'husky' },
      { 'package.json': 'package.json' },
    ]) {
      const repo = project();
      for (const [rel, target] of Object.entries(links)) link(repo, rel, join(outside.dir, target));
      const before = outside.state();
      const installed = await run(repo, ['install']);
      expect(installed.code, JSON.stringify(links)).toBe(0);
      for (const rel of Object.keys(links)) {
        expect(installed.stdout + installed.stderr).toContain(`is a symlink; memlint does not write or read through it: ${rel.startsWith('.husky') && !rel.includes('/') ? '.husky/_' : rel} left as it is`);
      }
      await run(repo, ['uninstall']);
      await run(repo, ['install', '--local']);
      expect(outside.state()).toEqual(before);
      for (const rel of Object.keys(links)) expect(isLink(join(repo, rel))).toBe(true);
    }
  });
});

describe('a config file symlinked out of the repository', () => {
  it('is not read: lint stops with one line that quotes nothing of it; a config symlinked within the repository is read', async () => {
    // A YAML file whose parse error would quote its first line, as a private file of the machine's.
    const outside = sentinel({ 'secret.yaml': 'token: s3cr3t-value: here\n' });
    const repo = repoWith({ ...prefixed(`${MEM}/`, MEMORY), 'conf/memlint.json': JSON.stringify({ rules: { 'index-orphan': 'off' } }) });
    link(repo, '.memlintrc.yaml', join(outside.dir, 'secret.yaml'));
    const refused = await run(repo, [MEM]);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toMatch(/cannot read config \S*\.memlintrc\.yaml: it is a symlink that leads out of the repository/);
    expect(refused.stdout + refused.stderr).not.toContain('s3cr3t');
    link(repo, '.memlintrc.json', 'conf/memlint.json');
    rmSync(join(repo, '.memlintrc.yaml'));
    const read = await run(repo, [MEM]);
    expect(read.stdout).not.toContain('index-orphan');
    expect(read.code).toBe(0);
    expect(read.stdout).toContain('project_old.md');
  });
});
