// `memlint resolve` under real git: conflicts made without the driver (no driver config, as on a
// hosted merge or a fresh clone; a driver that could not start; a rebase), and committed markers.
// resolve's merges run in this process (test/helpers/in-process.ts: the same main()); its help and
// messages, and the merge driver, through the built CLI.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeMemoryFile } from '../../src/merge/driver.js';
import { markerOrigin, resolveConflicts } from '../../src/merge/resolve.js';
import { memlintInProcess } from '../helpers/in-process.js';
import { git, gitAt, importCommits, initRepo, memlint, writeFiles } from '../helpers/repo.js';

const MEM = '.claude/memory';
const INDEX = `${MEM}/MEMORY.md`;
const TOPIC = `${MEM}/feedback_testing.md`;
const e = (k: string, hook = `about ${k}`) => `- [${k}](${k}.md) — ${hook}\n`;
const HEAD = '# Memory index\n\n';
const topic = (items: string[]) => `---\nname: testing\ndescription: tests\ntype: feedback\n---\n\n**How to apply:**\n${items.map((i) => `- ${i}\n`).join('')}`;

function run(cwd: string, ...args: string[]): { code: number; out: string } {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_EDITOR: 'true' } });
  return { code: r.status ?? -1, out: `${r.stdout}${r.stderr}` };
}

function commit(dir: string, files: Record<string, string>, message: string): void {
  writeFiles(dir, files);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', message);
}

/** A repository with no driver configured (git's text merge), and two branches in conflict; `extra` files in the base. */
function conflicted(oursIndex: string, theirsIndex: string, extra: Record<string, string> = {}): string {
  const dir = initRepo();
  importCommits(dir, [
    { branch: 'main', message: 'base', files: { ...extra, [INDEX]: HEAD + e('user_role') + e('feedback_testing'), [TOPIC]: topic(['run make db first']) } },
    { branch: 'other', message: 'other', from: 0, files: { [INDEX]: theirsIndex, [TOPIC]: topic(['run make db first', 'reset between suites']) } },
    { branch: 'main', message: 'main', files: { [INDEX]: oursIndex, [TOPIC]: topic(['run make db first', 'seed with fixtures']) } },
  ]);
  return dir;
}

const read = (dir: string, rel: string) => readFileSync(join(dir, rel), 'utf8');
const unmerged = (dir: string) => git(dir, 'diff', '--name-only', '--diff-filter=U').trim();

describe('memlint resolve', () => {
  it('settles what a plain text merge left in conflict, stages it, and the merge commits', async () => {
    const dir = conflicted(HEAD + e('user_role') + e('feedback_testing') + e('ours_new'), HEAD + e('user_role') + e('feedback_testing') + e('theirs_new'));
    expect(run(dir, 'merge', '--no-edit', 'other').code).toBe(1);
    expect(read(dir, INDEX)).toContain('<<<<<<<');
    const r = await memlintInProcess(dir, ['resolve']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`resolved  ${INDEX}`);
    expect(r.stdout).toContain(`resolved  ${TOPIC}`);
    expect(read(dir, INDEX)).toBe(HEAD + e('user_role') + e('feedback_testing') + e('ours_new') + e('theirs_new'));
    expect(read(dir, TOPIC)).toBe(topic(['run make db first', 'seed with fixtures', 'reset between suites']));
    expect(unmerged(dir)).toBe('');
    expect(run(dir, 'commit', '--no-edit').code).toBe(0);
    expect(git(dir, 'status', '--porcelain')).toBe('');
  });

  it('keeps the working tree\'s CRLF where git converts line endings (core.autocrlf=true)', async () => {
    // The stages are LF blobs; git checks files out CRLF. The resolved file stays CRLF, as git's
    // own checkout of it would write it, and git sees no change of line endings.
    const dir = conflicted(HEAD + e('user_role') + e('feedback_testing') + e('ours_new'), HEAD + e('user_role') + e('feedback_testing') + e('theirs_new'));
    git(dir, 'config', 'core.autocrlf', 'true');
    rmSync(join(dir, MEM), { recursive: true });
    git(dir, 'checkout', '--', MEM);
    expect(read(dir, INDEX)).toContain('\r\n');
    expect(run(dir, 'merge', '--no-edit', 'other').code).toBe(1);
    const r = await memlintInProcess(dir, ['resolve']);
    expect(r.code, r.stderr).toBe(0);
    expect(read(dir, INDEX)).toBe((HEAD + e('user_role') + e('feedback_testing') + e('ours_new') + e('theirs_new')).replace(/\n/g, '\r\n'));
    expect(run(dir, 'commit', '--no-edit').code).toBe(0);
    expect(git(dir, 'show', `HEAD:${INDEX}`)).not.toContain('\r');
  });

  it('narrows a true conflict to the one entry, leaves it unstaged and exits 1 naming it', async () => {
    const dir = conflicted(HEAD + e('user_role', 'ours words') + e('feedback_testing') + e('ours_new'), HEAD + e('user_role', 'theirs words') + e('feedback_testing'));
    expect(run(dir, 'merge', '--no-edit', 'other').code).toBe(1);
    const r = await memlintInProcess(dir, ['resolve', INDEX]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`conflict  ${INDEX}:3 (user_role.md: edited on both sides); settle it: memlint resolve --ours|--theirs|--both --entry user_role.md ${INDEX}`);
    expect(read(dir, INDEX)).toBe(
      HEAD +
        '<<<<<<< ours (user_role.md: edited on both sides)\n' +
        e('user_role', 'ours words') +
        '=======\n' +
        e('user_role', 'theirs words') +
        '>>>>>>> theirs (user_role.md)\n' +
        e('feedback_testing') +
        e('ours_new'),
    );
    // Only the path named was touched: the topic file is still git's to show.
    expect(unmerged(dir).split('\n')).toEqual([INDEX, TOPIC]);
    expect(read(dir, TOPIC)).toContain('<<<<<<< HEAD');
  });

  it('settles a conflict a driver that could not start left without markers (stages only)', async () => {
    const dir = conflicted(HEAD + e('user_role') + e('feedback_testing') + e('ours_new'), HEAD + e('user_role') + e('feedback_testing') + e('theirs_new'), { '.gitattributes': `${MEM}/*.md merge=gone\n` });
    git(dir, 'config', 'merge.gone.driver', 'memlint-not-installed merge %O %A %B');
    expect(run(dir, 'merge', '--no-edit', 'other').code).toBe(1);
    expect(read(dir, INDEX)).toBe(HEAD + e('user_role') + e('feedback_testing') + e('ours_new'));
    const r = await memlintInProcess(dir, ['resolve']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(read(dir, INDEX)).toBe(HEAD + e('user_role') + e('feedback_testing') + e('ours_new') + e('theirs_new'));
    expect(unmerged(dir)).toBe('');
  });

  it('settles a rebase stopped on the index, and the rebase continues', async () => {
    const dir = conflicted(HEAD + e('user_role') + e('feedback_testing') + e('main_new'), HEAD + e('user_role') + e('feedback_testing') + e('feature_new'));
    git(dir, 'checkout', '-q', 'other');
    expect(run(dir, 'rebase', 'main').code).toBe(1);
    const r = await memlintInProcess(dir, ['resolve']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    // In a rebase "ours" is upstream: its entries first, then the commit being replayed.
    expect(read(dir, INDEX)).toBe(HEAD + e('user_role') + e('feedback_testing') + e('main_new') + e('feature_new'));
    expect(run(dir, 'rebase', '--continue').code).toBe(0);
    expect(git(dir, 'status', '--porcelain')).toBe('');
  });

  it('settles conflict markers committed by a hosted merge (no index stages)', async () => {
    const dir = initRepo();
    const marked = HEAD + e('user_role') + '<<<<<<< HEAD\n' + e('ours_new') + '=======\n' + e('theirs_new') + '>>>>>>> other\n';
    commit(dir, { [INDEX]: marked, [`${MEM}/ok.md`]: 'no markers\n' }, 'merged with markers');
    const r = await memlintInProcess(dir, ['resolve']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(`resolved  ${INDEX}`);
    expect(read(dir, INDEX)).toBe(HEAD + e('user_role') + e('ours_new') + e('theirs_new'));
    expect(git(dir, 'diff', '--cached', '--name-only').trim()).toBe(INDEX);
  });

  it('writes the settled file as every memlint write is made: its mode kept, no temporary file left beside it', () => {
    const dir = initRepo();
    const marked = HEAD + e('user_role') + '<<<<<<< HEAD\n' + e('ours_new') + '=======\n' + e('theirs_new') + '>>>>>>> other\n';
    commit(dir, { [INDEX]: marked }, 'merged with markers');
    chmodSync(join(dir, INDEX), 0o600);
    const report = resolveConflicts(gitAt(dir), []);
    expect(report.resolved).toEqual([INDEX]);
    expect(read(dir, INDEX)).toBe(HEAD + e('user_role') + e('ours_new') + e('theirs_new'));
    expect(statSync(join(dir, INDEX)).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(dir, MEM))).toEqual(['MEMORY.md']);
  });

  /** Base: user_role, feedback_testing. Ours edits feedback_testing next to an append, theirs appends. */
  const oneSidedEdit = () =>
    conflicted(HEAD + e('user_role') + e('feedback_testing', 'ours edit') + e('ours_new'), HEAD + e('user_role') + e('feedback_testing') + e('theirs_new'));

  it('settles markers a merge commit brought against the merge base of its parents (a one-sided edit is no conflict)', async () => {
    const dir = oneSidedEdit();
    expect(run(dir, 'merge', '--no-edit', 'other').code).toBe(1);
    // Committed as is, as a merge done without the driver and --no-verify leaves it.
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '--no-verify', '--no-edit');
    // A later commit that keeps the markers does not hide where they came from.
    commit(dir, { 'notes.txt': 'later\n' }, 'later');
    const marked = read(dir, INDEX);
    expect(marked).toContain('<<<<<<< HEAD');
    const r = await memlintInProcess(dir, ['resolve']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(read(dir, INDEX)).toBe(HEAD + e('user_role') + e('feedback_testing', 'ours edit') + e('ours_new') + e('theirs_new'));
    expect(read(dir, TOPIC)).toBe(topic(['run make db first', 'seed with fixtures', 'reset between suites']));
  });

  it('settles markers of a merge still in progress, staged by hand, against HEAD and MERGE_HEAD', async () => {
    const dir = oneSidedEdit();
    expect(run(dir, 'merge', '--no-edit', 'other').code).toBe(1);
    git(dir, 'add', INDEX);
    const r = await memlintInProcess(dir, ['resolve', INDEX]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(read(dir, INDEX)).toBe(HEAD + e('user_role') + e('feedback_testing', 'ours edit') + e('ours_new') + e('theirs_new'));
  });

  it('settles markers a squash commit brought without a base: the entry both sides hold differently is a conflict', async () => {
    const dir = oneSidedEdit();
    expect(run(dir, 'merge', '--squash', 'other').code).toBe(1);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '--no-verify', '-m', 'squash');
    expect(git(dir, 'log', '-1', '--format=%P').trim().split(' ')).toHaveLength(1);
    const r = await memlintInProcess(dir, ['resolve', INDEX]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(new RegExp(`^conflict  ${INDEX}:\\d+ \\(feedback_testing\\.md: added on both sides with different text\\); settle it: memlint resolve --ours\\|--theirs\\|--both --entry feedback_testing\\.md ${INDEX}$`, 'm'));
  });

  it('markerOrigin names the commit that brought the markers and the base it settles against', () => {
    const dir = oneSidedEdit();
    const base = git(dir, 'merge-base', 'main', 'other').trim();
    expect(markerOrigin(gitAt(dir), INDEX)).toEqual({ kind: 'uncommitted' });
    expect(run(dir, 'merge', '--no-edit', 'other').code).toBe(1);
    git(dir, 'add', '-A');
    const [ours, theirs] = ['main', 'other'].map((b) => git(dir, 'rev-parse', b).trim());
    expect(markerOrigin(gitAt(dir), INDEX)).toEqual({ kind: 'merging', ours, theirs, mergeBase: base });
    git(dir, 'commit', '-q', '--no-verify', '--no-edit');
    const merge = git(dir, 'rev-parse', 'HEAD').trim();
    commit(dir, { [INDEX]: read(dir, INDEX) + e('later') }, 'later edit keeps the markers');
    expect(markerOrigin(gitAt(dir), INDEX)).toEqual({ kind: 'merge', commit: merge, ours, theirs, mergeBase: base });
  });

  it('settles markers edited after their merge commit from the blocks, against the merge base', async () => {
    const dir = oneSidedEdit();
    expect(run(dir, 'merge', '--no-edit', 'other').code).toBe(1);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '--no-verify', '--no-edit');
    commit(dir, { [INDEX]: read(dir, INDEX) + e('later') }, 'later edit keeps the markers');
    const r = await memlintInProcess(dir, ['resolve', INDEX]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(read(dir, INDEX)).toBe(HEAD + e('user_role') + e('feedback_testing', 'ours edit') + e('ours_new') + e('later') + e('theirs_new'));
  });

  it('settles diff3-style markers of a merge commit as the driver merges the parents', async () => {
    const dir = oneSidedEdit();
    git(dir, 'config', 'merge.conflictStyle', 'diff3');
    expect(run(dir, 'merge', '--no-edit', 'other').code).toBe(1);
    expect(read(dir, INDEX)).toContain('||||||| ');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '--no-verify', '--no-edit');
    const r = await memlintInProcess(dir, ['resolve']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(read(dir, INDEX)).toBe(HEAD + e('user_role') + e('feedback_testing', 'ours edit') + e('ours_new') + e('theirs_new'));
  });

  it('honours the conflict-marker-size attribute: it reads and writes markers of that size', async () => {
    const dir = conflicted(HEAD + e('user_role', 'ours words') + e('feedback_testing') + e('ours_new'), HEAD + e('user_role', 'theirs words') + e('feedback_testing') + e('theirs_new'), { '.gitattributes': `${MEM}/*.md conflict-marker-size=3\n` });
    expect(run(dir, 'merge', '--no-edit', 'other').code).toBe(1);
    expect(read(dir, INDEX)).toMatch(/^<<< ours|^<<< HEAD/m);
    const r = await memlintInProcess(dir, ['resolve', INDEX]);
    expect(r.code).toBe(1);
    expect(read(dir, INDEX)).toBe(
      HEAD + '<<< ours (user_role.md: edited on both sides)\n' + e('user_role', 'ours words') + '===\n' + e('user_role', 'theirs words') + '>>> theirs (user_role.md)\n' + e('feedback_testing') + e('ours_new') + e('theirs_new'),
    );
    // Committed as git wrote them (size 3), settled from the merge commit's parents.
    const clean = conflicted(HEAD + e('user_role') + e('feedback_testing', 'ours edit') + e('ours_new'), HEAD + e('user_role') + e('feedback_testing') + e('theirs_new'), { '.gitattributes': `${MEM}/*.md conflict-marker-size=3\n` });
    expect(run(clean, 'merge', '--no-edit', 'other').code).toBe(1);
    git(clean, 'add', '-A');
    git(clean, 'commit', '-q', '--no-verify', '--no-edit');
    expect(read(clean, INDEX)).toMatch(/^<<< HEAD$/m);
    const settled = await memlintInProcess(clean, ['resolve']);
    expect(settled.code, settled.stdout + settled.stderr).toBe(0);
    expect(read(clean, INDEX)).toBe(HEAD + e('user_role') + e('feedback_testing', 'ours edit') + e('ours_new') + e('theirs_new'));
  });

  it('uses the base section of diff3-style markers, so a deletion on one side stands', async () => {
    const dir = initRepo();
    const marked =
      HEAD + e('user_role') + '<<<<<<< HEAD\n' + e('kept') + '||||||| base\n' + e('kept') + e('removed_by_ours') + '=======\n' + e('kept') + e('removed_by_ours') + e('theirs_new') + '>>>>>>> other\n';
    commit(dir, { [INDEX]: marked }, 'merged with diff3 markers');
    const r = await memlintInProcess(dir, ['resolve', MEM]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(read(dir, INDEX)).toBe(HEAD + e('user_role') + e('kept') + e('theirs_new'));
  });

  it('takes PATH relative to the folder it runs in', async () => {
    const dir = conflicted(HEAD + e('user_role') + e('feedback_testing') + e('ours_new'), HEAD + e('user_role') + e('feedback_testing') + e('theirs_new'));
    expect(run(dir, 'merge', '--no-edit', 'other').code).toBe(1);
    const r = await memlintInProcess(join(dir, MEM), ['resolve', 'MEMORY.md']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toBe(`resolved  ${INDEX}\n`);
    expect(unmerged(dir)).toBe(TOPIC);
  });

  it('leaves a modify/delete conflict for a person and says so', async () => {
    const dir = initRepo();
    commit(dir, { [INDEX]: HEAD + e('a'), [TOPIC]: topic(['one']) }, 'base');
    git(dir, 'checkout', '-q', '-b', 'other');
    git(dir, 'rm', '-q', TOPIC);
    git(dir, 'commit', '-q', '-m', 'remove');
    git(dir, 'checkout', '-q', 'main');
    commit(dir, { [TOPIC]: topic(['one', 'two']) }, 'edit');
    expect(run(dir, 'merge', '--no-edit', 'other').code).toBe(1);
    const r = await memlintInProcess(dir, ['resolve']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`conflict  ${TOPIC}: deleted in theirs`);
  });

  it('says when there is nothing to resolve, and prints help', () => {
    const dir = initRepo();
    commit(dir, { [INDEX]: HEAD + e('a') }, 'base');
    // A memory file lint cannot read (binary) holds no marker line: nothing to resolve all the same.
    writeFileSync(join(dir, MEM, 'attachment.md'), Buffer.from([0, 1, 2, 3, 0, 1, 2, 3]));
    const r = memlint(dir, ['resolve']);
    expect(r).toMatchObject({ code: 0, stdout: 'nothing to resolve\n' });
    // A PATH outside any memory folder has no memory to settle or check: not an error.
    commit(dir, { 'README.md': '# Project\n' }, 'readme');
    expect(memlint(dir, ['resolve', 'README.md', INDEX])).toMatchObject({ code: 0, stdout: 'nothing to resolve\n', stderr: '' });
    const missing = memlint(dir, ['resolve', 'no-such-file.md']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe('memlint: no such file or folder: no-such-file.md\n');
    const help = memlint(dir, ['resolve', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: memlint resolve [--ours|--theirs|--both [--entry WHAT]] [PATH...]');
  });
});

describe('resolve of markers a merge commit brought (property, real git)', () => {
  // Per key: absent, or one of a few hooks, in base, ours and theirs; ours may reorder. Each run
  // makes a repository with some twelve git calls: 10 runs (the merge itself is searched far wider,
  // without git, by the driver's own properties).
  const HOOKS = ['one', 'two', 'three'];
  const KEYS = ['a', 'b', 'c', 'd', 'e', 'f'];
  const version = fc.array(fc.option(fc.constantFrom(...HOOKS), { nil: undefined }), { minLength: KEYS.length, maxLength: KEYS.length });
  const index = (hooks: Array<string | undefined>, order: number[] = KEYS.map((_, i) => i)) =>
    HEAD + order.flatMap((i) => (hooks[i] === undefined ? [] : [e(KEYS[i]!, hooks[i])])).join('');

  it('settles them exactly as the driver merges the two parents', () => {
    fc.assert(
      fc.property(version, version, version, fc.boolean(), (o, a, b, reorder) => {
        const [O, A, B] = [index(o), index(a, reorder ? [...KEYS.keys()].reverse() : undefined), index(b)];
        const dir = initRepo();
        importCommits(dir, [
          { branch: 'main', message: 'base', files: { [INDEX]: O } },
          { branch: 'other', message: 'theirs', from: 0, files: { [INDEX]: B, 'b.txt': 'b\n' } },
          { branch: 'main', message: 'ours', files: { [INDEX]: A, 'a.txt': 'a\n' } },
        ]);
        const merged = run(dir, 'merge', '--no-edit', 'other');
        fc.pre(merged.code === 1);
        git(dir, 'add', '-A');
        git(dir, 'commit', '-q', '--no-verify', '--no-edit');
        const report = resolveConflicts(gitAt(dir), [INDEX]);
        const driver = mergeMemoryFile({ base: Buffer.from(O), ours: Buffer.from(A), theirs: Buffer.from(B), path: INDEX, markerSize: 7 });
        if ('lineMerge' in driver) throw new Error(driver.reason);
        expect(read(dir, INDEX)).toBe(driver.output!.toString('utf8'));
        expect(report.remaining.length > 0).toBe(driver.conflicts.length > 0);
        rmSync(dir, { recursive: true, force: true });
      }),
      { numRuns: 10 },
    );
  });
});

describe('memlint merge (the command)', () => {
  it('uses MARKER_SIZE for its markers and PATH to choose the merge', () => {
    const dir = initRepo();
    writeFiles(dir, {
      base: HEAD + e('a'),
      ours: HEAD + e('a', 'ours'),
      theirs: HEAD + e('a', 'theirs'),
    });
    const r = memlint(dir, ['merge', 'base', 'ours', 'theirs', '9', `${MEM}/MEMORY.md`]);
    expect(r.code).toBe(1);
    expect(read(dir, 'ours')).toBe(HEAD + '<<<<<<<<< ours (a.md: edited on both sides)\n' + e('a', 'ours') + '=========\n' + e('a', 'theirs') + '>>>>>>>>> theirs (a.md)\n');
    expect(read(dir, 'base')).toBe(HEAD + e('a'));
    expect(read(dir, 'theirs')).toBe(HEAD + e('a', 'theirs'));
  });

  it('exits 2 with one line on bad arguments or a missing file, and prints help', () => {
    const dir = initRepo();
    const few = memlint(dir, ['merge', 'a', 'b']);
    expect(few.code).toBe(2);
    expect(few.stderr.trim().split('\n')).toHaveLength(1);
    const missing = memlint(dir, ['merge', 'nope1', 'nope2', 'nope3', '7', 'MEMORY.md']);
    expect(missing).toMatchObject({ code: 2, stdout: '', stderr: 'memlint: merge of MEMORY.md: cannot read BASE nope1 (no such file), OURS nope2 (no such file), THEIRS nope3 (no such file)\n' });
    writeFiles(dir, { a: 'a\n', b: 'b\n' });
    mkdirSync(join(dir, 'c'));
    expect(memlint(dir, ['merge', 'a', 'b', 'c'])).toMatchObject({ code: 2, stdout: '', stderr: 'memlint: merge of b: cannot read THEIRS c (a folder)\n' });
    expect(read(dir, 'b')).toBe('b\n');
    const help = memlint(dir, ['merge', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: memlint merge BASE OURS THEIRS [MARKER_SIZE] [PATH]');
  });
});
