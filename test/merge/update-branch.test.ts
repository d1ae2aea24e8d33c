// `memlint update-branch` against a bare origin, as a CI runner uses it: a fresh clone with no
// memlint config, the pull request's branch checked out, main moved on since.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { commitFiles, git, memlint, tempDir } from '../helpers/repo.js';
import { cloneOf, entry, HEADER, hostedRepo, INDEX, installPackage, MEM, packPackage, snapshot, topicFile } from './hosted.js';

const read = (dir: string, rel: string) => readFileSync(join(dir, rel), 'utf8');
const count = (text: string, key: string) => text.split('\n').filter((l) => l.includes(`](${key}.md)`)).length;

function sh(cwd: string, cmd: string, args: string[]): { code: number; out: string } {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status ?? -1, out: `${r.stdout}${r.stderr}` };
}

/** main adds one memory, feature another: git's line merge conflicts on MEMORY.md. */
const bothAdd = (extraMain: Record<string, string> = {}, extraFeature: Record<string, string> = {}) =>
  hostedRepo({
    onMain: { [INDEX]: HEADER + entry('user_role') + entry('project_deploys') + entry('feedback_main'), [`${MEM}/feedback_main.md`]: topicFile('feedback_main'), ...extraMain },
    onFeature: { [INDEX]: HEADER + entry('user_role') + entry('project_deploys') + entry('project_feature'), [`${MEM}/project_feature.md`]: topicFile('project_feature'), ...extraFeature },
  });

describe('memlint update-branch', () => {
  let tarball: string;
  beforeAll(() => {
    tarball = packPackage();
  });

  it('from a clone with only git clone and the installed package, makes the branch mergeable without a driver', () => {
    const h = bothAdd();
    // Without memlint, the pull request conflicts on MEMORY.md (what the host shows).
    const probe = cloneOf(h, 'probe', 'main');
    expect(sh(probe, 'git', ['merge', '--no-edit', 'origin/feature']).code).toBe(1);

    const runner = cloneOf(h, 'runner', 'feature');
    const bin = installPackage(runner, tarball);
    expect(sh(runner, 'git', ['config', '--get', 'merge.memlint.driver']).code).toBe(1);
    const before = git(runner, 'rev-parse', 'HEAD').trim();
    const r = sh(runner, bin, ['update-branch', '--push']);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain(`driver  ${INDEX}`);
    expect(r.out).toContain('pushed to origin feature');
    const parents = git(runner, 'log', '-1', '--format=%P').trim().split(' ');
    expect(parents).toEqual([before, git(runner, 'rev-parse', 'origin/main').trim()]);
    const message = git(runner, 'log', '-1', '--format=%B');
    expect(message).toMatch(/^Merge remote-tracking branch 'origin\/main' into feature\n/);
    expect(message).toContain(`Memory files merged by the memlint driver:\n- ${INDEX}\n`);
    expect(git(runner, 'status', '--porcelain')).toBe('');

    // The host's merge (no driver anywhere) of the updated branch into main is now clean.
    const host = cloneOf(h, 'host', 'main');
    expect(sh(host, 'git', ['config', '--get', 'merge.memlint.driver']).code).toBe(1);
    const merged = sh(host, 'git', ['merge', '--no-edit', 'origin/feature']);
    expect(merged.code, merged.out).toBe(0);
    const index = read(host, INDEX);
    for (const k of ['user_role', 'project_deploys', 'feedback_main', 'project_feature']) expect(count(index, k), k).toBe(1);
    expect(read(host, `${MEM}/project_feature.md`)).toBe(topicFile('project_feature'));
    expect(read(host, `${MEM}/feedback_main.md`)).toBe(topicFile('feedback_main'));
  });

  it('settles with resolve where no .gitattributes routes memory to the driver', () => {
    const h = hostedRepo({
      attributes: false,
      onMain: { [INDEX]: HEADER + entry('user_role') + entry('project_deploys') + entry('feedback_main') },
      onFeature: { [INDEX]: HEADER + entry('user_role') + entry('project_deploys') + entry('project_feature') },
    });
    const runner = cloneOf(h, 'runner', 'feature');
    const r = memlint(runner, ['update-branch', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(json).toMatchObject({ status: 'merged', base: 'origin/main', branch: 'feature', settled: [{ path: INDEX, by: 'resolve' }], conflicts: [], push: null });
    expect(json.commit).toBe(git(runner, 'rev-parse', 'HEAD').trim());
    expect(git(runner, 'log', '-1', '--format=%B')).toContain(`Memory files settled by memlint resolve:\n- ${INDEX}\n`);
    expect(read(runner, INDEX)).toBe(HEADER + entry('user_role') + entry('project_deploys') + entry('project_feature') + entry('feedback_main'));
  });

  it('takes the merge back when a source file conflicts beside the memory: refs, index and working tree as before, exit 1', () => {
    const h = bothAdd({ 'src/app.ts': 'export const answer = 43;\n' }, { 'src/app.ts': 'export const answer = 41;\n' });
    const runner = cloneOf(h, 'runner', 'feature');
    writeFileSync(join(runner, 'notes.txt'), 'an untracked file stays\n');
    const before = snapshot(runner);
    const r = memlint(runner, ['update-branch']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toContain('conflict  src/app.ts: not a memory file');
    expect(r.stdout).toContain('was taken back');
    expect(snapshot(runner)).toBe(before);
  });

  it('takes the merge back on a true memory conflict (an entry edited differently on both sides), exit 1', () => {
    const h = hostedRepo({
      onMain: { [INDEX]: HEADER + entry('user_role', 'main says this') + entry('project_deploys') },
      onFeature: { [INDEX]: HEADER + entry('user_role', 'feature says that') + entry('project_deploys') },
    });
    const runner = cloneOf(h, 'runner', 'feature');
    const before = snapshot(runner);
    const r = memlint(runner, ['update-branch', '--json']);
    expect(r.code).toBe(1);
    const json = JSON.parse(r.stdout);
    expect(json.status).toBe('conflict');
    expect(json.conflicts).toEqual([{ path: INDEX, memory: true, reason: expect.stringContaining('user_role.md: edited on both sides') }]);
    expect(json.commit).toBeNull();
    expect(snapshot(runner)).toBe(before);
  });

  it('is up to date: exit 0, no commit, no push; a second run after a merge is up to date too', () => {
    const h = bothAdd();
    const runner = cloneOf(h, 'runner', 'feature');
    expect(memlint(runner, ['update-branch']).code).toBe(0);
    const head = git(runner, 'rev-parse', 'HEAD');
    const again = memlint(runner, ['update-branch', '--push']);
    expect(again).toMatchObject({ code: 0, stdout: 'feature is up to date with origin/main: nothing to merge\n' });
    expect(git(runner, 'rev-parse', 'HEAD')).toBe(head);
    expect(git(runner, 'rev-parse', 'origin/feature')).not.toBe(head);
  });

  it('refuses a dirty tree and a merge in progress with exit 2, touching nothing', () => {
    const h = bothAdd();
    const runner = cloneOf(h, 'runner', 'feature');
    writeFileSync(join(runner, 'src/app.ts'), 'export const answer = 0;\n');
    let before = snapshot(runner);
    const dirty = memlint(runner, ['update-branch']);
    expect(dirty.code).toBe(2);
    expect(dirty.stderr).toBe('memlint: uncommitted changes (src/app.ts): commit or stash them first (update-branch touched nothing)\n');
    expect(snapshot(runner)).toBe(before);

    git(runner, 'checkout', '--', 'src/app.ts');
    expect(sh(runner, 'git', ['merge', '--no-edit', 'origin/main']).code).toBe(1);
    before = snapshot(runner);
    const mid = memlint(runner, ['update-branch']);
    expect(mid.code).toBe(2);
    expect(mid.stderr).toMatch(/^memlint: a merge is in progress here/);
    expect(snapshot(runner)).toBe(before);
  });

  it('exits 2 touching nothing when git will not start the merge (an untracked file in the way)', () => {
    const h = bothAdd();
    const runner = cloneOf(h, 'runner', 'feature');
    writeFileSync(join(runner, MEM, 'feedback_main.md'), 'my own notes\n');
    const before = snapshot(runner);
    const r = memlint(runner, ['update-branch']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `memlint: origin/main adds "${MEM}/feedback_main.md", which is here as a file git does not track (ignored or untracked): merging would overwrite it; move it aside, run update-branch, then put it back (update-branch touched nothing)\n`,
    );
    expect(snapshot(runner)).toBe(before);
  });

  it('reports a push rejected because the branch moved on origin meanwhile, exit 1', () => {
    const h = bothAdd();
    const runner = cloneOf(h, 'runner', 'feature');
    // Someone pushes to the pull request's branch after the runner fetched.
    git(h.author, 'checkout', '-q', 'feature');
    commitFiles(h.author, { 'src/other.ts': 'export {};\n' }, 'feature: more work');
    git(h.author, 'push', '-q', 'origin', 'feature');
    const remoteBefore = git(h.author, 'ls-remote', 'origin', 'refs/heads/feature');
    const r = memlint(runner, ['update-branch', '--push', '--json']);
    expect(r.code, r.stderr).toBe(1);
    const json = JSON.parse(r.stdout);
    expect(json.status).toBe('merged');
    expect(json.push).toMatchObject({ remote: 'origin', ref: 'refs/heads/feature', status: 'rejected' });
    expect(git(h.author, 'ls-remote', 'origin', 'refs/heads/feature')).toBe(remoteBefore);
    // A fresh run, from a clone that has the moved branch, pushes.
    const fresh = memlint(cloneOf(h, 'runner2', 'feature'), ['update-branch', '--push']);
    expect(fresh.code, fresh.stderr).toBe(0);
  });

  it('takes --base, says what is missing, and has --help', () => {
    const h = bothAdd();
    const runner = cloneOf(h, 'runner', 'feature');
    git(runner, 'remote', 'set-head', 'origin', '-d');
    // Without origin/HEAD, origin/main alone is the default branch; with origin/master too, it is unknown.
    git(runner, 'update-ref', 'refs/remotes/origin/master', 'origin/main');
    const noHead = memlint(runner, ['update-branch']);
    expect(noHead.code).toBe(2);
    expect(noHead.stderr).toBe('memlint: origin/HEAD is not set, so the default branch is unknown: pass --base origin/main, or run "git remote set-head origin --auto"\n');
    expect(memlint(runner, ['update-branch', '--base', 'origin/nope']).stderr).toBe('memlint: --base origin/nope: no such branch or commit here (update-branch does not fetch: git fetch first)\n');
    expect(memlint(runner, ['update-branch', 'extra']).code).toBe(2);
    git(runner, 'checkout', '-q', '--detach');
    expect(memlint(runner, ['update-branch', '--push', '--base', 'origin/main']).stderr).toMatch(/^memlint: --push needs a branch, and HEAD is detached/);
    git(runner, 'checkout', '-q', 'feature');
    const ok = memlint(runner, ['update-branch', '--base', 'origin/main']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(memlint(tempDir(), ['update-branch']).stderr).toBe('memlint: update-branch works inside a git repository (with a working tree)\n');
    const help = memlint(runner, ['update-branch', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: memlint update-branch [--base REF] [--push] [--json]');
  });
});
