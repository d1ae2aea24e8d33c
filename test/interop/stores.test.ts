// Stray Claude Code stores: `memlint where --all` finds them (worktrees created and removed, a
// moved folder, the default store left behind), `memlint adopt` brings them in without loss and
// never writes them, `doctor` names them. Stores live under a temporary CLAUDE_CONFIG_DIR and HOME.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sanitizePath } from '../../src/claude/auto-memory.js';
import { namedRepositoryFiles } from '../../src/claude/stores.js';
import { commitFiles, git, initRepo, tempDir, writeFiles } from '../helpers/repo.js';
import { cli, cliInProcess, hermetic, type Hermetic } from './helpers.js';

const topic = (name: string, type: string, desc: string, body: string) => `---\nname: ${name}\ndescription: ${desc}\ntype: ${type}\n---\n${body}\n`;

function linkedRepo(h: Hermetic): string {
  const parent = tempDir('memlint-stores-');
  const repo = path.join(parent, 'shop');
  initRepo(repo);
  commitFiles(repo, {
    'src/billing/invoice.ts': 'export const x = 1;\n',
    'Makefile.shop': 'all:\n',
    '.claude/memory/MEMORY.md': '- [Role](user_role.md) — backend lead on payments\n',
    '.claude/memory/user_role.md': topic('Role', 'user', 'backend lead on payments', 'The user leads the payments backend.'),
    '.claude/settings.local.json': '{}\n',
  });
  writeFiles(repo, { '.claude/settings.local.json': JSON.stringify({ autoMemoryDirectory: path.join(repo, '.claude', 'memory') }) });
  void h;
  return repo;
}

const storeDir = (h: Hermetic, keyedBy: string) => path.join(h.configDir, 'projects', sanitizePath(keyedBy), 'memory');

/** Every file of a folder with its hash and mtime: a store must come out of adopt exactly as it went in. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[path.relative(dir, p)] = `${createHash('sha1').update(readFileSync(p)).digest('hex')} ${statSync(p).mtimeMs}`;
    }
  };
  walk(dir);
  return out;
}

function setUpStores(h: Hermetic, repo: string) {
  const parent = path.dirname(repo);
  // The default store, left behind since autoMemoryDirectory points into the repository.
  const defaultStore = storeDir(h, repo);
  writeFiles(defaultStore, {
    'MEMORY.md': '- [Role](user_role.md) — backend lead on payments\n- [Deploys](project_deploys.md) — deploys need the staging lock\n',
    'user_role.md': topic('Role', 'user', 'backend lead on payments', 'The user leads the payments backend.\n\n- Prefers small pull requests.'),
    'project_deploys.md': topic('Deploys', 'project', 'deploys need the staging lock', 'Deploys need the staging lock for twenty minutes.'),
  });
  // A live linked worktree, with a store keyed by its path.
  const live = path.join(parent, 'shop-feature');
  git(repo, 'worktree', 'add', '-q', '-b', 'feature', live);
  const liveStore = storeDir(h, live);
  writeFiles(liveStore, {
    'MEMORY.md': '- [Flags](reference_flags.md) — feature flags live in the admin panel\n',
    'reference_flags.md': topic('Flags', 'reference', 'feature flags live in the admin panel', 'Feature flags live in the admin panel.'),
  });
  // A worktree created, written to, then removed: its store names the repository's files.
  const gone = path.join(repo, '.worktrees', 'hotfix');
  git(repo, 'worktree', 'add', '-q', '-b', 'hotfix', gone);
  const goneStore = storeDir(h, gone);
  writeFiles(goneStore, { 'MEMORY.md': '- [Rounding](project_rounding.md) — invoice rounding\n', 'project_rounding.md': topic('Rounding', 'project', 'invoice rounding', 'Rounding lives in src/billing/invoice.ts and must stay half-even.') });
  git(repo, 'worktree', 'remove', gone);
  // A removed worktree whose store names nothing of the repository: not claimed.
  const silent = path.join(repo, '.worktrees', 'spike');
  writeFiles(storeDir(h, silent), { 'MEMORY.md': '- [Note](note.md) — a note\n', 'note.md': topic('Note', 'user', 'a note', 'Nothing specific.') });
  // The repository's former path (the folder was moved): same folder name, names its files.
  const moved = storeDir(h, '/old/place/shop');
  writeFiles(moved, { 'MEMORY.md': '- [Build](reference_build.md) — how the shop builds\n', 'reference_build.md': topic('Build', 'reference', 'how the shop builds', 'See /old/place/shop/src/billing/invoice.ts and Makefile.shop.') });
  // Another project with the same folder name: not this repository's.
  writeFiles(storeDir(h, '/elsewhere/shop'), { 'MEMORY.md': '- [Other](other.md) — other\n', 'other.md': topic('Other', 'user', 'other', 'Another shop entirely: src/main.rs.') });
  // An empty store of the live worktree's sibling path: nothing to adopt, not listed.
  writeFiles(path.join(h.configDir, 'projects', sanitizePath(`${repo}-empty`), 'memory'), { '.keep': '' });
  return { defaultStore, liveStore, goneStore, moved, live };
}

describe('memlint where --all', () => {
  it('lists the stores of worktrees, former paths and the default store, with .md counts and newest mtime', async () => {
    const h = hermetic();
    const repo = linkedRepo(h);
    const s = setUpStores(h, repo);
    writeFileSync(path.join(s.defaultStore, 'user_role.md'), readFileSync(path.join(s.defaultStore, 'user_role.md')));
    const r = await cliInProcess(repo, ['where', '--all', '--json'], h);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as { strayStores: Array<{ dir: string; kind: string; mdFiles: number; newest: string; reason: string }> };
    const byDir = Object.fromEntries(report.strayStores.map((x) => [x.dir, x]));
    expect(Object.keys(byDir).sort()).toEqual([s.defaultStore, s.goneStore, s.liveStore, s.moved].sort());
    expect(byDir[s.defaultStore]).toMatchObject({ kind: 'default', mdFiles: 3 });
    expect(byDir[s.liveStore]).toMatchObject({ kind: 'worktree', mdFiles: 2, reason: `keyed by the linked worktree ${s.live}` });
    expect(byDir[s.goneStore]).toMatchObject({ kind: 'former-path', mdFiles: 2, reason: 'keyed by a former path of this repository (its memory names src/billing/invoice.ts)' });
    expect(byDir[s.moved]).toMatchObject({ kind: 'former-path', reason: 'keyed by a former path of this repository (its memory names src/billing/invoice.ts, Makefile.shop)' });
    const newest = Math.max(...['MEMORY.md', 'user_role.md', 'project_deploys.md'].map((f) => statSync(path.join(s.defaultStore, f)).mtimeMs));
    expect(byDir[s.defaultStore]!.newest).toBe(new Date(newest).toISOString());

    const text = (await cliInProcess(repo, ['where', '--all'], h)).stdout;
    expect(text).toContain('Other memory stores of this repository, not in use');
    expect(text).toContain(`  ${s.liveStore}\n    worktree: keyed by the linked worktree ${s.live}\n    2 .md files, newest `);
    // Without --all: no such section, and the JSON has no strayStores.
    expect((await cliInProcess(repo, ['where'], h)).stdout).not.toContain('Other memory stores');
    expect(JSON.parse((await cliInProcess(repo, ['where', '--json'], h)).stdout).strayStores).toBeUndefined();
  });

  it('from a linked worktree: the same repository, the same stores', async () => {
    const h = hermetic();
    const repo = linkedRepo(h);
    const s = setUpStores(h, repo);
    writeFiles(s.live, { '.claude/settings.local.json': JSON.stringify({ autoMemoryDirectory: path.join(repo, '.claude', 'memory') }) });
    const report = JSON.parse((await cliInProcess(s.live, ['where', '--all', '--json'], h)).stdout) as { strayStores: Array<{ dir: string }> };
    expect(report.strayStores.map((x) => x.dir).sort()).toEqual([s.defaultStore, s.goneStore, s.liveStore, s.moved].sort());
  });

  it('"names this repository\'s files": one file in a subfolder, or two distinctive ones at the top', () => {
    const tracked = new Set(['src/billing/invoice.ts', 'README.md', 'package.json', 'Makefile.shop', 'shop.config.json']);
    expect(namedRepositoryFiles(['see src/billing/invoice.ts'], tracked)).toEqual(['src/billing/invoice.ts']);
    expect(namedRepositoryFiles(['in /home/me/old/shop/src/billing/invoice.ts:12'], tracked)).toEqual(['src/billing/invoice.ts']);
    expect(namedRepositoryFiles(['README.md and package.json'], tracked)).toBeNull();
    expect(namedRepositoryFiles(['Makefile.shop'], tracked)).toBeNull();
    expect(namedRepositoryFiles(['Makefile.shop, shop.config.json'], tracked)).toEqual(['Makefile.shop', 'shop.config.json']);
  });
});

describe('memlint adopt', () => {
  it('copies new topic files, merges same-named ones, merges index entries as sets; the stores stay as they were; a second run is a no-op', async () => {
    const h = hermetic();
    const repo = linkedRepo(h);
    const s = setUpStores(h, repo);
    const before = [s.defaultStore, s.liveStore, s.goneStore, s.moved].map(snapshot);
    const memdir = path.join(repo, '.claude', 'memory');

    const dry = await cliInProcess(repo, ['adopt', '--dry-run'], h);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(`.claude/memory/project_deploys.md: would copy from ${s.defaultStore}/project_deploys.md`);
    // The store's user memory (and its entry) describes one person: named, left in the store.
    expect(dry.stdout).not.toContain('user_role.md: would');
    expect(dry.stdout).toContain(`memlint adopt: 1 user memory (about you: user_role.md) would be left in ${s.defaultStore}, not put in the shared folder`);
    expect(readdirSync(memdir).sort()).toEqual(['MEMORY.md', 'user_role.md']);

    const r = await cliInProcess(repo, ['adopt'], h);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`memlint adopt: 1 user memory (about you: user_role.md) left in ${s.defaultStore}, not put in the shared folder (keep what matters in ~/.claude/CLAUDE.md)\n`);
    expect(r.stdout).toContain('memlint adopt: adopted 4 new files and 1 merged into .claude/memory; the stores are unchanged');
    expect(readdirSync(memdir).sort()).toEqual(['MEMORY.md', 'project_deploys.md', 'project_rounding.md', 'reference_build.md', 'reference_flags.md', 'user_role.md']);
    // The committed user memory is as it was: the store's private line did not reach it.
    expect(readFileSync(path.join(memdir, 'user_role.md'), 'utf8')).toBe(topic('Role', 'user', 'backend lead on payments', 'The user leads the payments backend.'));
    // Each entry once, ours first, the stores' additions after.
    const index = readFileSync(path.join(memdir, 'MEMORY.md'), 'utf8').trim().split('\n');
    expect(index.filter((l) => l.includes('(user_role.md)'))).toHaveLength(1);
    expect(index.map((l) => /\]\(([^)]+)\)/.exec(l)![1]).sort()).toEqual(['project_deploys.md', 'project_rounding.md', 'reference_build.md', 'reference_flags.md', 'user_role.md']);
    expect([s.defaultStore, s.liveStore, s.goneStore, s.moved].map(snapshot)).toEqual(before);
    // The result lints clean.
    expect((await cliInProcess(repo, ['.claude/memory'], h)).code).toBe(0);

    const files = snapshot(memdir);
    const again = await cliInProcess(repo, ['adopt'], h);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(
      `memlint adopt: 1 user memory (about you: user_role.md) left in ${s.defaultStore}, not put in the shared folder (keep what matters in ~/.claude/CLAUDE.md)\n` +
        'memlint adopt: nothing to adopt from 4 stores: .claude/memory already holds what they hold, user memories aside\n',
    );
    expect(snapshot(memdir)).toEqual(files);
  });

  it('user memories stay in the store: not copied, no entry, named (in --dry-run too); a team/ one is shared; doctor then settles', async () => {
    const h = hermetic();
    const repo = linkedRepo(h);
    const store = storeDir(h, repo);
    writeFiles(store, {
      'MEMORY.md': '- [Me](user_me.md) — about me\n- [Tabs](team/user_tabs.md) — the team uses tabs\n- [Ci](project_ci.md) — CI runs nightly\n',
      'user_me.md': topic('Me', 'user', 'about me', 'I prefer tabs.'),
      'team/user_tabs.md': topic('Tabs', 'user', 'the team uses tabs', 'Shared on purpose.'),
      'project_ci.md': topic('Ci', 'project', 'CI runs nightly', 'CI runs nightly.'),
    });
    const before = snapshot(store);
    const memdir = path.join(repo, '.claude', 'memory');
    expect((await cliInProcess(repo, ['doctor'], h)).stdout).toMatch(/^FAIL {2}stray stores: .*; fix: memlint where --all, then memlint adopt$/m);

    const dry = await cliInProcess(repo, ['adopt', '--dry-run'], h);
    expect(dry.code).toBe(0);
    expect(dry.stdout).not.toContain('user_me.md: would');
    expect(dry.stdout).toContain(`memlint adopt: 1 user memory (about you: user_me.md) would be left in ${store}, not put in the shared folder (keep what matters in ~/.claude/CLAUDE.md)\n`);
    expect(dry.stdout).toContain('memlint adopt: would adopt 2 new files and 1 merged into .claude/memory');

    const r = await cliInProcess(repo, ['adopt'], h);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`memlint adopt: 1 user memory (about you: user_me.md) left in ${store}, not put in the shared folder (keep what matters in ~/.claude/CLAUDE.md)\n`);
    expect(existsSync(path.join(memdir, 'user_me.md'))).toBe(false);
    expect(readFileSync(path.join(memdir, 'team', 'user_tabs.md'), 'utf8')).toContain('Shared on purpose.');
    const index = readFileSync(path.join(memdir, 'MEMORY.md'), 'utf8');
    expect(index).not.toContain('user_me.md');
    expect(index).toContain('(team/user_tabs.md)');
    expect(index).toContain('(project_ci.md)');
    expect(snapshot(store)).toEqual(before);
    expect(git(repo, 'status', '--porcelain', '--untracked-files=all')).not.toContain('user_me');
    // The store counts as brought in (its private part named), as linking counts it: doctor is ok.
    expect((await cliInProcess(repo, ['doctor'], h)).stdout).toMatch(/^ok {4}stray stores: none/m);
    // Only user memories in a store: nothing to adopt, said so.
    const only = storeDir(h, '/old/place/shop');
    writeFiles(only, { 'MEMORY.md': '- [Me](user_me.md) — about me\n', 'user_me.md': topic('Me', 'user', 'about me', 'I use src/billing/invoice.ts a lot.') });
    const again = await cliInProcess(repo, ['adopt', only], h);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(
      `memlint adopt: 1 user memory (about you: user_me.md) left in ${only}, not put in the shared folder (keep what matters in ~/.claude/CLAUDE.md)\n` +
        'memlint adopt: nothing to adopt from 1 store: .claude/memory already holds what they hold, user memories aside\n',
    );
    expect(existsSync(path.join(memdir, 'user_me.md'))).toBe(false);
  });

  it('the store\'s entries go after the folder\'s own entries, below its heading and before a footer; with no entries, after the prose', async () => {
    const h = hermetic();
    const repo = linkedRepo(h);
    const memdir = path.join(repo, '.claude', 'memory');
    commitFiles(repo, { '.claude/memory/MEMORY.md': '# Memory\n\nWhat the team remembers.\n\n## People\n\n- [Role](user_role.md) — backend lead on payments\n\n<!-- keep entries short -->\n' });
    const store = storeDir(h, repo);
    writeFiles(store, {
      'MEMORY.md': '- [Ci](project_ci.md) — CI runs nightly\n- [Role](user_role.md) — backend lead on payments\n- [Build](reference_build.md) — how it builds\n',
      'project_ci.md': topic('Ci', 'project', 'CI runs nightly', 'CI runs nightly.'),
      'reference_build.md': topic('Build', 'reference', 'how it builds', 'make all.'),
    });
    const r = await cliInProcess(repo, ['adopt'], h);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(path.join(memdir, 'MEMORY.md'), 'utf8')).toBe(
      '# Memory\n\nWhat the team remembers.\n\n## People\n\n- [Role](user_role.md) — backend lead on payments\n- [Ci](project_ci.md) — CI runs nightly\n- [Build](reference_build.md) — how it builds\n\n<!-- keep entries short -->\n',
    );

    const bare = linkedRepo(h);
    commitFiles(bare, { '.claude/memory/MEMORY.md': '# Memory\n\nNothing yet.\n' }, 'empty index');
    git(bare, 'rm', '-q', '.claude/memory/user_role.md');
    writeFiles(storeDir(h, bare), { 'MEMORY.md': '- [Ci](project_ci.md) — CI runs nightly\n', 'project_ci.md': topic('Ci', 'project', 'CI runs nightly', 'CI runs nightly.') });
    expect((await cliInProcess(bare, ['adopt'], h)).code).toBe(0);
    expect(readFileSync(path.join(bare, '.claude', 'memory', 'MEMORY.md'), 'utf8')).toBe('# Memory\n\nNothing yet.\n- [Ci](project_ci.md) — CI runs nightly\n');
  });

  it('a true conflict is marked for a person, exit 1; a second run changes nothing and still says so', async () => {
    const h = hermetic();
    const repo = linkedRepo(h);
    commitFiles(repo, { '.claude/memory/MEMORY.md': '- [Role](user_role.md) — backend lead on payments\n- [Pay](project_pay.md) — payments\n', '.claude/memory/project_pay.md': topic('Pay', 'project', 'backend lead on payments', 'Payments run on the backend.') });
    const store = storeDir(h, repo);
    writeFiles(store, { 'MEMORY.md': '- [Pay](project_pay.md) — payments\n', 'project_pay.md': topic('Pay', 'project', 'frontend lead on checkout', 'Payments run on the backend.') });
    const r = await cliInProcess(repo, [ 'adopt', store], h);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/\.claude\/memory\/project_pay\.md: merged from .*project_pay\.md: CONFLICT \(description: /);
    const marked = readFileSync(path.join(repo, '.claude/memory/project_pay.md'), 'utf8');
    expect(marked).toContain('<<<<<<<');
    expect(marked).toContain('backend lead on payments');
    expect(marked).toContain('frontend lead on checkout');
    const again = await cliInProcess(repo, ['adopt', store], h);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('conflict markers already inside an input: settle the conflict first');
    expect(readFileSync(path.join(repo, '.claude/memory/project_pay.md'), 'utf8')).toBe(marked);
  });

  it('nothing stray: says so, exit 0; a store outside given twice is read once; usage errors exit 2', () => {
    const h = hermetic();
    const repo = linkedRepo(h);
    expect(cli(repo, ['adopt'], h)).toMatchObject({ code: 0, stdout: expect.stringContaining('nothing to adopt') });
    expect(cli(repo, ['adopt', '/no/such/store'], h).code).toBe(2);
    expect(cli(repo, ['adopt', path.join(repo, '.claude', 'memory')], h).code).toBe(2);
    expect(cli(repo, ['adopt', '--help'], h).stdout).toMatch(/^Usage: memlint adopt/);
    // A memory folder behind a symlink (here one leading out of the repository) is never written.
    const outside = tempDir('memlint-outside-');
    symlinkSync(outside, path.join(repo, 'linked'));
    const store = storeDir(h, repo);
    writeFiles(store, { 'MEMORY.md': '- [A](a.md) — a\n', 'a.md': topic('A', 'user', 'a', 'A.') });
    const r = cli(repo, ['adopt', '--memdir', 'linked', store], h);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/linked is a symlink/);
    expect(readdirSync(outside)).toEqual([]);
  });

  it('doctor names the stray stores, with where --all and adopt as the fix', async () => {
    const h = hermetic();
    const repo = linkedRepo(h);
    const s = setUpStores(h, repo);
    const line = (await cliInProcess(repo, ['doctor'], h)).stdout.split('\n').find((l) => l.includes('stray stores:'))!;
    expect(line).toMatch(/^FAIL  stray stores: 4 Claude Code memory stores of this repository not in use, 9 \.md files \(/);
    expect(line).toContain(s.goneStore);
    expect(line).toMatch(/; fix: memlint where --all, then memlint adopt$/);
  });
});
