// install, uninstall and doctor: their help, argument errors, what they write and what they report
// in this process (test/helpers/in-process.ts, the same main(); the launcher's exit codes and error
// lines are test/cli/'s); found on PATH and the hooks they install, run as git runs them.
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { memlintInProcess } from '../helpers/in-process.js';
import { CLI, git, memlint, tempDir, writeFiles } from '../helpers/repo.js';
import { files, installedProject, localConfig, npmInstall, project, run, topic } from './helpers.js';

// These tests share the run's HOME and are about hooks and the driver: the person running them has opted out of the link
// (docs/install.md), which test/install/team-link.test.ts covers in a HOME of its own.
const UNLINKED = { env: { MEMLINT_LINK: '0' } };

describe('memlint install / uninstall / doctor', () => {
  it('print their help', async () => {
    const dir = project();
    for (const cmd of ['install', 'uninstall', 'doctor']) {
      const r = await memlintInProcess(dir, [cmd, '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`Usage: memlint ${cmd}`);
    }
  });

  it('take no arguments: an extra word is exit 2 and nothing is done', async () => {
    const dir = project();
    await memlintInProcess(dir, ['install']);
    const before = files(dir);
    for (const cmd of ['install', 'uninstall', 'doctor']) {
      const r = await memlintInProcess(dir, [cmd, 'extra']);
      expect(r.code, cmd).toBe(2);
      expect(r.stderr).toBe(`memlint: unexpected argument extra (see "memlint ${cmd} --help")\n`);
    }
    expect(files(dir)).toEqual(before);
  });

  it("doctor names the hooks and prepare script an older memlint wrote, and install brings them up to date", async () => {
    // After an upgrade (npm i memlint@new) the committed hooks and prepare script stay the older
    // install's: here the pre-commit block without MEMLINT_HOOK (a broken config then stopped the
    // commit) and the unguarded prepare script (npm ci --omit=dev failed).
    const dir = project();
    expect((await memlintInProcess(dir, ['install'])).code).toBe(0);
    const hook = join(dir, '.husky/pre-commit');
    writeFileSync(hook, readFileSync(hook, 'utf8').replace('MEMLINT_HOOK=pre-commit "$memlint" --staged', '"$memlint" --staged'));
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    pkg.scripts.prepare = 'husky && memlint install --local';
    writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg, null, 2) + '\n');
    const stale = await memlintInProcess(dir, ['doctor'], UNLINKED);
    expect(stale.code).toBe(1);
    expect(stale.stdout).toMatch(/^FAIL  hooks: \.husky\/pre-commit, package\.json's prepare script are an older memlint's .*; commit what install changes; fix: memlint install$/m);
    expect((await memlintInProcess(dir, ['install'])).code).toBe(0);
    const fixed = await memlintInProcess(dir, ['doctor'], UNLINKED);
    expect(fixed.stdout).not.toContain('FAIL');
    expect(fixed.code).toBe(0);
  });

  it('installs everything, doctor reports it active, and a second install changes nothing', async () => {
    const dir = project();
    const before = await memlintInProcess(dir, ['doctor'], UNLINKED);
    expect(before.code).toBe(1);
    expect(before.stdout).toMatch(/^FAIL  hooks: core.hooksPath is not set.*; fix: memlint install$/m);
    expect(before.stdout).toMatch(/^FAIL  merge driver: merge.memlint.driver is not defined.*; fix: memlint install --local$/m);

    const r = await memlintInProcess(dir, ['install']);
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, '.gitattributes'), 'utf8')).toContain('.claude/memory/**/*.md merge=memlint');
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toBe('node_modules\n# >>> memlint consolidation lock and snapshot state stay local\n.consolidate-lock\n.snapshot-synced.json\n# <<< memlint\n');
    for (const hook of ['pre-commit', 'pre-push', 'post-commit', 'post-checkout', 'post-rewrite', 'post-merge']) {
      expect(readFileSync(join(dir, '.husky', hook), 'utf8')).toContain('\nmemlint=node_modules/.bin/memlint\n');
    }
    expect(readFileSync(join(dir, '.husky/pre-commit'), 'utf8')).toContain('  MEMLINT_HOOK=pre-commit "$memlint" --staged || ');
    expect(readFileSync(join(dir, '.husky/pre-push'), 'utf8')).toContain('  MEMLINT_HOOK=pre-push "$memlint" consolidate --pre-push || ');
    expect(readFileSync(join(dir, '.husky/post-commit'), 'utf8')).toContain('  MEMLINT_HOOK=post-commit "$memlint" consolidate --post-commit || echo');
    expect(readFileSync(join(dir, '.husky/post-checkout'), 'utf8')).toContain('  MEMLINT_HOOK=post-checkout "$memlint" touch || echo');
    expect(readFileSync(join(dir, '.husky/post-rewrite'), 'utf8')).toContain('  MEMLINT_HOOK=post-rewrite "$memlint" touch || echo');
    expect(readFileSync(join(dir, '.husky/post-merge'), 'utf8')).toContain('  MEMLINT_HOOK=post-merge "$memlint" touch || echo');
    expect(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).scripts.prepare).toBe('husky && memlint install --local || exit 0');
    const driver = git(dir, 'config', 'merge.memlint.driver').trim();
    expect(driver).toMatch(/^memlint=node_modules\/\.bin\/memlint; .* "\$memlint" merge %O %A %B %L %P/);
    expect(driver).not.toContain(dir);
    expect(git(dir, 'config', 'core.hooksPath').trim()).toBe('.husky/_');
    expect(existsSync(join(dir, '.husky/_/pre-push'))).toBe(true);

    const doctor = await memlintInProcess(dir, ['doctor'], UNLINKED);
    expect(doctor.stdout.trim().split('\n')).toHaveLength(9);
    expect(doctor.stdout).not.toContain('FAIL');
    expect(doctor.code).toBe(0);

    const snapshot = files(dir);
    const config = localConfig(dir);
    const again = await memlintInProcess(dir, ['install']);
    expect(again.stdout).toContain('already installed; nothing changed');
    expect(files(dir)).toEqual(snapshot);
    expect(localConfig(dir)).toBe(config);
  });

  it("gives a fresh clone its hooks and driver through the prepare script, as npm install runs it", async () => {
    const dir = await installedProject();
    const clone = join(tempDir(), 'clone');
    git(dir, 'clone', '-q', dir, clone);
    npmInstall(clone);
    expect((await memlintInProcess(clone, ['doctor'], UNLINKED)).code).toBe(1);
    const prepare = JSON.parse(readFileSync(join(clone, 'package.json'), 'utf8')).scripts.prepare as string;
    const r = spawnSync('sh', ['-c', prepare], { cwd: clone, encoding: 'utf8', env: { ...process.env, PATH: `${join(clone, 'node_modules/.bin')}:${(process.env.PATH ?? '').split(':').filter((p) => !p.includes('node_modules')).join(':')}` } });
    expect(r.status).toBe(0);
    const doctor = await memlintInProcess(clone, ['doctor'], UNLINKED);
    expect(doctor.stdout).not.toContain('FAIL');
    expect(doctor.code).toBe(0);
    // What the prepare script does is local: no tracked file changed.
    expect(git(clone, 'status', '--porcelain')).toBe('');
  });

  it('--dry-run changes nothing', async () => {
    const dir = project();
    const snapshot = files(dir);
    const config = localConfig(dir);
    const r = await memlintInProcess(dir, ['install', '--dry-run']);
    expect(r.stdout).toContain('.husky/pre-push: would create');
    expect(files(dir)).toEqual(snapshot);
    expect(localConfig(dir)).toBe(config);
  });

  it('keeps existing hook lines and scripts, and uninstall removes exactly what install added', async () => {
    const dir = project({ pkg: { name: 'app', scripts: { prepare: 'npm run build', test: 'vitest' }, devDependencies: { husky: '9.1.7' } } });
    writeFiles(dir, { '.husky/pre-commit': 'npx lint-staged\n', '.gitattributes': '*.png binary\n' });
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'existing setup');
    const snapshot = files(dir);
    const config = localConfig(dir);
    await memlintInProcess(dir, ['install']);
    const hook = readFileSync(join(dir, '.husky/pre-commit'), 'utf8');
    expect(hook.startsWith('npx lint-staged\n# >>> memlint\n# Lint the memory files being committed')).toBe(true);
    expect(hook).toContain('\nif [ "$memlint_staged" = none ]; then\n  :\nelif [ -n "$memlint" ]; then\n  MEMLINT_HOOK=pre-commit "$memlint" --staged || ');
    expect(hook.endsWith('\nfi\n# <<< memlint\n')).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).scripts).toEqual({ prepare: 'npm run build && (husky && memlint install --local || exit 0)', test: 'vitest' });
    const un = await memlintInProcess(dir, ['uninstall']);
    expect(un.code).toBe(0);
    expect(files(dir)).toEqual(snapshot);
    expect(localConfig(dir)).toBe(config);
    expect(existsSync(join(dir, '.husky/_'))).toBe(false);
  });

  it('--quiet: install and uninstall print nothing when all is well, and do the same work', async () => {
    const dir = project();
    const snapshot = files(dir);
    const config = localConfig(dir);
    const install = await memlintInProcess(dir, ['install', '--quiet']);
    expect(install).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(files(dir)).not.toEqual(snapshot);
    const un = await memlintInProcess(dir, ['uninstall', '--quiet']);
    expect(un).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(files(dir)).toEqual(snapshot);
    expect(localConfig(dir)).toBe(config);
    // Nothing left to remove: still nothing printed.
    expect(await memlintInProcess(dir, ['uninstall', '--quiet'])).toEqual({ code: 0, stdout: '', stderr: '' });
    expect((await memlintInProcess(dir, ['uninstall'])).stdout).toBe('memlint uninstall: nothing of memlint installed here\n');
  });

  it('never runs a husky found in the working tree: a committed node_modules/husky/bin.js does not run; install writes the stubs', async () => {
    const dir = project({ husky: false });
    const marker = join(tempDir(), 'husky-ran');
    writeFiles(dir, { 'node_modules/husky/bin.js': `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran');\n`, 'node_modules/husky/package.json': '{"name":"husky","version":"9.1.7","bin":"bin.js"}\n' });
    git(dir, 'add', '-f', 'node_modules/husky');
    git(dir, 'commit', '-q', '-m', 'a branch that commits its own husky');
    const r = await memlintInProcess(dir, ['install']);
    expect(r.code).toBe(0);
    expect(existsSync(marker)).toBe(false);
    expect(readFileSync(join(dir, '.husky/_/h'), 'utf8')).toContain('sh -e "$script" "$@"');
    expect(existsSync(join(dir, '.husky/_/pre-commit'))).toBe(true);
    // In a linked worktree too (install --local, what the prepare script and post-checkout run).
    const wt = join(tempDir(), 'wt');
    git(dir, 'worktree', 'add', '-q', '-b', 'side', wt);
    expect((await memlintInProcess(wt, ['install', '--local'])).code).toBe(0);
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(join(wt, '.husky/_/h'))).toBe(true);
  });

  it('works without husky installed: writes its own hook stubs, which run the hooks and respect HUSKY=0', async () => {
    const dir = project({ husky: false, pkg: { name: 'app', private: true, devDependencies: { memlint: '0.1.0' } } });
    const r = await memlintInProcess(dir, ['install']);
    expect(r.stdout).toContain('.husky/_: write hook stubs in this worktree');
    expect(r.stdout).toContain('note: husky is not in devDependencies');
    expect(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).scripts.prepare).toBe('memlint install --local || exit 0');
    expect(readFileSync(join(dir, '.husky/_/h'), 'utf8')).toContain('HUSKY');
    // A second install changes nothing and says only that: the husky note went with the prepare script it explains.
    const again = await memlintInProcess(dir, ['install']);
    expect(again.stdout.split('\n')[0]).toBe('memlint install: already installed; nothing changed');
    expect(again.stdout).not.toContain('husky');
    expect((await memlintInProcess(dir, ['doctor'], UNLINKED)).code).toBe(0);
    // The pre-commit hook really runs: a memory file that fails lint is refused...
    writeFiles(dir, { '.claude/memory/feedback_x.md': 'no frontmatter\n' });
    git(dir, 'add', '-A');
    // The stubs find the hook by cutting $0 in the shell: a PATH with no dirname or basename on it
    // (where husky's runner finds no hook and lets every commit through) still runs it.
    const bin = join(tempDir(), 'bin');
    mkdirSync(bin);
    for (const cmd of ['sh', 'git', 'node']) symlinkSync(execFileSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).trim(), join(bin, cmd));
    const refused = spawnGit(dir, ['commit', '-q', '-m', 'bad memory'], { PATH: bin });
    expect(refused.code).not.toBe(0);
    expect(refused.out).toContain('frontmatter');
    // ...unless HUSKY=0 says to skip hooks.
    expect(spawnGit(dir, ['commit', '-q', '-m', 'bad memory'], { HUSKY: '0' }).code).toBe(0);
  });

  it("doctor fails a driver command without the git merge-file fallback, and install writes it back", async () => {
    const dir = project();
    expect((await memlintInProcess(dir, ['install'])).code).toBe(0);
    // A hand-written driver: when memlint cannot start, git keeps ours with no markers.
    git(dir, 'config', 'merge.memlint.driver', 'node_modules/.bin/memlint merge %O %A %B %L %P');
    const r = await memlintInProcess(dir, ['doctor'], UNLINKED);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^FAIL  merge driver: merge\.memlint\.driver has no git merge-file fallback: when memlint cannot start, git keeps ours as it is and their side is silently missing; fix: memlint install --local$/m);
    expect((await memlintInProcess(dir, ['install', '--local'])).code).toBe(0);
    expect(git(dir, 'config', 'merge.memlint.driver')).toContain('git merge-file');
    expect((await memlintInProcess(dir, ['doctor'], UNLINKED)).stdout).toMatch(/^ok    merge driver: merge\.memlint\.driver defined \(memlint=node_modules[^\n]*\.\.\.\)$/m);
  });

  it('doctor names a driver command written before memlint tested for its program, and install --local rewrites it', async () => {
    const dir = project();
    expect((await memlintInProcess(dir, ['install'])).code).toBe(0);
    const earlier = "node_modules/.bin/memlint merge %O %A %B %L %P; s=$?; [ $s -eq 0 ] && exit 0; git merge-file --marker-size=%L -L ours -L base -L theirs %A %O %B; s=$?; [ $s -gt 127 ] && exit 1; exit $s";
    git(dir, 'config', 'merge.memlint.driver', earlier);
    const r = await memlintInProcess(dir, ['doctor'], UNLINKED);
    expect(r.stdout).toMatch(/^ok    merge driver: .*; an older command, which makes sh print a "not found" line in a worktree without node_modules\/\.bin\/memlint \(memlint install --local rewrites it\)$/m);
    expect((await memlintInProcess(dir, ['install', '--local'])).code).toBe(0);
    expect(git(dir, 'config', 'merge.memlint.driver')).toMatch(/^memlint=node_modules\/\.bin\/memlint; /);
    expect((await memlintInProcess(dir, ['doctor'], UNLINKED)).stdout).not.toContain('an older command');
  });

  it('works from a linked worktree, and doctor names what a new worktree lacks', async () => {
    const dir = await installedProject();
    const wt = join(tempDir(), 'wt');
    // HUSKY=0: no hook runs, so post-checkout does not set the new worktree up (it does otherwise).
    expect(run(dir, ['worktree', 'add', '-q', '-b', 'side', wt], { HUSKY: '0' }).code).toBe(0);
    const fresh = await memlintInProcess(wt, ['doctor'], UNLINKED);
    expect(fresh.code).toBe(1);
    expect(fresh.stdout).toMatch(/^FAIL  hooks: no husky hook stubs in this worktree \(\.husky\/_\/ is missing; linked worktrees do not share them\): no hook runs here; fix: memlint install --local$/m);
    // The installed hooks run the main worktree's memlint where this one has none (docs/install.md): doctor says so, not that they fail.
    expect(fresh.stdout).toMatch(/^ok    memlint: this worktree has no node_modules\/\.bin\/memlint: the hooks and the merge driver run the main worktree's \(.*node_modules\/\.bin\/memlint; "npm install" here gives this worktree its own, and npx its memlint\)$/m);
    expect(fresh.stdout).toMatch(/^ok    merge driver: merge.memlint.driver defined; this worktree has no node_modules\/\.bin\/memlint, so merges run the main worktree's \(.*\)$/m);
    expect(fresh.stdout).toMatch(/^ok    attributes:/m);
    npmInstall(wt);
    const local = await memlintInProcess(wt, ['install', '--local']);
    expect(local.code).toBe(0);
    expect((await memlintInProcess(wt, ['doctor'], UNLINKED)).code).toBe(0);
    // A full install from the linked worktree finds everything in place.
    expect((await memlintInProcess(wt, ['install'])).stdout).toContain('already installed');
  });

  it('a full install run first from a linked worktree sets up that worktree', async () => {
    const dir = project();
    const wt = join(tempDir(), 'wt');
    git(dir, 'worktree', 'add', '-q', '-b', 'side', wt);
    npmInstall(wt);
    expect((await memlintInProcess(wt, ['install'])).code).toBe(0);
    expect((await memlintInProcess(wt, ['doctor'], UNLINKED)).code).toBe(0);
    expect(readFileSync(join(wt, '.gitattributes'), 'utf8')).toContain('.claude/memory/**/*.md merge=memlint');
    expect(existsSync(join(dir, '.gitattributes'))).toBe(false);
  });

  it('doctor sees a driver named in .gitattributes but not defined, and a lock that is not ignored', async () => {
    const dir = project();
    await memlintInProcess(dir, ['install']);
    git(dir, 'config', '--unset', 'merge.memlint.driver');
    writeFileSync(join(dir, '.gitignore'), 'node_modules\n');
    const r = await memlintInProcess(dir, ['doctor', '--json'], UNLINKED);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out.checks.filter((c: { ok: boolean }) => !c.ok).map((c: { part: string }) => c.part)).toEqual(['merge driver', 'lock']);
  });

  it('asks git where the repository is once a run: install, install --local, doctor and touch', async () => {
    const dir = project();
    // Counted from git's own trace (GIT_TRACE2_EVENT): the runs that ask `rev-parse --show-toplevel`.
    const asked = async (args: string[]) => {
      const trace = join(tempDir('memlint-trace-'), 'trace.json');
      const r = await memlintInProcess(dir, args, { env: { GIT_TRACE2_EVENT: trace, MEMLINT_LINK: '0' } });
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      const starts = readFileSync(trace, 'utf8').split('\n').filter((l) => l.includes('"event":"start"'));
      return starts.filter((l) => l.includes('"--show-toplevel"')).length;
    };
    for (const args of [['install'], ['install', '--local'], ['doctor'], ['touch']]) expect(await asked(args), args.join(' ')).toBe(1);
  });

  it('lists the files of the repository once a run: install finds the memdirs it covers and touches them in one look', async () => {
    const dir = project();
    const listed = async (args: string[]) => {
      const trace = join(tempDir('memlint-trace-'), 'trace.json');
      const r = await memlintInProcess(dir, args, { env: { GIT_TRACE2_EVENT: trace, MEMLINT_LINK: '0' } });
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      const starts = readFileSync(trace, 'utf8').split('\n').filter((l) => l.includes('"event":"start"'));
      return starts.filter((l) => l.includes('"ls-files"') && l.includes('"--others"')).length;
    };
    for (const args of [['install'], ['install', '--local']]) expect(await listed(args), args.join(' ')).toBe(1);
  });

  it('covers every memdir of the repository in .gitattributes', async () => {
    const dir = project();
    mkdirSync(join(dir, '.claude/agent-memory/reviewer'), { recursive: true });
    writeFiles(dir, {
      '.claude/agent-memory/reviewer/MEMORY.md': '- [Style](style.md) — terse\n',
      '.claude/agent-memory/reviewer/style.md': topic('Style', 'feedback', 'terse', 'x\n'),
    });
    await memlintInProcess(dir, ['install']);
    const attrs = readFileSync(join(dir, '.gitattributes'), 'utf8');
    expect(attrs).toContain('.claude/memory/**/*.md merge=memlint');
    expect(attrs).toContain('.claude/agent-memory/reviewer/**/*.md merge=memlint');
    expect(git(dir, 'check-attr', 'merge', '--', '.claude/agent-memory/reviewer/logs/2026/01/2026-01-02.md')).toContain('merge: memlint');
  });
});

import { execFileSync, spawnSync } from 'node:child_process';
function spawnGit(cwd: string, args: string[], env: Record<string, string> = {}): { code: number; out: string } {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...env } });
  return { code: r.status ?? -1, out: `${r.stdout}${r.stderr}` };
}

describe('memlint install outside npm', () => {
  it('starts a memlint found on PATH when the repository has no package.json', () => {
    const dir = project();
    git(dir, 'rm', '-q', 'package.json');
    git(dir, 'commit', '-q', '-m', 'not an npm project');
    const bin = join(tempDir(), 'bin');
    mkdirSync(bin);
    symlinkSync(CLI, join(bin, 'memlint'));
    spawnSync('rm', ['-rf', join(dir, 'node_modules')]);
    const env = { PATH: `${bin}:${process.env.PATH}` };
    const r = memlint(dir, ['install'], { env });
    expect(r.stdout).toContain('note: no package.json');
    expect(readFileSync(join(dir, '.husky/pre-commit'), 'utf8')).toContain('\nmemlint=$(command -v memlint 2>/dev/null || :)\nif [ "$memlint_staged" = none ]; then\n  :\nelif [ -n "$memlint" ]; then\n  MEMLINT_HOOK=pre-commit "$memlint" --staged || ');
    expect(git(dir, 'config', 'merge.memlint.driver')).toMatch(/^memlint merge %O %A %B %L %P/);
    const doctor = memlint(dir, ['doctor'], { env: { ...env, MEMLINT_LINK: '0' } });
    expect(doctor.stdout).toMatch(/^ok    memlint: git's shell finds it at /m);
    expect(doctor.code).toBe(0);
  });
});
