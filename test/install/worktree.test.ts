// A linked worktree without node_modules runs the main worktree's memlint (git worktree add sets
// its hooks up); where neither has memlint, every installed hook says so in one true line naming
// memlint and lets git go on. After npm install there, the same hooks run this worktree's memlint. install and doctor run in this process (test/helpers/in-process.ts);
// every hook as git runs it.
import { describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { memlintInProcess } from '../helpers/in-process.js';
import { CLI, git, tempDir } from '../helpers/repo.js';
import { installedProject, installedWithRemote, npmInstall, project, topic, run } from './helpers.js';

const MEM = '.claude/memory';

/** The output is one line of advice that names memlint. */
function oneLineOfAdvice(out: string, what: RegExp): void {
  const lines = out.split('\n').filter((l) => l !== '');
  expect(lines, out).toHaveLength(1);
  expect(lines[0]).toMatch(/^memlint: not installed in this worktree, so .* \(npm install here; memlint doctor checks the setup\)$/);
  expect(lines[0]).toMatch(what);
}

function remember(dir: string, slug: string, title: string): void {
  writeFileSync(join(dir, MEM, `${slug}.md`), topic(title, 'feedback', title, `${title}.\n\n**Why:** x.\n\n**How to apply:** y.\n`));
  appendFileSync(join(dir, MEM, 'MEMORY.md'), `- [${title}](${slug}.md) — ${title}\n`);
  git(dir, 'add', '-A');
}

describe('hooks in a worktree without memlint', () => {
  it("a linked worktree without node_modules runs the main worktree's memlint: git worktree add sets its hooks up", async () => {
    const dir = await installedProject();
    const wt = join(tempDir(), 'wt');
    const add = run(dir, ['worktree', 'add', '-q', '-b', 'side', wt]);
    expect(add.code).toBe(0);
    expect(add.out).not.toContain('not installed');
    // post-checkout, run by "git worktree add" in the new worktree from the main worktree's stubs,
    // wrote the new worktree's own: every hook runs there now, with the main worktree's memlint.
    expect(existsSync(join(wt, '.husky/_/h'))).toBe(true);
    expect(existsSync(join(wt, 'node_modules'))).toBe(false);
    writeFileSync(join(wt, MEM, 'feedback_broken.md'), 'no frontmatter\n');
    git(wt, 'add', '-A');
    const refused = run(wt, ['commit', '-q', '-m', 'broken']);
    expect(refused.code).not.toBe(0);
    expect(refused.out).toContain('frontmatter-yaml');
    git(wt, 'rm', '-q', '-f', `${MEM}/feedback_broken.md`);
    remember(wt, 'feedback_w1', 'Worktree one');
    expect(run(wt, ['commit', '-q', '-m', 'w1'])).toEqual({ code: 0, out: '' });
    const doctor = await memlintInProcess(wt, ['doctor']);
    expect(doctor.stdout).toMatch(/^ok {4}hooks: active in this worktree/m);
  });

  it('with no memlint in this worktree nor the main one, each hook says so in one true line and lets git go on; after npm install they run memlint', async () => {
    const base = tempDir();
    const { repo: dir } = await installedWithRemote();
    // The main worktree's node_modules goes too (a clone before npm install, say).
    rmSync(join(dir, 'node_modules'), { recursive: true, force: true });

    // post-checkout, run by "git worktree add" in the new worktree: no stubs get written there, so
    // its line says that no memlint hook runs in it.
    const wt = join(base, 'wt');
    const add = run(dir, ['worktree', 'add', '-q', '-b', 'side', wt]);
    expect(add.code).toBe(0);
    oneLineOfAdvice(add.out, /memory mtimes were not set and no memlint hook runs here/);
    expect(existsSync(join(wt, '.husky/_'))).toBe(false);
    remember(wt, 'feedback_w0', 'Worktree zero');
    expect(run(wt, ['commit', '-q', '-m', 'w0'])).toEqual({ code: 0, out: '' });

    // Hook stubs in the worktree (what "memlint install --local" with a memlint from elsewhere
    // does), still no node_modules: every hook advises.
    const local = spawnSync(process.execPath, [CLI, 'install', '--local'], { cwd: wt, encoding: 'utf8' });
    expect(local.status).toBe(0);
    remember(wt, 'feedback_w1', 'Worktree one');
    const commit = run(wt, ['commit', '-q', '-m', 'w1']);
    expect(commit.code).toBe(0);
    oneLineOfAdvice(commit.out, /staged memory was not linted/);
    const push = run(wt, ['push', '-q', 'origin', 'side']);
    expect(push.code).toBe(0);
    oneLineOfAdvice(push.out, /pushed memory was not checked/);
    // A checkout that changes no Markdown has no mtimes to set: nothing is said. One that does advises.
    expect(run(wt, ['checkout', '-q', '-b', 'side2'])).toEqual({ code: 0, out: '' });
    const checkout = run(wt, ['checkout', '-q', 'HEAD~1']);
    expect(checkout.code).toBe(0);
    oneLineOfAdvice(checkout.out, /memory mtimes were not set/);
    expect(run(wt, ['checkout', '-q', 'side2']).code).toBe(0);
    // main moves on with a daily log: no conflict to replay (the driver is not there to merge).
    mkdirSync(join(dir, MEM, 'logs/2026/11'), { recursive: true });
    writeFileSync(join(dir, MEM, 'logs/2026/11/2026-11-20.md'), '- 09:00 — paired on the retry job\n');
    git(dir, 'add', '-A');
    expect(run(dir, ['commit', '-q', '-m', 'm1']).code).toBe(0);
    const merge = run(wt, ['merge', '-q', '--no-edit', '--no-ff', 'main']);
    expect(merge.code).toBe(0);
    oneLineOfAdvice(merge.out.split('\n').filter((l) => !l.startsWith('Auto-merging')).join('\n'), /memory mtimes were not set/);
    git(wt, 'reset', '-q', '--hard', 'HEAD~1');
    const rebase = run(wt, ['rebase', '-q', 'main']);
    expect(rebase.code).toBe(0);
    // post-checkout at its start waits, post-rewrite at its end: both without memlint advise.
    expect(rebase.out.split('\n').filter((l) => l.startsWith('memlint: not installed in this worktree'))).toHaveLength(2);

    // npm install there: the hooks run memlint, and the pre-commit lints again.
    npmInstall(wt);
    writeFileSync(join(wt, MEM, 'feedback_broken.md'), 'no frontmatter\n');
    git(wt, 'add', '-A');
    const refused = run(wt, ['commit', '-q', '-m', 'broken']);
    expect(refused.code).not.toBe(0);
    expect(refused.out).toContain('frontmatter');
    expect(refused.out).not.toContain('not installed');
    git(wt, 'rm', '-q', '-f', `${MEM}/feedback_broken.md`);
    remember(wt, 'feedback_w2', 'Worktree two');
    const ok = run(wt, ['commit', '-q', '-m', 'w2']);
    expect(ok.out).toBe('');
    expect(ok.code).toBe(0);
    expect((await memlintInProcess(wt, ['doctor'], { env: { MEMLINT_LINK: '0' } })).code).toBe(0);
  });

  it("post-checkout's touch sets the mtimes in a linked worktree (git hands its hooks GIT_DIR there)", async () => {
    const dir = project();
    expect((await memlintInProcess(dir, ['install'])).code).toBe(0);
    appendFileSync(join(dir, MEM, 'user_role.md'), 'Prefers small commits.\n');
    git(dir, 'add', '-A');
    execFileSync('git', ['commit', '-q', '-m', 'memlint install'], { cwd: dir, env: { ...process.env, GIT_AUTHOR_DATE: '2026-10-01T00:00:00Z', GIT_COMMITTER_DATE: '2026-10-01T00:00:00Z' } });
    const wt = join(tempDir(), 'wt');
    git(dir, 'worktree', 'add', '-q', '-b', 'side', wt);
    npmInstall(wt);
    expect((await memlintInProcess(wt, ['install', '--local'])).code).toBe(0);
    utimesSync(join(wt, MEM, 'user_role.md'), new Date(), new Date());
    const r = run(wt, ['checkout', '-q', '--', `${MEM}/user_role.md`]);
    expect(r.code).toBe(0);
    expect(statSync(join(wt, MEM, 'user_role.md')).mtimeMs).toBe(Date.parse('2026-10-01T00:00:00Z'));
  });
});
