// A config memlint cannot use (a value it does not know) is memlint's own problem: every git hook
// says so in one line and lets git go on (pre-commit and pre-push still refuse conflict markers and secrets,
// checked with the default settings), while lint refuses it (exit 2) and doctor fails on it,
// naming the key and the values allowed. Keys and rule options nothing reads are warnings in lint
// and doctor (trial finding 10: onPush "warn" stopped every push while lint and doctor said all
// was well). The hooks run as git runs them; lint and doctor by hand in this process
// (test/helpers/in-process.ts: the same main()), --staged (the launcher's) through the built CLI.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { memlintInProcess } from '../helpers/in-process.js';
import { git, memlint } from '../helpers/repo.js';
import { append, installedWithRemote, project, run } from './helpers.js';

const env = { MEMLINT_TODAY: '2026-11-29', HUSKY: '' };


describe('an invalid config', () => {
  it('never stops a commit or a push: each hook says so in one line; lint exits 2 and doctor fails, naming the key', async () => {
    const { repo: dir } = await installedWithRemote(env);
    writeFileSync(join(dir, '.memlintrc.json'), '{ "consolidate": { "onPush": "warn" } }\n');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '--no-verify', '-m', 'config');
    append(dir, '.claude/memory/MEMORY.md', '- [Deploy](project_deploy.md) — deploys\n');
    writeFileSync(join(dir, '.claude/memory/project_deploy.md'), '---\nname: Deploy\ndescription: Deploys\ntype: project\n---\n\nFridays.\n');
    git(dir, 'add', '-A');
    const commit = run(dir, ['commit', '-q', '-m', 'memory'], env);
    expect(commit.code, commit.out).toBe(0);
    const allowed = 'consolidate.onPush is "warn"; use "advise", "check" or "block"';
    expect(commit.out).toContain(allowed);
    expect(commit.out).toContain('the pre-commit hook checked the staged memory for conflict markers and secrets only, with the default settings, and let git go on');
    expect(commit.out).not.toContain('did not run (exit');
    const push = run(dir, ['push', '-q'], env);
    expect(push.code, push.out).toBe(0);
    expect(push.out.trim().split('\n')).toHaveLength(1);
    expect(push.out).toContain(`${allowed}; the pre-push hook checked the pushed memory for conflict markers and secrets with the default settings`);
    expect(git(dir, 'rev-parse', 'HEAD')).toBe(git(dir, 'rev-parse', 'origin/main'));

    const lint = await memlintInProcess(dir, []);
    expect(lint.code).toBe(2);
    expect(lint.stderr).toBe(`memlint: config ${join(dir, '.memlintrc.json')}: ${allowed}\n`);
    const doctor = await memlintInProcess(dir, ['doctor']);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout.split('\n')[0]).toMatch(/^FAIL {2}config: \.memlintrc\.json: consolidate\.onPush is "warn"; use "advise", "check" or "block" .*fix: /);
    expect(doctor.stderr).toBe('');
    const json = JSON.parse((await memlintInProcess(dir, ['doctor', '--json'])).stdout) as { ok: boolean; checks: Array<{ part: string; ok: boolean }> };
    expect(json.checks.find((c) => c.part === 'config')?.ok).toBe(false);
  });

  it('a rule config error (an unknown rule) lets the commit go on through the hook, and is refused by lint', async () => {
    const { repo: dir } = await installedWithRemote(env);
    writeFileSync(join(dir, '.memlintrc.json'), '{ "rules": { "index-line-lenght": "warn" } }\n');
    append(dir, '.claude/memory/MEMORY.md', '\n');
    git(dir, 'add', '-A');
    const commit = run(dir, ['commit', '-q', '-m', 'memory'], env);
    expect(commit.code, commit.out).toBe(0);
    expect(commit.out).toContain('unknown rule "index-line-lenght" in config: did you mean "index-line-length"?');
    expect(memlint(dir, ['--staged']).code).toBe(0); // nothing staged
    expect((await memlintInProcess(dir, [])).code).toBe(2);
    expect((await memlintInProcess(dir, ['doctor'])).stdout).toMatch(/^FAIL {2}config: unknown rule "index-line-lenght"/);
  });

  it('the pre-commit hook still refuses staged conflict markers and secrets, checked with the default settings', async () => {
    const { repo: dir } = await installedWithRemote(env);
    // The broken config would turn no-secrets off and allow nothing: the default settings stand in for it.
    writeFileSync(join(dir, '.memlintrc.json'), '{ "consolidate": { "onPush": "warn" }, "rules": { "no-secrets": "off" } }\n');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '--no-verify', '-m', 'config');
    const allowed = 'consolidate.onPush is "warn"; use "advise", "check" or "block"';
    const token = `ghp_${'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'}`;
    append(dir, '.claude/memory/user_role.md', `Release job token: ${token}\n`);
    append(dir, '.claude/memory/MEMORY.md', '<<<<<<< HEAD\n- [A](a.md) — ours\n=======\n- [A](a.md) — theirs\n>>>>>>> other\n');
    git(dir, 'add', '-A');
    const refused = run(dir, ['commit', '-q', '-m', 'markers and a secret'], env);
    expect(refused.code, refused.out).toBe(1);
    expect(refused.out).toMatch(/^\.claude\/memory\/MEMORY\.md:6:1 +error .* no-conflict-markers$/m);
    expect(refused.out).toMatch(/^\.claude\/memory\/user_role\.md:8:20 +error .* no-secrets$/m);
    expect(refused.out).not.toContain(token);
    // Only those two rules: the entries pointing at no file are no reason to stop a commit here.
    expect(refused.out).not.toContain('index-link-target');
    expect(refused.out).toContain(`${allowed}; the pre-commit hook checked the staged memory for conflict markers and secrets only, with the default settings`);
    expect(git(dir, 'log', '--format=%s', '-1')).toBe('config\n');

    // Without them, the commit goes on (another rule's error aside) with the one config line.
    git(dir, 'checkout', '-q', 'HEAD', '--', '.claude/memory');
    append(dir, '.claude/memory/MEMORY.md', '- [Gone](gone.md) — points at no file\n');
    git(dir, 'add', '-A');
    const commit = run(dir, ['commit', '-q', '-m', 'memory'], env);
    expect(commit.code, commit.out).toBe(0);
    expect(commit.out.trim().split('\n').filter((l) => !l.includes('post-commit hook'))).toEqual([
      `memlint: config ${join(dir, '.memlintrc.json')}: ${allowed}; the pre-commit hook checked the staged memory for conflict markers and secrets only, with the default settings, and let git go on (fix the config; "memlint doctor" checks it)`,
    ]);
  });

  it('still refuses a push whose memory holds conflict markers: checked with the default settings', async () => {
    const { repo: dir } = await installedWithRemote(env);
    writeFileSync(join(dir, '.memlintrc.json'), '{ "consolidate": { "onPush": "warn" } }\n');
    append(dir, '.claude/memory/MEMORY.md', '<<<<<<< HEAD\n- [A](a.md) — ours\n=======\n- [A](a.md) — theirs\n>>>>>>> other\n');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '--no-verify', '-m', 'markers');
    const push = run(dir, ['push', '-q'], env);
    expect(push.code, push.out).not.toBe(0);
    expect(push.out).toContain('[no-conflict-markers]');
    expect(push.out).toMatch(/^memlint: nothing was pushed: pushed memory holds conflict markers/m);
  });

  // A team trial (December 2026): with an unknown rule the pre-push hook skipped its checks and a
  // secret was pushed; with a folder outside the repository it exited 2 and stopped every push.
  it.each([
    ['an unknown rule', '{ "rules": { "no-such-rule": "error" } }', 'unknown rule "no-such-rule"'],
    ['memoryDirs outside the repository', '{ "memoryDirs": ["../elsewhere"] }', 'config memoryDirs: "../elsewhere"'],
    ['an archiveDir inside the memory folder', '{ "consolidate": { "archiveDir": "." } }', 'config consolidate.archiveDir'],
  ])('with %s: a push of clean memory goes on, and a pushed secret is still refused', async (_, config, said) => {
    const { repo: dir } = await installedWithRemote(env);
    writeFileSync(join(dir, '.memlintrc.json'), `${config}\n`);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '--no-verify', '-m', 'config');
    append(dir, '.claude/memory/MEMORY.md', '- [Deploy](project_deploy.md) — deploys\n');
    writeFileSync(join(dir, '.claude/memory/project_deploy.md'), '---\nname: Deploy\ndescription: Deploys\ntype: project\n---\n\nFridays.\n');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '--no-verify', '-m', 'memory');
    const clean = run(dir, ['push', '-q'], env);
    expect(clean.code, clean.out).toBe(0);
    expect(clean.out).toContain(said);
    expect(clean.out).toContain('the pre-push hook checked the pushed memory for conflict markers and secrets with the default settings');
    append(dir, '.claude/memory/project_deploy.md', 'CI token ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8\n');
    git(dir, 'commit', '-q', '--no-verify', '-am', 'secret');
    const secret = run(dir, ['push', '-q'], env);
    expect(secret.code, secret.out).not.toBe(0);
    expect(secret.out).toContain('[no-secrets]');
    expect(secret.out).toMatch(/^memlint: nothing was pushed: pushed memory holds a secret/m);
    expect(secret.out).not.toContain('ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8');
  });

  it('keys and rule options nothing reads are warnings naming the key, with "did you mean", in lint and doctor', async () => {
    const dir = project();
    writeFileSync(
      join(dir, '.memlintrc.json'),
      JSON.stringify({ memoryDir: ['.claude/memory'], bogusKey: 1, consolidate: { minHour: 3 }, rules: { 'index-line-length': ['error', { maxx: 10 }], 'user-judgement': ['warn', { x: 1 }] } }),
    );
    const lint = await memlintInProcess(dir, []);
    expect(lint.code).toBe(0);
    const file = join(dir, '.memlintrc.json');
    expect(lint.stderr.split('\n').filter(Boolean)).toEqual([
      `memlint: warning: config ${file}: unknown key "memoryDir" is ignored: did you mean "memoryDirs"?`,
      `memlint: warning: config ${file}: unknown key "bogusKey" is ignored`,
      `memlint: warning: config ${file}: unknown key "consolidate.minHour" is ignored: did you mean "consolidate.minHours"?`,
      `memlint: warning: config ${file}: unknown option "maxx" of rule "index-line-length" is ignored: did you mean "max"?`,
      `memlint: warning: config ${file}: unknown option "x" of rule "user-judgement" is ignored; "user-judgement" takes no options`,
    ]);
    const doctor = await memlintInProcess(dir, ['doctor']);
    const line = doctor.stdout.split('\n')[0]!;
    expect(line).toMatch(/^warn {2}config: \.memlintrc\.json: unknown key "memoryDir" is ignored: did you mean "memoryDirs"\?; .*unknown option "maxx" of rule "index-line-length" is ignored: did you mean "max"\?/);
  });
});
