// The driver under real git: merge, rebase, cherry-pick, stash apply, criss-cross, add/add, a
// missing binary, linked worktrees and a repository whose index stat is settled. The driver is
// configured with the command `memlint install` writes (driverCommand), pointed at dist/cli.js.
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { driverCommand, driverConfig } from '../../src/merge/command.js';
import { CLI, git, importCommits, initRepo, tempDir, writeFiles } from '../helpers/repo.js';

const MEM = '.claude/memory';
const INDEX = `${MEM}/MEMORY.md`;
const e = (k: string, hook = `about ${k}`) => `- [${k}](${k}.md) — ${hook}\n`;
const HEAD = '# Memory index\n\n';

function run(cwd: string, ...args: string[]): { code: number; out: string } {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_EDITOR: 'true' } });
  return { code: r.status ?? -1, out: `${r.stdout}${r.stderr}` };
}

/**
 * A repository with the driver configured and a base commit: made once for each driver command
 * and copied (its .git and files) for each test that asks for it, sparing the four git calls that
 * make one.
 */
const bases = new Map<string, string>();
function setupRepo(memlint = `node ${CLI}`): string {
  let base = bases.get(memlint);
  if (!base) bases.set(memlint, (base = makeBase(memlint)));
  const dir = tempDir();
  cpSync(base, dir, { recursive: true });
  return dir;
}

function makeBase(memlint: string): string {
  const dir = initRepo();
  for (const [key, value] of driverConfig({ memlint })) git(dir, 'config', key, value);
  writeFiles(dir, {
    '.gitattributes': `${MEM}/**/*.md merge=memlint\n`,
    [INDEX]: HEAD + e('user_role') + e('feedback_testing'),
    [`${MEM}/feedback_testing.md`]: '---\nname: testing\ndescription: Integration tests hit a real DB\ntype: feedback\n---\n\n**How to apply:**\n- run make db first\n',
    [`${MEM}/logs/2026/11/2026-11-29.md`]: '# 2026-11-29\n\n- 09:00 start\n',
  });
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'base');
  return dir;
}

function commit(dir: string, files: Record<string, string>, message: string): void {
  writeFiles(dir, files);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', message);
}

/** Branch `other` from main with THEIRS' files, then main with OURS', and merge other into main. */
function mergeDiverged(dir: string, theirs: Record<string, string>, ours: Record<string, string>): { code: number; out: string } {
  importCommits(dir, [
    { branch: 'other', message: 'other', from: 'main', files: theirs },
    { branch: 'main', message: 'main', from: 'main', files: ours },
  ]);
  return run(dir, 'merge', '--no-edit', 'other');
}

const read = (dir: string, rel: string) => readFileSync(join(dir, rel), 'utf8');
const status = (dir: string) => git(dir, 'status', '--porcelain');
const entryCount = (text: string, key: string) => text.split('\n').filter((l) => l.includes(`(${key}.md)`)).length;

describe('the driver under real git', () => {
  it('merges concurrent changes to the index, a topic file and a daily log without a conflict', () => {
    const dir = setupRepo();
    git(dir, 'checkout', '-q', '-b', 'other');
    commit(
      dir,
      {
        [INDEX]: HEAD + e('user_role') + e('feedback_testing') + e('reference_grafana'),
        [`${MEM}/feedback_testing.md`]: '---\nname: testing\ndescription: Integration tests hit a real DB\ntype: feedback\n---\n\n**How to apply:**\n- run make db first\n- reset between suites\n',
        [`${MEM}/logs/2026/11/2026-11-29.md`]: '# 2026-11-29\n\n- 09:00 start\n- 10:00 theirs\n',
      },
      'other',
    );
    git(dir, 'checkout', '-q', 'main');
    commit(
      dir,
      {
        [INDEX]: HEAD + e('user_role', 'senior backend engineer') + e('feedback_testing') + e('project_freeze'),
        [`${MEM}/feedback_testing.md`]: '---\nname: testing\ndescription: Integration tests always hit a real DB\ntype: feedback\n---\n\n**How to apply:**\n- run make db first\n- seed with fixtures\n',
        [`${MEM}/logs/2026/11/2026-11-29.md`]: '# 2026-11-29\n\n- 09:00 start\n- 09:30 ours\n',
      },
      'main',
    );
    const r = run(dir, 'merge', '--no-edit', 'other');
    expect(r.code, r.out).toBe(0);
    expect(read(dir, INDEX)).toBe(HEAD + e('user_role', 'senior backend engineer') + e('feedback_testing') + e('project_freeze') + e('reference_grafana'));
    expect(read(dir, `${MEM}/feedback_testing.md`)).toBe(
      '---\nname: testing\ndescription: Integration tests always hit a real DB\ntype: feedback\n---\n\n**How to apply:**\n- run make db first\n- seed with fixtures\n- reset between suites\n',
    );
    expect(read(dir, `${MEM}/logs/2026/11/2026-11-29.md`)).toBe('# 2026-11-29\n\n- 09:00 start\n- 09:30 ours\n- 10:00 theirs\n');
    expect(status(dir)).toBe('');
  });

  it('leaves markers only around the entry edited differently on both sides, and exits as a conflict', () => {
    const dir = setupRepo();
    const r = mergeDiverged(dir, { [INDEX]: HEAD + e('user_role', 'theirs words') + e('feedback_testing') + e('t_new') }, { [INDEX]: HEAD + e('user_role', 'ours words') + e('feedback_testing') + e('o_new') });
    expect(r.code).toBe(1);
    expect(r.out).toContain('user_role.md: edited on both sides');
    expect(read(dir, INDEX)).toBe(
      HEAD +
        '<<<<<<< ours (user_role.md: edited on both sides)\n' +
        e('user_role', 'ours words') +
        '=======\n' +
        e('user_role', 'theirs words') +
        '>>>>>>> theirs (user_role.md)\n' +
        e('feedback_testing') +
        e('o_new') +
        e('t_new'),
    );
  });

  describe('an entry deleted on one side with its topic file, its hook edited on the other', () => {
    const DASH = `${MEM}/reference_dash.md`;
    const dashTopic = '---\nname: Dash\ndescription: Dashboards\ntype: reference\n---\nGrafana.\n';
    const before = HEAD + e('user_role') + e('feedback_testing') + e('reference_dash', 'dashboards');
    const edited = HEAD + e('user_role') + e('feedback_testing') + e('reference_dash', 'Grafana dashboards');
    const dropped = HEAD + e('user_role') + e('feedback_testing');

    /** main: the entry and its topic; `drop` deletes both (or the entry alone), `edit` edits the hook. */
    function diverged(opts: { keepTopic?: boolean } = {}): string {
      const dir = setupRepo();
      importCommits(dir, [
        { branch: 'main', message: 'dash', from: 'main', files: { [INDEX]: before, [DASH]: dashTopic } },
        { branch: 'drop', message: 'drop dash', from: 0, files: { [INDEX]: dropped }, deletes: opts.keepTopic ? [] : [DASH] },
        { branch: 'edit', message: 'edit hook', from: 0, files: { [INDEX]: edited } },
      ]);
      git(dir, 'checkout', '-q', 'edit');
      return dir;
    }
    // The base fixture's index has entries without topic files of their own: only this entry's finding counts.
    const dangling = (dir: string) => spawnSync(process.execPath, [CLI, MEM], { cwd: dir, encoding: 'utf8' }).stdout.includes('reference_dash.md, which does not exist');

    it('merge: a conflict of that entry alone, never a kept entry pointing at a deleted file; resolve says how, --theirs settles', () => {
      const dir = diverged();
      const r = run(dir, 'merge', '--no-edit', 'drop');
      expect(r.code).toBe(1);
      expect(r.out).toContain('reference_dash.md: deleted in theirs together with its topic file, but edited in ours: left in conflict');
      expect(r.out).toContain('left in conflict: reference_dash.md: deleted with its topic file in theirs, edited in ours');
      expect(read(dir, INDEX)).toBe(
        HEAD + e('user_role') + e('feedback_testing') + '<<<<<<< ours (reference_dash.md: deleted with its topic file in theirs, edited in ours)\n' + e('reference_dash', 'Grafana dashboards') + '=======\n>>>>>>> theirs (reference_dash.md)\n',
      );
      // resolve re-merges the same way (the file is gone from the merge), and names the choices that
      // can settle it (--both would keep an entry linking to nothing).
      const open = spawnSync(process.execPath, [CLI, 'resolve'], { cwd: dir, encoding: 'utf8' });
      expect(open.status).toBe(1);
      expect(open.stdout).toContain('settle it: memlint resolve --ours|--theirs --entry reference_dash.md');
      const settled = spawnSync(process.execPath, [CLI, 'resolve', '--theirs'], { cwd: dir, encoding: 'utf8' });
      expect(settled.status, settled.stderr).toBe(0);
      expect(read(dir, INDEX)).toBe(dropped);
      expect(run(dir, 'commit', '-q', '--no-edit').code).toBe(0);
      expect(dangling(dir)).toBe(false);
    });

    it('rebase (the sides swapped): the same conflict, the deletion in ours', () => {
      const dir = diverged();
      const r = run(dir, 'rebase', 'drop');
      expect(r.code).not.toBe(0);
      expect(r.out).toContain('left in conflict: reference_dash.md: deleted with its topic file in ours, edited in theirs');
      expect(read(dir, INDEX)).toBe(
        HEAD + e('user_role') + e('feedback_testing') + '<<<<<<< ours (reference_dash.md: deleted with its topic file in ours, edited in theirs)\n=======\n' + e('reference_dash', 'Grafana dashboards') + '>>>>>>> theirs (reference_dash.md)\n',
      );
    });

    it('the topic file kept on the deleting side: the edited entry is kept, a clean merge that lints clean', () => {
      const dir = diverged({ keepTopic: true });
      const r = run(dir, 'merge', '--no-edit', 'drop');
      expect(r.code, r.out).toBe(0);
      expect(r.out).toContain('reference_dash.md: deleted in theirs but edited in ours; the edited entry is kept\n');
      expect(read(dir, INDEX)).toBe(edited);
      expect(dangling(dir)).toBe(false);
    });

    it('git pull from a teammate (a bare remote, two clones): the merge stops on that entry instead of pushing a broken index', () => {
      const top = tempDir();
      const remote = join(top, 'remote.git');
      git(top, 'init', '-q', '--bare', '-b', 'main', remote);
      const alice = diverged();
      git(alice, 'checkout', '-q', 'main');
      git(alice, 'push', '-q', remote, 'main');
      const bob = join(top, 'bob');
      git(top, 'clone', '-q', remote, bob);
      for (const [key, value] of driverConfig({ memlint: `node ${CLI}` })) git(bob, 'config', key, value);
      git(bob, 'config', 'user.name', 'Bob');
      git(bob, 'config', 'user.email', 'bob@example.com');
      git(alice, 'push', '-q', remote, 'drop:main');
      commit(bob, { [INDEX]: edited }, 'bob: edit hook');
      const r = run(bob, 'pull', '--no-rebase', '-q');
      expect(r.code).toBe(1);
      expect(r.out).toContain('left in conflict: reference_dash.md: deleted with its topic file in theirs, edited in ours');
      expect(read(bob, INDEX)).toContain('<<<<<<< ours (reference_dash.md');
    });

    it('a cherry-pick (git names no THEIRS commit): the edited entry is kept, and the note says what to check', () => {
      const dir = diverged();
      const r = run(dir, 'cherry-pick', 'drop');
      expect(r.code, r.out).toBe(0);
      expect(r.out).toContain('reference_dash.md: deleted in theirs but edited in ours; the edited entry is kept (if reference_dash.md itself is gone after the merge, restore it or delete the entry)');
    });
  });

  it('rebases three commits onto a branch that also added entries, losing none', () => {
    const dir = setupRepo();
    const entries = ['f1', 'f2', 'f3'].map((_, i) => HEAD + e('user_role') + e('feedback_testing') + ['f1', 'f2', 'f3'].slice(0, i + 1).map((k) => e(k)).join(''));
    importCommits(dir, [
      ...entries.map((index, i) => ({ branch: 'feature', message: `feature f${i + 1}`, ...(i === 0 ? { from: 'main' } : {}), files: { [INDEX]: index } })),
      { branch: 'main', message: 'main', from: 'main', files: { [INDEX]: HEAD + e('user_role') + e('feedback_testing') + e('m1') + e('m2') } },
    ]);
    git(dir, 'checkout', '-q', 'feature');
    const r = run(dir, 'rebase', 'main');
    expect(r.code, r.out).toBe(0);
    const text = read(dir, INDEX);
    for (const k of ['user_role', 'feedback_testing', 'm1', 'm2', 'f1', 'f2', 'f3']) expect(entryCount(text, k)).toBe(1);
    expect(text).toBe(HEAD + e('user_role') + e('feedback_testing') + e('m1') + e('m2') + e('f1') + e('f2') + e('f3'));
    expect(git(dir, 'rev-list', '--count', 'main..feature').trim()).toBe('3');
    expect(status(dir)).toBe('');
  });

  it('cherry-picks an entry onto a branch that appended another', () => {
    const dir = setupRepo();
    importCommits(dir, [
      { branch: 'other', message: 'pick me', from: 'main', files: { [INDEX]: HEAD + e('user_role') + e('feedback_testing') + e('picked') } },
      { branch: 'main', message: 'main', from: 'main', files: { [INDEX]: HEAD + e('user_role') + e('feedback_testing') + e('mine') } },
    ]);
    const pick = git(dir, 'rev-parse', 'other').trim();
    const r = run(dir, 'cherry-pick', pick);
    expect(r.code, r.out).toBe(0);
    expect(read(dir, INDEX)).toBe(HEAD + e('user_role') + e('feedback_testing') + e('mine') + e('picked'));
  });

  it('applies a stash over a commit that appended another entry', () => {
    const dir = setupRepo();
    writeFiles(dir, { [INDEX]: HEAD + e('user_role') + e('feedback_testing') + e('stashed') });
    git(dir, 'stash', '-q');
    commit(dir, { [INDEX]: HEAD + e('user_role') + e('feedback_testing') + e('committed') }, 'main');
    const r = run(dir, 'stash', 'apply');
    expect(r.code, r.out).toBe(0);
    expect(read(dir, INDEX)).toBe(HEAD + e('user_role') + e('feedback_testing') + e('committed') + e('stashed'));
  });

  it('merges a criss-cross history, whose virtual base holds conflict markers, without losing a side', () => {
    const dir = setupRepo();
    git(dir, 'checkout', '-q', '-b', 'y');
    commit(dir, { [INDEX]: HEAD + e('user_role', 'y words') + e('feedback_testing') }, 'Y');
    git(dir, 'checkout', '-q', 'main');
    commit(dir, { [INDEX]: HEAD + e('user_role', 'x words') + e('feedback_testing') }, 'X');
    const x = git(dir, 'rev-parse', 'HEAD').trim();
    // Each side merges the other and settles the conflict its own way.
    expect(run(dir, 'merge', '--no-edit', 'y').code).toBe(1);
    commit(dir, { [INDEX]: HEAD + e('user_role', 'x words') + e('feedback_testing') }, 'M1');
    git(dir, 'checkout', '-q', 'y');
    expect(run(dir, 'merge', '--no-edit', x).code).toBe(1);
    commit(dir, { [INDEX]: HEAD + e('user_role', 'y words') + e('feedback_testing') }, 'M2');
    commit(dir, { [INDEX]: HEAD + e('user_role', 'y words') + e('feedback_testing') + e('y_later') }, 'Y2');
    git(dir, 'checkout', '-q', 'main');
    commit(dir, { [INDEX]: HEAD + e('user_role', 'x words') + e('feedback_testing') + e('x_later') }, 'X2');
    expect(git(dir, 'merge-base', '--all', 'main', 'y').trim().split('\n')).toHaveLength(2);
    const r = run(dir, 'merge', '--no-edit', 'y');
    expect(r.code).toBe(1);
    const text = read(dir, INDEX);
    expect(text).toContain(e('user_role', 'x words'));
    expect(text).toContain(e('user_role', 'y words'));
    expect(text).toMatch(/^<{7} ours \(user_role\.md: different on both sides, already in conflict in the merge base\)$/m);
    for (const k of ['feedback_testing', 'x_later', 'y_later']) expect(entryCount(text, k)).toBe(1);
  });

  it('merges an add/add of the same new memory folder (empty base) as a union', () => {
    const dir = setupRepo();
    const log = `${MEM}/logs/2026/11/2026-11-30.md`;
    const r = mergeDiverged(dir, { [`${MEM}/team/MEMORY.md`]: HEAD + e('shared') + e('theirs_only'), [log]: '# 2026-11-30\n\n- 10:00 theirs\n' }, { [`${MEM}/team/MEMORY.md`]: HEAD + e('shared') + e('ours_only'), [log]: '# 2026-11-30\n\n- 09:00 ours\n' });
    expect(r.code, r.out).toBe(0);
    expect(read(dir, `${MEM}/team/MEMORY.md`)).toBe(HEAD + e('shared') + e('ours_only') + e('theirs_only'));
    expect(read(dir, log)).toBe('# 2026-11-30\n\n- 09:00 ours\n- 10:00 theirs\n');
  });

  for (const size of [1, 3, 6, 9]) {
    it(`writes markers of exactly conflict-marker-size=${size}, and git merge-file does not run over them`, () => {
      const dir = setupRepo();
      commit(dir, { '.gitattributes': `${MEM}/**/*.md merge=memlint conflict-marker-size=${size}\n` }, 'marker size');
      const r = mergeDiverged(dir, { [INDEX]: HEAD + e('user_role', 'theirs words') + e('feedback_testing') }, { [INDEX]: HEAD + e('user_role', 'ours words') + e('feedback_testing') });
      expect(r.code).toBe(1);
      const [lt, eq, gt] = ['<', '=', '>'].map((c) => c.repeat(size));
      expect(read(dir, INDEX)).toBe(HEAD + `${lt} ours (user_role.md: edited on both sides)\n` + e('user_role', 'ours words') + `${eq}\n` + e('user_role', 'theirs words') + `${gt} theirs (user_role.md)\n` + e('feedback_testing'));
    });
  }

  it('writes CR-ended markers into an add/add of files with lone-CR line endings', () => {
    const dir = setupRepo();
    const cr = (t: string) => t.replace(/\n/g, '\r');
    const team = `${MEM}/team/MEMORY.md`;
    const r = mergeDiverged(dir, { [team]: cr(HEAD + e('shared', 'theirs words') + e('theirs_only')) }, { [team]: cr(HEAD + e('shared', 'ours words') + e('ours_only')) });
    expect(r.code).toBe(1);
    expect(read(dir, team)).toBe(
      cr(HEAD + '<<<<<<< ours (shared.md: added on both sides with different text)\n' + e('shared', 'ours words') + '=======\n' + e('shared', 'theirs words') + '>>>>>>> theirs (shared.md)\n' + e('ours_only') + e('theirs_only')),
    );
    expect(git(dir, 'diff', '--name-only', '--diff-filter=U').trim()).toBe(team);
  });

  it("falls back to git merge-file when memlint cannot start, so ours is never kept silently", () => {
    const dir = setupRepo('node_modules/.bin/memlint');
    const r = mergeDiverged(dir, { [INDEX]: HEAD + e('user_role') + e('feedback_testing') + e('theirs_new') }, { [INDEX]: HEAD + e('user_role') + e('feedback_testing') + e('ours_new') });
    expect(r.code).toBe(1);
    const text = read(dir, INDEX);
    expect(text).toBe(HEAD + e('user_role') + e('feedback_testing') + '<<<<<<< ours\n' + e('ours_new') + '=======\n' + e('theirs_new') + '>>>>>>> theirs\n');
  });

  it('falls back to git merge-file when node starts but the memlint script is missing (node exits 1)', () => {
    const dir = setupRepo('node ./dist/cli.js');
    const r = mergeDiverged(dir, { [INDEX]: HEAD + e('user_role') + e('feedback_testing') + e('theirs_new') }, { [INDEX]: HEAD + e('user_role') + e('feedback_testing') + e('ours_new') });
    expect(r.code).toBe(1);
    expect(read(dir, INDEX)).toBe(HEAD + e('user_role') + e('feedback_testing') + '<<<<<<< ours\n' + e('ours_new') + '=======\n' + e('theirs_new') + '>>>>>>> theirs\n');
  });

  it('leaves git\'s own conflict result when memlint fails before merging (exit 2, one line)', () => {
    // A memlint that cannot read THEIRS: it says so in one line, writes nothing, and the
    // configured command's git merge-file writes git's ordinary markers.
    const shim = join(tempDir('memlint-shim-'), 'memlint');
    writeFileSync(shim, `#!/bin/sh\nshift\nexec node "${CLI}" merge "$1" "$2" "$3.gone" "$4" "$5"\n`);
    chmodSync(shim, 0o755);
    const dir = setupRepo(shim);
    const r = mergeDiverged(dir, { [INDEX]: HEAD + e('user_role') + e('feedback_testing') + e('theirs_new') }, { [INDEX]: HEAD + e('user_role') + e('feedback_testing') + e('ours_new') });
    expect(r.code).toBe(1);
    expect(r.out).toMatch(new RegExp(`^memlint: merge of ${INDEX.replace(/\./g, '\\.')}: cannot read THEIRS \\S+\\.gone \\(no such file\\)$`, 'm'));
    expect(r.out).not.toContain('ENOENT');
    expect(read(dir, INDEX)).toBe(HEAD + e('user_role') + e('feedback_testing') + '<<<<<<< ours\n' + e('ours_new') + '=======\n' + e('theirs_new') + '>>>>>>> theirs\n');
  });

  it('runs in every linked worktree from the one shared config (no absolute worktree path)', () => {
    const dir = setupRepo('node_modules/.bin/memlint');
    const config = git(dir, 'config', 'merge.memlint.driver').trim();
    expect(config).toBe(driverCommand({ memlint: 'node_modules/.bin/memlint' }));
    expect(config).not.toContain(dir);
    const wt = join(tempDir('memlint-wt-'), 'wt');
    git(dir, 'worktree', 'add', '-q', '-b', 'wt', wt);
    // Each worktree has its own node_modules (npm install there); a marker file shows which ran.
    for (const top of [dir, wt]) {
      mkdirSync(join(top, 'node_modules', '.bin'), { recursive: true });
      const shim = join(top, 'node_modules', '.bin', 'memlint');
      writeFileSync(shim, `#!/bin/sh\necho "$PWD" >> "${join(top, 'node_modules', 'ran')}"\nexec node "${CLI}" "$@"\n`);
      chmodSync(shim, 0o755);
    }
    writeFileSync(join(dir, '.git', 'info', 'exclude'), 'node_modules/\n');
    git(dir, 'checkout', '-q', '-b', 'other');
    commit(dir, { [INDEX]: HEAD + e('user_role') + e('feedback_testing') + e('theirs_new') }, 'other');
    git(dir, 'checkout', '-q', 'main');
    commit(wt, { [INDEX]: HEAD + e('user_role') + e('feedback_testing') + e('wt_new') }, 'wt');
    const r = run(wt, 'merge', '--no-edit', 'other');
    expect(r.code, r.out).toBe(0);
    expect(read(wt, INDEX)).toBe(HEAD + e('user_role') + e('feedback_testing') + e('wt_new') + e('theirs_new'));
    expect(read(wt, 'node_modules/ran').trim()).toBe(wt);
    expect(status(wt)).toBe('');
  });

  it("in a linked worktree without node_modules, merges and rebases with the main worktree's memlint", () => {
    const dir = setupRepo('node_modules/.bin/memlint');
    // Only the main worktree ran npm install; a marker file shows which memlint ran and where.
    mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
    const shim = join(dir, 'node_modules', '.bin', 'memlint');
    writeFileSync(shim, `#!/bin/sh\necho "$PWD" >> "${join(dir, 'node_modules', 'ran')}"\nexec node "${CLI}" "$@"\n`);
    chmodSync(shim, 0o755);
    writeFileSync(join(dir, '.git', 'info', 'exclude'), 'node_modules/\n');
    const wt = join(tempDir('memlint-wt-'), 'wt');
    git(dir, 'worktree', 'add', '-q', '-b', 'wt', wt);
    git(dir, 'checkout', '-q', '-b', 'other');
    commit(dir, { [INDEX]: HEAD + e('user_role') + e('feedback_testing') + e('theirs_new') }, 'other');
    git(dir, 'checkout', '-q', 'main');
    commit(wt, { [INDEX]: HEAD + e('user_role') + e('feedback_testing') + e('wt_new') }, 'wt');
    const mine = git(wt, 'rev-parse', 'HEAD').trim();
    const merged = run(wt, 'merge', '--no-edit', 'other');
    expect(merged.code, merged.out).toBe(0);
    // sh is not asked to start a program that is not there, so it prints no "not found" line.
    expect(merged.out).not.toMatch(/not found/);
    expect(read(wt, INDEX)).toBe(HEAD + e('user_role') + e('feedback_testing') + e('wt_new') + e('theirs_new'));
    expect(read(dir, 'node_modules/ran').trim()).toBe(wt);
    git(wt, 'reset', '-q', '--hard', mine);
    const rebased = run(wt, 'rebase', 'other');
    expect(rebased.code, rebased.out).toBe(0);
    expect(read(wt, INDEX)).toBe(HEAD + e('user_role') + e('feedback_testing') + e('theirs_new') + e('wt_new'));
    expect(read(dir, 'node_modules/ran').trim().split('\n')).toEqual([wt, wt]);
    expect(status(wt)).toBe('');
  });

  it('merges and rebases in a repository whose index stat is settled (old files), touching nothing but OURS', () => {
    const dir = setupRepo();
    git(dir, 'checkout', '-q', '-b', 'feature');
    commit(dir, { [INDEX]: HEAD + e('user_role') + e('feedback_testing') + e('f1') }, 'f1');
    commit(dir, { [INDEX]: HEAD + e('user_role') + e('feedback_testing') + e('f1') + e('f2') }, 'f2');
    git(dir, 'checkout', '-q', 'main');
    commit(dir, { [INDEX]: HEAD + e('user_role') + e('feedback_testing') + e('m1') }, 'main');
    // Settle: every file old, the index's stat data refreshed, so nothing is racily clean.
    const past = new Date('2024-01-01T00:00:00Z');
    for (const f of git(dir, 'ls-files').trim().split('\n')) utimesSync(join(dir, f), past, past);
    git(dir, 'update-index', '--refresh');
    git(dir, 'checkout', '-q', 'feature');
    for (const f of git(dir, 'ls-files').trim().split('\n')) utimesSync(join(dir, f), past, past);
    git(dir, 'update-index', '--refresh');
    const topic = `${MEM}/feedback_testing.md`;
    const before = git(dir, 'ls-files', '--debug', topic);
    const r = run(dir, 'rebase', 'main');
    expect(r.code, r.out).toBe(0);
    expect(read(dir, INDEX)).toBe(HEAD + e('user_role') + e('feedback_testing') + e('m1') + e('f1') + e('f2'));
    expect(status(dir)).toBe('');
    // A file the merge had no reason to touch keeps its stat data: the driver wrote only OURS.
    expect(git(dir, 'ls-files', '--debug', topic)).toBe(before);
    expect(git(dir, 'ls-files', '--others').trim()).toBe('');
  });
});
