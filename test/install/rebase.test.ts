// Rebases and pulls through the installed hooks. post-checkout runs "memlint touch" in the middle
// of a rebase; touching the mtimes there left the index's stat data stale and git took MEMORY.md
// for locally modified ("Your local changes ... would be overwritten"). Commits are dated in the
// past so touch really moves mtimes, and each repository's index is settled (written after its
// files' mtimes) so git cannot fall back to reading the content of a racily clean entry.
import { describe, expect, it } from 'vitest';
import { appendFileSync, cpSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { memlintInProcess } from '../helpers/in-process.js';
import { git, tempDir } from '../helpers/repo.js';
import { npmInstall, project, settle, topic, run } from './helpers.js';

const MEM = '.claude/memory';

/** Commits a rebase writes are dated then (in the past), so the mtimes touch sets once it ends show. */
const REPLAYED = { GIT_COMMITTER_DATE: '2026-11-20T12:00:00Z' };

let clock = Date.parse('2026-11-02T09:00:00Z');
/** Commit everything with a date in the past, one hour after the previous commit. */
function commit(dir: string, message: string): void {
  git(dir, 'add', '-A');
  clock += 3600_000;
  const when = new Date(clock).toISOString();
  const r = run(dir, ['commit', '-q', '-m', message], { GIT_AUTHOR_DATE: when, GIT_COMMITTER_DATE: when });
  expect(r.out).toBe('');
  expect(r.code).toBe(0);
}

function remember(dir: string, slug: string, title: string): void {
  writeFileSync(join(dir, MEM, `${slug}.md`), topic(title, 'feedback', `${title}, remembered`, `${title}.\n\n**Why:** it matters.\n\n**How to apply:** always.\n`));
  appendFileSync(join(dir, MEM, 'MEMORY.md'), `- [${title}](${slug}.md) — ${title}, remembered\n`);
}

/** A project with memlint installed (install run in this process: it only sets up what git runs). */
async function installed(): Promise<string> {
  const dir = project();
  expect((await memlintInProcess(dir, ['install'])).code).toBe(0);
  commit(dir, 'memlint install');
  return dir;
}

/**
 * main and feature both add memories after a common start; feature is checked out. Made once
 * through the hooks and copied for each test that needs it (cp -r of the repository), whose index
 * is settled again in the copy: its files are new inodes there.
 */
let divergedOnce: Promise<string> | undefined;
async function diverged(): Promise<string> {
  divergedOnce ??= makeDiverged();
  const dir = tempDir('memlint-diverged-');
  cpSync(await divergedOnce, dir, { recursive: true, verbatimSymlinks: true });
  settle(dir);
  return dir;
}

async function makeDiverged(): Promise<string> {
  const dir = await installed();
  git(dir, 'switch', '-q', '-c', 'feature');
  remember(dir, 'feedback_f1', 'Feature one');
  commit(dir, 'f1');
  remember(dir, 'feedback_f2', 'Feature two');
  commit(dir, 'f2');
  git(dir, 'switch', '-q', 'main');
  remember(dir, 'feedback_m1', 'Main one');
  commit(dir, 'm1');
  git(dir, 'switch', '-q', 'feature');
  settle(dir);
  return dir;
}

function entries(dir: string): string[] {
  return readFileSync(join(dir, MEM, 'MEMORY.md'), 'utf8').split('\n').filter((l) => l.startsWith('- ['));
}

function expectSettledMtimes(dir: string, files: string[]): void {
  for (const f of files) {
    const last = Number(git(dir, 'log', '-1', '-c', '--name-only', '--format=%ct', '--', `${MEM}/${f}`).split('\n')[0]);
    expect(Math.floor(statSync(join(dir, MEM, f)).mtimeMs / 1000), f).toBe(last);
  }
}

describe('rebases and pulls with the hooks installed', () => {
  it('git rebase of memory-changing commits goes through, and the mtimes are set once it ends', async () => {
    const dir = await diverged();
    const r = run(dir, ['rebase', 'main'], REPLAYED);
    expect(r.out).not.toContain('would be overwritten');
    expect(r.code).toBe(0);
    expect(entries(dir)).toEqual(['- [Role](user_role.md) — Backend lead on payments', '- [Main one](feedback_m1.md) — Main one, remembered', '- [Feature one](feedback_f1.md) — Feature one, remembered', '- [Feature two](feedback_f2.md) — Feature two, remembered']);
    expect(git(dir, 'status', '--porcelain')).toBe('');
    expectSettledMtimes(dir, ['MEMORY.md', 'feedback_f1.md', 'feedback_m1.md', 'user_role.md']);
    expect(statSync(join(dir, MEM, 'MEMORY.md')).mtimeMs).toBe(Date.parse(REPLAYED.GIT_COMMITTER_DATE));
  });

  it('git rebase -i with the commits reordered goes through', async () => {
    const dir = await diverged();
    // The todo list reversed: f2 is replayed before f1.
    const editor = `node -e "const f=process.argv[1],fs=require('fs');const l=fs.readFileSync(f,'utf8').split('\\n').filter(x=>/^pick /.test(x));fs.writeFileSync(f,l.reverse().join('\\n')+'\\n')"`;
    const r = run(dir, ['rebase', '-i', 'main'], { ...REPLAYED, GIT_SEQUENCE_EDITOR: editor });
    expect(r.out).not.toContain('would be overwritten');
    expect(r.code).toBe(0);
    expect(git(dir, 'log', '--format=%s', '-3').trim().split('\n')).toEqual(['f1', 'f2', 'm1']);
    expect(entries(dir)).toEqual(['- [Role](user_role.md) — Backend lead on payments', '- [Main one](feedback_m1.md) — Main one, remembered', '- [Feature two](feedback_f2.md) — Feature two, remembered', '- [Feature one](feedback_f1.md) — Feature one, remembered']);
    expect(git(dir, 'status', '--porcelain')).toBe('');
    expectSettledMtimes(dir, ['MEMORY.md', 'feedback_f2.md']);
  });

  it('git pull --rebase of memory changes from a bare remote goes through, on both sides', async () => {
    const base = tempDir();
    const remote = join(base, 'remote.git');
    git(base, 'init', '-q', '--bare', '-b', 'main', remote);
    const alice = await installed();
    git(alice, 'remote', 'add', 'origin', remote);
    expect(run(alice, ['push', '-q', '-u', 'origin', 'main']).code).toBe(0);
    const bob = join(base, 'bob');
    git(base, 'clone', '-q', remote, bob);
    git(bob, 'config', 'user.name', 'Bob');
    git(bob, 'config', 'user.email', 'bob@example.com');
    npmInstall(bob);
    expect((await memlintInProcess(bob, ['install', '--local'])).code).toBe(0); // what the prepare script does
    for (let i = 0; i < 2; i++) {
      remember(alice, `feedback_a${i}`, `Alice ${i}`);
      commit(alice, `alice ${i}`);
      remember(bob, `feedback_b${i}`, `Bob ${i}`);
      commit(bob, `bob ${i}`);
    }
    expect(run(alice, ['push', '-q', 'origin', 'main']).code).toBe(0);
    settle(bob);
    const pull = run(bob, ['pull', '-q', '--rebase', 'origin', 'main'], REPLAYED);
    expect(pull.out).not.toContain('would be overwritten');
    expect(pull.code).toBe(0);
    expect(git(bob, 'status', '--porcelain')).toBe('');
    expect(run(bob, ['push', '-q', 'origin', 'main']).code).toBe(0);
    remember(alice, 'feedback_a2', 'Alice 2');
    commit(alice, 'alice 2');
    settle(alice);
    const back = run(alice, ['pull', '-q', '--rebase', 'origin', 'main'], REPLAYED);
    expect(back.out).not.toContain('would be overwritten');
    expect(back.code).toBe(0);
    expect(entries(alice)).toHaveLength(6);
    expect(git(alice, 'status', '--porcelain')).toBe('');
    expectSettledMtimes(alice, ['MEMORY.md', 'feedback_b1.md']);
  });
});
