// The team loop through git itself, with the hooks memlint installs (contract §10): two clones of a
// bare remote. A push never fails because consolidation is due; the post-commit hook consolidates
// after a memory commit instead; pre-push refuses pushed memory that holds conflict markers (a
// `rebase --continue` commits them without the pre-commit hook) or a secret (`--no-verify`).
import { describe, expect, it } from 'vitest';
import { appendFileSync, cpSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { memlintInProcess } from '../helpers/in-process.js';
import { git, tempDir, writeFiles } from '../helpers/repo.js';
import { npmInstall, project, run, topic } from './helpers.js';

const MEM = '.claude/memory';
const env = { MEMLINT_TODAY: '2026-11-29', HUSKY: '' };

/** Alice's project pushed to a bare remote, and Bob's clone of it with npm's node_modules and the local setup. */
async function makeTeam(): Promise<string> {
  const base = tempDir('memlint-team-');
  const remote = join(base, 'remote.git');
  git(base, 'init', '-q', '--bare', '-b', 'main', remote);
  const alice = project();
  expect((await memlintInProcess(alice, ['install'])).code).toBe(0);
  git(alice, 'add', '-A');
  git(alice, 'commit', '-q', '-m', 'memlint install');
  git(alice, 'remote', 'add', 'origin', remote);
  expect(run(alice, ['push', '-q', '-u', 'origin', 'main'], env).code).toBe(0);
  renameSync(alice, join(base, 'alice'));
  const bob = join(base, 'bob');
  git(base, 'clone', '-q', remote, bob);
  git(bob, 'config', 'user.name', 'Bob');
  git(bob, 'config', 'user.email', 'bob@example.com');
  npmInstall(bob);
  expect((await memlintInProcess(bob, ['install', '--local'])).code).toBe(0);
  return base;
}

/**
 * The team, made once through the hooks and copied for each test (cp -r of the three repositories,
 * the remote's path in each clone's config rewritten to the copy's).
 */
let teamOnce: Promise<string> | undefined;
async function team(): Promise<{ alice: string; bob: string; remote: string }> {
  teamOnce ??= makeTeam();
  const made = await teamOnce;
  const base = tempDir('memlint-team-');
  cpSync(made, base, { recursive: true, verbatimSymlinks: true });
  for (const clone of ['alice', 'bob']) {
    const config = join(base, clone, '.git', 'config');
    writeFileSync(config, readFileSync(config, 'utf8').replaceAll(made, base));
  }
  return { alice: join(base, 'alice'), bob: join(base, 'bob'), remote: join(base, 'remote.git') };
}

const role = (line: string) => topic('Role', 'user', 'Backend lead on payments', `${line}\n`);

/** Alice's rebase onto Bob's pushed edit of the same line stops on a true conflict in user_role.md. */
async function conflictedRebase() {
  const { alice, bob, remote } = await team();
  writeFileSync(join(bob, MEM, 'user_role.md'), role('Reads diffs after descriptions.'));
  expect(run(bob, ['commit', '-q', '-am', 'bob: role'], env).code).toBe(0);
  expect(run(bob, ['push', '-q'], env).code).toBe(0);
  writeFileSync(join(alice, MEM, 'user_role.md'), role('Reads tests before diffs.'));
  expect(run(alice, ['commit', '-q', '-am', 'alice: role'], env).code).toBe(0);
  expect(run(alice, ['pull', '-q', '--rebase'], env).code).not.toBe(0);
  return { alice, remote };
}

describe('the team loop through git hooks', () => {
  it('refuses a push whose rebased commit holds conflict markers, naming file:line, and takes it once settled', async () => {
    // Both sides edited the same line: the driver leaves a true conflict; the person stages the
    // file as it is and continues, and git's sequencer commits it without the pre-commit hook.
    const { alice, remote } = await conflictedRebase();
    const markers = readFileSync(join(alice, MEM, 'user_role.md'), 'utf8');
    expect(markers).toMatch(/^<<<<<<< /m);
    git(alice, 'add', '-A');
    expect(run(alice, ['-c', 'core.editor=true', 'rebase', '--continue'], env).code).toBe(0);
    const line = markers.split('\n').findIndex((l) => l.startsWith('<<<<<<<')) + 1;
    const pushed = run(alice, ['push', '-q'], env);
    expect(pushed.code).not.toBe(0);
    const head = git(alice, 'rev-parse', '--short=7', 'HEAD').trim();
    expect(pushed.out).toContain(`${MEM}/user_role.md:${line}:1: Merge conflict left unresolved`);
    expect(pushed.out).toContain(`[no-conflict-markers] (commit ${head})`);
    expect(pushed.out).toMatch(/^memlint: nothing was pushed: pushed memory holds conflict markers \(above\); settle each conflict \("memlint resolve FILE" or by hand; a stray marker line, by deleting it\), then amend the commit named/m);
    expect(git(remote, 'log', '--format=%s', 'main')).not.toContain('alice: role');
    // Settled with a choice, amended: the push goes through.
    expect((await memlintInProcess(alice, ['resolve', '--ours', `${MEM}/user_role.md`])).code).toBe(0);
    expect(run(alice, ['commit', '-q', '--amend', '--no-edit'], env).code).toBe(0);
    expect(run(alice, ['push', '-q'], env).code).toBe(0);
    expect(git(remote, 'log', '--format=%s', '-1', 'main')).toBe('alice: role\n');
  });

  it('refuses a push whose conflict was settled by hand but kept its separator, and takes it once the line is gone', async () => {
    const { alice, remote } = await conflictedRebase();
    // Both sides kept by deleting the outer markers only: the separator stays between them.
    const file = join(alice, MEM, 'user_role.md');
    const settled = readFileSync(file, 'utf8').split('\n').filter((l) => !/^(?:<{7}|>{7}) /.test(l));
    writeFileSync(file, settled.join('\n'));
    git(alice, 'add', '-A');
    expect(run(alice, ['-c', 'core.editor=true', 'rebase', '--continue'], env).code).toBe(0);
    const pushed = run(alice, ['push', '-q'], env);
    expect(pushed.code).not.toBe(0);
    expect(pushed.out).toContain(`${MEM}/user_role.md:${settled.indexOf('=======') + 1}:1: Stray merge conflict marker (a separator left without its conflict): delete the line by hand [no-conflict-markers]`);
    expect(pushed.out).toContain('a stray marker line, by deleting it');
    expect(git(remote, 'log', '--format=%s', 'main')).not.toContain('alice: role');
    // resolve has no conflict to settle there: it names the line to delete, and does not say all is well.
    const asked = await memlintInProcess(alice, ['resolve']);
    expect(asked).toMatchObject({ code: 1, stdout: `marker    ${MEM}/user_role.md:${settled.indexOf('=======') + 1}: Stray merge conflict marker (a separator left without its conflict): delete the line by hand\n` });
    writeFileSync(file, settled.filter((l) => l !== '=======').join('\n'));
    expect(run(alice, ['commit', '-q', '-a', '--amend', '--no-edit'], env).code).toBe(0);
    expect(run(alice, ['push', '-q'], env).code).toBe(0);
    expect(git(remote, 'log', '--format=%s', '-1', 'main')).toBe('alice: role\n');
  });

  it('refuses a push of a secret committed with --no-verify, without printing it', async () => {
    const { bob } = await team();
    const token = `ghp_${'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'}`;
    appendFileSync(join(bob, MEM, 'user_role.md'), `Release job token: ${token}\n`);
    expect(run(bob, ['commit', '-q', '--no-verify', '-am', 'token'], env).code).toBe(0);
    const pushed = run(bob, ['push', '-q'], env);
    expect(pushed.code).not.toBe(0);
    expect(pushed.out).toMatch(new RegExp(`^${MEM}/user_role\\.md:8:\\d+: GitHub personal access token .*\\[no-secrets\\]`, 'm'));
    expect(pushed.out).toContain('remove each secret (and rotate it)');
    expect(pushed.out).not.toContain(token);
  });

  it('a push while consolidation is due succeeds with one line; the post-commit hook consolidates after the next memory commit', async () => {
    const { bob, remote } = await team();
    // Five memory commits without the hooks (HUSKY=0): daily logs to distil, due and not consolidated.
    for (let i = 0; i < 5; i++) {
      writeFiles(bob, { [`${MEM}/logs/2026/11/2026-11-2${i}.md`]: `- 09:00 — paired on the retry job ${i} [user_role]\n` });
      git(bob, 'add', '-A');
      expect(run(bob, ['commit', '-q', '-m', `log ${i}`], { ...env, HUSKY: '0' }).code).toBe(0);
    }
    const pushed = run(bob, ['push', '-q'], env);
    expect(pushed.code).toBe(0);
    expect(pushed.out).toBe('memlint: .claude/memory is due for consolidation and was pushed as it is; run "memlint consolidate .claude/memory" and commit it as "memory: consolidate" (the post-commit hook does so after your next memory commit)\n');
    expect(git(remote, 'rev-parse', 'main')).toBe(git(bob, 'rev-parse', 'HEAD'));
    // The next memory commit: post-commit consolidates right after it, and the push sends both.
    appendFileSync(join(bob, MEM, 'user_role.md'), 'Owns the retry job.\n');
    git(bob, 'add', '-A');
    const commit = run(bob, ['commit', '-q', '-m', 'role: retry job'], env);
    expect(commit.code, commit.out).toBe(0);
    expect(commit.out).toMatch(/^memlint: the memory was due, so memlint committed "memory: consolidate" [0-9a-f]{7} \(\.claude\/memory\) after your commit$/m);
    expect(git(bob, 'log', '--format=%s', '-2')).toBe('memory: consolidate\nrole: retry job\n');
    expect(git(bob, 'status', '--porcelain')).toBe('');
    expect(readFileSync(join(bob, MEM, 'user_role.md'), 'utf8')).toContain('- paired on the retry job 0 (2026-11-20)');
    const again = run(bob, ['push', '-q'], env);
    expect(again).toEqual({ code: 0, out: '' });
    expect(git(remote, 'log', '--format=%s', '-2', 'main')).toBe('memory: consolidate\nrole: retry job\n');
  });

  it('makes no consolidation commit while a rebase replays memory commits', async () => {
    const { alice, bob } = await team();
    for (let i = 0; i < 5; i++) {
      appendFileSync(join(bob, MEM, 'user_role.md'), `Note ${i}.\n`);
      expect(run(bob, ['commit', '-q', '-am', `note ${i}`], { ...env, HUSKY: '0' }).code).toBe(0);
    }
    writeFileSync(join(alice, 'src.txt'), 'code\n');
    git(alice, 'add', '-A');
    expect(run(alice, ['commit', '-q', '-m', 'code'], env).code).toBe(0);
    expect(run(alice, ['push', '-q'], env).code).toBe(0);
    const rebased = run(bob, ['pull', '-q', '--rebase'], env);
    expect(rebased.code).toBe(0);
    expect(git(bob, 'log', '--format=%s', '-6')).toBe('note 4\nnote 3\nnote 2\nnote 1\nnote 0\ncode\n');
  });
});
