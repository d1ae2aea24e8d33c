// A scripted week: two developers edit memory on diverging branches, merge through the driver and
// push to a bare remote through the hooks that `memlint install` set up. Every hook runs as git
// runs it; the install and doctor a developer types run in this process (test/helpers/in-process.ts:
// the same main()). The second week, whose clones npm sets up, is test/install/npm-week.test.ts.
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { memlintInProcess } from '../helpers/in-process.js';
import { git, tempDir } from '../helpers/repo.js';
import { append, npmInstall, project, pushThroughHooks, run, topic, withoutConsolidation } from './helpers.js';

const MEM = '.claude/memory';
const push = pushThroughHooks;

describe('a week of two developers through the installed hooks', () => {
  it('lints each commit, merges memory with the driver, consolidates before the push, and loses nothing', async () => {
    const base = tempDir();
    const remote = join(base, 'remote.git');
    git(base, 'init', '-q', '--bare', '-b', 'main', remote);

    const alice = project();
    expect((await memlintInProcess(alice, ['install'])).code).toBe(0);
    git(alice, 'add', '-A');
    git(alice, 'commit', '-q', '-m', 'memlint install');
    git(alice, 'remote', 'add', 'origin', remote);
    expect(push(alice, ['-u', 'origin', 'main']).consolidated).toBe(false);

    const bob = join(base, 'bob');
    git(base, 'clone', '-q', remote, bob);
    git(bob, 'config', 'user.name', 'Bob');
    git(bob, 'config', 'user.email', 'bob@example.com');
    npmInstall(bob);
    expect((await memlintInProcess(bob, ['install', '--local'])).code).toBe(0); // what the prepare script does
    expect((await memlintInProcess(bob, ['doctor'], { env: { MEMLINT_LINK: '0' } })).code).toBe(0);
    git(bob, 'switch', '-q', '-c', 'feature');

    const days = ['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27'];
    days.forEach((day, i) => {
      const log = `${MEM}/logs/2026/11/${day}.md`;
      // Alice: a feedback memory a day, and log entries tagged with their topic.
      writeFileSync(join(alice, MEM, `feedback_a${i}.md`), topic(`Alice rule ${i}`, 'feedback', `Alice's rule number ${i}`, `Rule ${i}.\n\n**Why:** asked on ${day}.\n\n**How to apply:** always.\n`));
      append(alice, `${MEM}/MEMORY.md`, `- [Alice rule ${i}](feedback_a${i}.md) — Alice's rule number ${i}\n`);
      append(alice, log, `- 09:0${i} — Alice paired on the payout retry job [user_role]\n`);
      git(alice, 'add', '-A');
      const a = run(alice, ['commit', '-q', '-m', `alice ${day}`]);
      expect(withoutConsolidation(a.out)).toBe('');
      expect(a.code).toBe(0);
      // Bob: a project memory a day on his branch, logging into the same daily log.
      writeFileSync(join(bob, MEM, `project_b${i}.md`), topic(`Bob project ${i}`, 'project', `Bob's project note ${i}`, `Milestone ${i} on ${day}.\n`));
      append(bob, `${MEM}/MEMORY.md`, `- [Bob project ${i}](project_b${i}.md) — Bob's project note ${i}\n`);
      append(bob, log, `- 14:0${i} — Bob reviewed the ledger migration [user_role]\n`);
      git(bob, 'add', '-A');
      const b = run(bob, ['commit', '-q', '-m', `bob ${day}`]);
      expect(b.code).toBe(0);
    });

    // A commit whose memory fails lint is refused by the pre-commit hook.
    writeFileSync(join(alice, MEM, 'feedback_broken.md'), 'no frontmatter at all\n');
    git(alice, 'add', '-A');
    expect(run(alice, ['commit', '-q', '-m', 'broken']).code).not.toBe(0);
    git(alice, 'rm', '-q', '--cached', `${MEM}/feedback_broken.md`);
    run(alice, ['clean', '-fq', MEM]);

    // Bob pushes his branch: his memdir is due (no consolidation yet, 6 memory commits).
    const bobPush = push(bob, ['-u', 'origin', 'feature']);
    expect(bobPush.consolidated).toBe(true);

    // Alice merges it: MEMORY.md and the shared daily logs merge through the driver, no conflict.
    git(alice, 'fetch', '-q', 'origin');
    const merge = run(alice, ['merge', '-q', '--no-edit', 'origin/feature']);
    expect(merge.code).toBe(0);
    const index = readFileSync(join(alice, MEM, 'MEMORY.md'), 'utf8');
    expect(index).not.toMatch(/^(<<<<<<<|=======|>>>>>>>)/m);
    for (let i = 0; i < 5; i++) {
      expect(index).toContain(`(feedback_a${i}.md)`);
      expect(index).toContain(`(project_b${i}.md)`);
    }
    const log = readFileSync(join(alice, MEM, 'logs/2026/11/2026-11-25.md'), 'utf8');
    expect(log).toContain('Alice paired on the payout retry job');
    expect(log).toContain('Bob reviewed the ledger migration');

    // Alice pushes: the hook consolidates her memory, commits it, and asks for a second push.
    const alicePush = push(alice, ['origin', 'main']);
    expect(alicePush.consolidated).toBe(true);
    expect(git(remote, 'log', '--format=%s', 'main')).toMatch(/^memory: consolidate$/m);
    const role = readFileSync(join(alice, MEM, 'user_role.md'), 'utf8');
    expect(role).toContain('- Alice paired on the payout retry job (2026-11-23)');
    expect(role).toContain('- Bob reviewed the ledger migration (2026-11-23)');
    // Each distinct entry once, however many days repeated it.
    expect(role.match(/Alice paired on the payout retry job \(2026-11-23\)/g)).toHaveLength(1);

    // The gates are closed now: a further push with memory in it passes straight through.
    append(alice, `${MEM}/logs/2026/11/2026-11-28.md`, '- 10:00 — Alice noted the freeze [user_role]\n');
    git(alice, 'add', '-A');
    git(alice, 'commit', '-q', '-m', 'alice log');
    expect(push(alice, ['origin', 'main']).consolidated).toBe(false);

    // Nothing was lost anywhere: the remote's memory still holds every topic of both developers.
    const tree = git(remote, 'ls-tree', '-r', '--name-only', 'main');
    for (let i = 0; i < 5; i++) {
      expect(tree).toContain(`${MEM}/feedback_a${i}.md`);
      expect(tree).toContain(`${MEM}/project_b${i}.md`);
    }
    expect(existsSync(join(alice, MEM, '.consolidate-lock'))).toBe(true);
    expect(tree).not.toContain('.consolidate-lock');
  });
});
