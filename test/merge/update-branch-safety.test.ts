// update-branch and what is not its to touch (issue 28, issue 24, contract §10 and §14): ignored
// local files, the repository's hooks, the branch's own base, and merges that would change nothing.
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitFiles, git, memlint } from '../helpers/repo.js';
import { cloneOf, entry, HEADER, hostedRepo, INDEX, MEM, snapshot, topicFile } from './hosted.js';

const SETTINGS = '.claude/settings.local.json';
const MINE = '{ "autoMemoryDirectory": "/home/me/private" }\n';

/** The base ignores .claude/settings.local.json; main then starts to commit one (and `onMain`). */
const teamStartsCommittingSettings = (onMain: Record<string, string>, onFeature: Record<string, string>) =>
  hostedRepo({
    base: { '.gitignore': `node_modules/\n${SETTINGS}\n` },
    onMain: { '.gitignore': 'node_modules/\n', [SETTINGS]: '{ "team": true }\n', ...onMain },
    onFeature,
  });

describe('update-branch never loses an ignored local file', () => {
  it.each([
    ['a true memory conflict (the merge is taken back)', { [INDEX]: HEADER + entry('user_role', 'main says this') + entry('project_deploys') }, { [INDEX]: HEADER + entry('user_role', 'feature says that') + entry('project_deploys') }],
    ['a clean merge', { [`${MEM}/feedback_main.md`]: topicFile('feedback_main') }, { [`${MEM}/project_feature.md`]: topicFile('project_feature') }],
  ])('refuses before merging when the base adds a path that is here as an ignored file: %s', (_, onMain, onFeature) => {
    const h = teamStartsCommittingSettings(onMain, onFeature);
    const runner = cloneOf(h, 'runner', 'feature');
    writeFileSync(join(runner, SETTINGS), MINE);
    expect(git(runner, 'status', '--porcelain', '--ignored')).toContain(`!! ${SETTINGS}`);
    const before = snapshot(runner);
    const r = memlint(runner, ['update-branch']);
    expect(r.code, r.stdout).toBe(2);
    expect(r.stderr).toBe(
      `memlint: origin/main adds "${SETTINGS}", which is here as a file git does not track (ignored or untracked): merging would overwrite it; move it aside, run update-branch, then put it back (update-branch touched nothing)\n`,
    );
    expect(readFileSync(join(runner, SETTINGS), 'utf8')).toBe(MINE);
    expect(snapshot(runner)).toBe(before);
  });
});

describe('update-branch runs no hook of the repository', () => {
  it('no hook runs in any of its git calls: merge, add, commit, merge --abort, push', () => {
    const h = hostedRepo({
      onMain: { [INDEX]: HEADER + entry('user_role') + entry('project_deploys') + entry('feedback_main'), [`${MEM}/feedback_main.md`]: topicFile('feedback_main') },
      onFeature: { [INDEX]: HEADER + entry('user_role') + entry('project_deploys') + entry('project_feature'), [`${MEM}/project_feature.md`]: topicFile('project_feature') },
    });
    const conflict = hostedRepo({
      onMain: { [INDEX]: HEADER + entry('user_role', 'main says this') + entry('project_deploys') },
      onFeature: { [INDEX]: HEADER + entry('user_role', 'feature says that') + entry('project_deploys') },
    });
    const ran = join(h.dir, 'hooks-ran.txt');
    const hooks = join(h.dir, 'hooks');
    mkdirSync(hooks);
    for (const name of ['post-index-change', 'reference-transaction', 'pre-commit', 'pre-merge-commit', 'prepare-commit-msg', 'commit-msg', 'post-commit', 'post-merge', 'pre-push', 'post-checkout', 'pre-auto-gc', 'post-rewrite']) {
      writeFileSync(join(hooks, name), `#!/bin/sh\necho ${name} >> '${ran}'\n`);
      chmodSync(join(hooks, name), 0o755);
    }
    for (const [repo, args, code] of [
      [cloneOf(h, 'runner', 'feature'), ['update-branch', '--push'], 0],
      [cloneOf(conflict, 'runner', 'feature'), ['update-branch'], 1],
    ] as const) {
      git(repo, 'config', 'core.hooksPath', hooks);
      // The hooks are live: git itself runs them.
      git(repo, 'update-ref', 'refs/probe', 'HEAD');
      expect(readFileSync(ran, 'utf8')).toContain('reference-transaction');
      rmSync(ran);
      const r = memlint(repo, [...args]);
      expect(r.code, r.stdout + r.stderr).toBe(code);
      expect(existsSync(ran) ? readFileSync(ran, 'utf8') : '').toBe('');
    }
  });
});

describe('update-branch and its own base (issue 24, contract §10)', () => {
  it('refuses, exit 2 and nothing changed, when REF is the branch itself or its upstream', () => {
    const h = hostedRepo({ onMain: { 'src/more.ts': 'export {};\n' }, onFeature: { 'src/feature.ts': 'export {};\n' } });
    const runner = cloneOf(h, 'runner');
    // main is behind origin/main: a merge of it made a no-op merge commit and pushed it to main.
    git(runner, 'reset', '-q', '--hard', 'HEAD~1');
    const remoteBefore = git(runner, 'ls-remote', 'origin', 'refs/heads/main');
    const before = snapshot(runner);
    for (const base of [[], ['--base', 'origin/main'], ['--base', 'main']]) {
      const r = memlint(runner, ['update-branch', '--push', ...base]);
      expect(r.code, r.stdout).toBe(2);
      expect(r.stderr).toMatch(base[1] === 'main' ? /^memlint: main is main itself: .*\(update-branch touched nothing\)\n$/ : /^memlint: origin\/main is main's own upstream: .*git pull \(update-branch touched nothing\)\n$/);
      expect(snapshot(runner)).toBe(before);
    }
    expect(git(runner, 'ls-remote', 'origin', 'refs/heads/main')).toBe(remoteBefore);
  });

  it('fast-forwards a branch with nothing of its own: no merge commit, pushed', () => {
    const h = hostedRepo({ onMain: { 'src/more.ts': 'export {};\n' }, onFeature: { 'src/feature.ts': 'export {};\n' } });
    const runner = cloneOf(h, 'runner', 'main');
    // A branch at main's previous commit, with nothing of its own.
    git(runner, 'checkout', '-q', '-b', 'behind', 'origin/main~1');
    git(runner, 'push', '-q', '-u', 'origin', 'behind');
    const r = memlint(runner, ['update-branch', '--push', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const main = git(runner, 'rev-parse', 'origin/main').trim();
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'fast-forward', commit: main, push: { status: 'pushed' } });
    expect(git(runner, 'rev-parse', 'HEAD').trim()).toBe(main);
    expect(git(runner, 'ls-remote', 'origin', 'refs/heads/behind').split('\t')[0]).toBe(main);
    expect(memlint(runner, ['update-branch']).stdout).toBe('behind is up to date with origin/main: nothing to merge\n');
  });

  it('makes no merge commit whose tree equals the base: up to date, nothing committed or pushed', () => {
    // The feature's one change landed on main too (a cherry-pick), with more after it.
    const same = { [`${MEM}/project_feature.md`]: topicFile('project_feature') };
    const h = hostedRepo({ onMain: { ...same, 'src/more.ts': 'export {};\n' }, onFeature: same });
    const runner = cloneOf(h, 'runner', 'feature');
    const head = git(runner, 'rev-parse', 'HEAD');
    const remoteBefore = git(runner, 'ls-remote', 'origin', 'refs/heads/feature');
    const r = memlint(runner, ['update-branch', '--push', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'up-to-date', commit: null, push: null });
    expect(r.stderr).toContain('would leave feature identical to it');
    expect(git(runner, 'rev-parse', 'HEAD')).toBe(head);
    expect(git(runner, 'status', '--porcelain')).toBe('');
    expect(git(runner, 'ls-remote', 'origin', 'refs/heads/feature')).toBe(remoteBefore);
    // With something of its own beside it, the merge is made as before.
    commitFiles(runner, { 'src/own.ts': 'export {};\n' }, 'feature: its own');
    expect(JSON.parse(memlint(runner, ['update-branch', '--json']).stdout).status).toBe('merged');
  });
});
