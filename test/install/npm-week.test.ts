// The second week of test/install/week.test.ts, with clones set up as npm sets them up: the lead
// installs the packed package and husky with npm, each clone runs `npm ci` (whose prepare runs
// husky, then `memlint install --local`), and then rebases, a linked worktree and a reinstall go
// through the hooks. An end-to-end test of npm (`npm run test:e2e`, docs/development.md).
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { memlintInProcess } from '../helpers/in-process.js';
import { git, initRepo, tempDir } from '../helpers/repo.js';
import { append, files, pushThroughHooks, run, settle, sh, topic, withoutConsolidation } from './helpers.js';
import { packPackage } from '../merge/hosted.js';

/** A package this checkout has installed, packed into DIR as npm would publish it. */
function packInstalled(name: string, dir: string): string {
  const file = execFileSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', dir, join(process.cwd(), 'node_modules', name)], { cwd: dir, encoding: 'utf8' });
  return join(dir, file.trim().split('\n').pop()!);
}

const MEM = '.claude/memory';

describe('a second week: clones set up only by npm ci, rebases, a worktree, reinstall', () => {
  it('no command fails for a reason the user did not cause, and no memory line is lost', async () => {
    const tarball = packPackage();
    const base = tempDir();
    const remote = join(base, 'remote.git');
    git(base, 'init', '-q', '--bare', '-b', 'main', remote);
    let clock = Date.parse('2026-11-23T08:00:00Z');
    const at = () => {
      clock += 3600_000;
      const when = new Date(clock).toISOString();
      return { GIT_AUTHOR_DATE: when, GIT_COMMITTER_DATE: when };
    };
    const ok = (dir: string, args: string[], env: Record<string, string> = {}) => {
      const r = run(dir, args, env);
      expect(r.code, `git ${args.join(' ')} in ${dir}:\n${r.out}`).toBe(0);
      return r.out;
    };
    const npm = (dir: string, args: string[]) => {
      const r = sh(dir, 'npm', [...args, '--offline', '--no-audit', '--no-fund']);
      expect(r.code, `npm ${args.join(' ')}:\n${r.out}`).toBe(0);
      expect(r.out).not.toContain('EBADENGINE');
      return r.out;
    };
    const remembered: string[] = [];
    let consolidations = 0;
    const push = (dir: string, args: string[]) => {
      if (pushThroughHooks(dir, args).consolidated) consolidations++;
    };
    const remember = (dir: string, slug: string, title: string) => {
      writeFileSync(join(dir, MEM, `${slug}.md`), topic(title, 'feedback', `${title}, in short`, `${title}.\n\n**Why:** it matters.\n\n**How to apply:** always.\n`));
      append(dir, `${MEM}/MEMORY.md`, `- [${title}](${slug}.md) — ${title}, in short\n`);
      // A daily log line too, tagged with the topic it belongs to: consolidation's work.
      const day = new Date(clock).toISOString().slice(0, 10);
      append(dir, `${MEM}/logs/${day.slice(0, 4)}/${day.slice(5, 7)}/${day}.md`, `- 10:00 — noted ${title} while pairing [user_role]\n`);
      git(dir, 'add', '-A');
      remembered.push(slug);
    };
    const commit = (dir: string, message: string) => {
      const out = ok(dir, ['commit', '-q', '-m', message], at());
      expect(withoutConsolidation(out)).toBe('');
    };
    const clone = async (name: string) => {
      const dir = join(base, name);
      git(base, 'clone', '-q', remote, dir);
      git(dir, 'config', 'user.name', name);
      git(dir, 'config', 'user.email', `${name}@example.com`);
      npm(dir, ['ci']); // its prepare: husky, then memlint install --local
      expect((await memlintInProcess(dir, ['doctor'], { env: { MEMLINT_LINK: '0' } })).code).toBe(0);
      return dir;
    };

    // The lead adds memlint (the packed package) and husky, installs, and pushes.
    mkdirSync(join(base, 'lead'));
    const lead = initRepo(join(base, 'lead'));
    writeFileSync(join(lead, 'package.json'), JSON.stringify({ name: 'app', private: true }, null, 2) + '\n');
    writeFileSync(join(lead, '.gitignore'), 'node_modules\n');
    mkdirSync(join(lead, MEM), { recursive: true });
    writeFileSync(join(lead, MEM, 'MEMORY.md'), '# Memory\n\n- [Role](user_role.md) — Backend lead on payments\n');
    writeFileSync(join(lead, MEM, 'user_role.md'), topic('Role', 'user', 'Backend lead on payments', 'Reads diffs before descriptions.\n'));
    // husky as a tarball packed from this checkout's own install: \`npm ci\` caches the lock file's
    // tarballs but never a package's registry document, which \`husky@9.1.7\` would need offline.
    npm(lead, ['install', '-D', '-E', packInstalled('husky', base), tarball]);
    expect(sh(lead, 'npx', ['--offline', 'memlint', 'install']).code).toBe(0);
    git(lead, 'add', '-A');
    commit(lead, 'add memlint');
    git(lead, 'remote', 'add', 'origin', remote);
    ok(lead, ['push', '-q', '-u', 'origin', 'main']);

    const alice = await clone('alice');
    const bob = await clone('bob');

    // Both add memory on main; bob pulls with --rebase over alice's push.
    for (let i = 0; i < 3; i++) {
      remember(alice, `feedback_a${i}`, `Alice rule ${i}`);
      commit(alice, `alice ${i}`);
      remember(bob, `feedback_b${i}`, `Bob rule ${i}`);
      commit(bob, `bob ${i}`);
    }
    push(alice, ['origin', 'main']);
    settle(bob);
    ok(bob, ['pull', '-q', '--rebase', 'origin', 'main'], { GIT_COMMITTER_DATE: new Date((clock += 60_000)).toISOString() });
    expect(git(bob, 'status', '--porcelain')).toBe('');
    push(bob, ['origin', 'main']);

    // Alice works on a topic branch, then replays it on the new main, reordered.
    ok(alice, ['switch', '-q', '-c', 'topic']);
    for (let i = 3; i < 6; i++) {
      remember(alice, `feedback_a${i}`, `Alice rule ${i}`);
      commit(alice, `alice ${i}`);
    }
    ok(alice, ['fetch', '-q', 'origin']);
    settle(alice);
    const reverse = `node -e "const f=process.argv[1],fs=require('fs');const l=fs.readFileSync(f,'utf8').split('\\n').filter(x=>/^pick /.test(x));fs.writeFileSync(f,l.reverse().join('\\n')+'\\n')"`;
    ok(alice, ['rebase', '-i', 'origin/main'], { GIT_SEQUENCE_EDITOR: reverse, GIT_COMMITTER_DATE: new Date((clock += 60_000)).toISOString() });
    // (The post-commit hook may have consolidated between them: that commit is replayed too.)
    expect(git(alice, 'log', '--format=%s', 'origin/main..HEAD').trim().split('\n').filter((s) => s !== 'memory: consolidate')).toEqual(['alice 3', 'alice 4', 'alice 5']);
    expect(git(alice, 'status', '--porcelain')).toBe('');

    // A linked worktree, used before npm install there (the main worktree's memlint runs its
    // hooks: git worktree add set them up) and after.
    const wt = join(base, 'alice-wt');
    const added = ok(alice, ['worktree', 'add', '-q', '-b', 'docs', wt, 'topic']);
    expect(added).not.toContain('not installed');
    expect(existsSync(join(wt, '.husky/_/h'))).toBe(true);
    remember(wt, 'feedback_w0', 'Worktree rule 0');
    commit(wt, 'wt 0');
    npm(wt, ['ci']);
    expect((await memlintInProcess(wt, ['doctor'], { env: { MEMLINT_LINK: '0' } })).code).toBe(0);
    writeFileSync(join(wt, MEM, 'feedback_broken.md'), 'no frontmatter\n');
    git(wt, 'add', '-A');
    expect(run(wt, ['commit', '-q', '-m', 'broken']).code).not.toBe(0); // the user's lint error
    git(wt, 'rm', '-q', '-f', `${MEM}/feedback_broken.md`);
    remember(wt, 'feedback_w1', 'Worktree rule 1');
    commit(wt, 'wt 1');
    ok(alice, ['switch', '-q', 'main']);
    ok(alice, ['pull', '-q', '--rebase', 'origin', 'main']);
    ok(alice, ['merge', '-q', '--no-edit', 'docs'], at());
    expect(readFileSync(join(alice, MEM, 'MEMORY.md'), 'utf8')).not.toMatch(/^(<<<<<<<|=======|>>>>>>>)/m);

    push(alice, ['origin', 'main']);

    // Bob catches up with --rebase over the consolidation, with a memory commit of his own.
    remember(bob, 'feedback_b3', 'Bob rule 3');
    commit(bob, 'bob 3');
    settle(bob);
    ok(bob, ['pull', '-q', '--rebase', 'origin', 'main'], { GIT_COMMITTER_DATE: new Date((clock += 60_000)).toISOString() });
    push(bob, ['origin', 'main']);

    // Uninstall and install again: the tracked files come back exactly as committed.
    const committed = files(bob);
    expect(sh(bob, 'npx', ['--offline', 'memlint', 'uninstall']).code).toBe(0);
    expect(sh(bob, 'npx', ['--offline', 'memlint', 'install']).code).toBe(0);
    expect(files(bob)).toEqual(committed);
    expect(git(bob, 'status', '--porcelain')).toBe('');
    expect((await memlintInProcess(bob, ['doctor'], { env: { MEMLINT_LINK: '0' } })).code).toBe(0);

    // A push consolidated (its gates opened with the memory commits), said so and was pushed again.
    expect(consolidations).toBeGreaterThan(0);
    expect(git(remote, 'log', '--format=%s', 'main')).toMatch(/^memory: consolidate$/m);

    // No memory line lost: every topic is on the remote, and its index names it.
    const tree = git(remote, 'ls-tree', '-r', '--name-only', 'main');
    const index = git(remote, 'show', `main:${MEM}/MEMORY.md`);
    for (const slug of remembered) {
      expect(tree, slug).toContain(`${MEM}/${slug}.md`);
      expect(index, slug).toContain(`(${slug}.md)`);
    }
    expect(index).toContain('(user_role.md)');
    for (const slug of remembered) {
      const title = slug.replace('feedback_a', 'Alice rule ').replace('feedback_b', 'Bob rule ').replace('feedback_w', 'Worktree rule ');
      expect(git(remote, 'grep', '-l', `noted ${title} while pairing`, 'main', '--', MEM), title).not.toBe('');
    }
  });
});
