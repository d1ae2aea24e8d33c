// memlint consolidate end to end on real repositories and files: main() in this process
// (test/helpers/in-process.ts), the same program the CLI runs; its help, a live Claude Code lock and
// two consolidations started at once run the built CLI. A finished run's lock names this process's
// PID, which does not keep this process out (src/consolidate/lock.ts), so one process may
// consolidate a repository again, as the language server may.
import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { memlintInProcess } from '../helpers/in-process.js';
import { CLI, git, initRepo, memlint, tempDir, writeFiles, treeSnapshot } from '../helpers/repo.js';
import { memlintKilledBefore } from '../helpers/killed.js';

const MEM = '.claude/memory';
const topic = (name: string, type: string, desc: string, body: string) => `---\nname: ${name}\ndescription: ${desc}\ntype: ${type}\n---\n\n${body}`;

/** The repository memoryRepo makes: built once for each set of extra files and copied for each test. */
const made = new Map<string, string>();
function memoryRepo(extra: Record<string, string> = {}): string {
  const key = JSON.stringify(extra);
  let once = made.get(key);
  if (!once) made.set(key, (once = makeMemoryRepo(extra)));
  const dir = tempDir();
  cpSync(once, dir, { recursive: true });
  return dir;
}

function makeMemoryRepo(extra: Record<string, string>): string {
  const dir = initRepo();
  writeFiles(dir, {
    [`${MEM}/MEMORY.md`]: '# Memory\n\n## Feedback\n\n- [Testing](feedback_testing.md) — Integration tests hit a real database\n- [Gone](feedback_gone.md) — never copied in\n\n## Project\n\n- [Release freeze](project_release_freeze.md) — No deploys 2026-12-07 to 2027-01-04\n',
    [`${MEM}/feedback_testing.md`]: topic('Testing', 'feedback', 'Integration tests hit a real database', '- Never mock the database.\n'),
    [`${MEM}/project_release_freeze.md`]: topic('Release freeze', 'project', 'No deploys 2026-12-07 to 2027-01-04', 'Freeze from 2026-12-07.\n'),
    [`${MEM}/user_role.md`]: topic('Role', 'user', 'Backend lead on payments', 'Reads diffs first.\n'),
    [`${MEM}/logs/2026/11/2026-11-26.md`]: '# 2026-11-26\n\n- 09:14 — Payout retry test uses compose Postgres [feedback_testing]\n- 10:00 — lunch\n',
    ...extra,
  });
  writeFiles(dir, { [`${MEM}/feedback_gone.md`]: topic('Gone', 'feedback', 'never copied in', 'Gone.\n') });
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'memory');
  // Deleted in a commit: the one kind of entry without a file that consolidation archives.
  git(dir, 'rm', '-q', `${MEM}/feedback_gone.md`);
  git(dir, 'commit', '-q', '-m', 'drop gone');
  return dir;
}

const env = { MEMLINT_TODAY: '2026-11-29' };

/** Two repositories built alike differ in their commit ids: the archive's reason names one. */
function withoutCommitIds(files: Map<string, string>): Map<string, string> {
  return new Map([...files].map(([rel, text]) => [rel, text.replace(/deleted in commit [0-9a-f]{12} \(\d{4}-\d{2}-\d{2}\)/g, 'deleted in commit C')]));
}
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

describe('memlint consolidate', () => {
  it('prints its help', () => {
    const r = memlint(initRepo(), ['consolidate', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: memlint consolidate');
  });

  it('runs one mode a run: two of --pre-push, --post-commit, --check and --dry-run are a usage error', async () => {
    const dir = initRepo();
    for (const pair of [['--pre-push', '--post-commit'], ['--check', '--dry-run'], ['--post-commit', '--check']]) {
      const r = await memlintInProcess(dir, ['consolidate', ...pair]);
      expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 2, stderr: `memlint: use only one of ${pair.join(', ')} (see "memlint consolidate --help")\n` });
    }
  });

  it('a relative date it cannot date for sure is left as written, and the summary does not send it to --fix', async () => {
    // --fix writes only the dates consolidation writes (counted from the text's own date): naming
    // it as the way out of an uncertain date sent people to a command that leaves it too.
    const dir = initRepo();
    writeFiles(dir, {
      [`${MEM}/MEMORY.md`]: '- [Release](project_release.md) — the release plan\n',
      [`${MEM}/project_release.md`]: topic('Release', 'project', 'The release plan', 'The freeze starts tomorrow.\n'),
    });
    const r = await memlintInProcess(dir, ['consolidate', '--force'], { env: { MEMLINT_TODAY: '2026-11-30' } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('1 relative date left as written (not certain: no date of its own in the text, a bare weekday, or a line of a session log; "memlint" shows the date each may mean, for a person to write)');
    expect(r.stdout).not.toContain('--fix');
    expect(readFileSync(join(dir, MEM, 'project_release.md'), 'utf8')).toContain('The freeze starts tomorrow.\n');
  });

  it('--check exits 1 and --dry-run prints a diff, both changing nothing', async () => {
    const dir = memoryRepo();
    const before = treeSnapshot(dir);
    const check = await memlintInProcess(dir, ['consolidate', '--check'], { env });
    expect(check.code).toBe(1);
    expect(check.stdout).toContain('.claude/memory: would change');
    const dry = await memlintInProcess(dir, ['consolidate', '--dry-run'], { env });
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('+- Payout retry test uses compose Postgres (2026-11-26)');
    expect(dry.stdout).toContain('--- a/.claude/memory/MEMORY.md');
    expect(dry.stdout).toContain('+++ b/.claude/memory-archive/ARCHIVE.md');
    expect(treeSnapshot(dir)).toEqual(before);
  });

  it('never strips an index whose topic files were never committed; archives only what git shows deleted', async () => {
    const dir = initRepo();
    const entries = Array.from({ length: 6 }, (_, i) => `- [Note ${i}](project_note_${i}.md) — kept in the agent's store`);
    writeFiles(dir, {
      [`${MEM}/MEMORY.md`]: `# Memory\n\n${entries.join('\n')}\n- [Old](project_old.md) — removed on purpose\n- [Here](project_here.md) — committed\n`,
      [`${MEM}/project_old.md`]: topic('Old', 'project', 'removed on purpose', 'Old.\n'),
      [`${MEM}/project_here.md`]: topic('Here', 'project', 'committed', 'Here.\n'),
    });
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'memory');
    git(dir, 'rm', '-q', `${MEM}/project_old.md`);
    git(dir, 'commit', '-q', '-m', 'drop the old note');
    const r = await memlintInProcess(dir, ['consolidate', '--force'], { env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const index = readFileSync(join(dir, MEM, 'MEMORY.md'), 'utf8');
    for (const e of entries) expect(index).toContain(e);
    expect(index).toContain('- [Here](project_here.md) — committed');
    expect(index).not.toContain('project_old.md');
    const archive = readFileSync(join(dir, '.claude/memory-archive/ARCHIVE.md'), 'utf8');
    expect(archive).toMatch(/- \[Old\]\(project_old\.md\) — removed on purpose \(removed from MEMORY\.md on 2026-11-29: the file was deleted in commit [0-9a-f]{12} \(\d{4}-\d{2}-\d{2}\)\)/);
    expect(archive).not.toContain('project_note_');
    expect(r.stdout).toContain('6 entries whose file is not here kept');
    // A second run changes nothing and still keeps them.
    const again = await memlintInProcess(dir, ['consolidate', '--force'], { env });
    expect(again.stdout).toContain('nothing to consolidate');
    expect(readFileSync(join(dir, MEM, 'MEMORY.md'), 'utf8')).toBe(index);
  });

  it('consolidates with --force, archives instead of deleting, and a second run changes nothing', async () => {
    const dir = memoryRepo();
    const r = await memlintInProcess(dir, ['consolidate', '--force'], { env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/consolidated/);
    const index = readFileSync(join(dir, MEM, 'MEMORY.md'), 'utf8');
    expect(index).not.toContain('feedback_gone.md');
    expect(index).toContain('- [Role](user_role.md) — Backend lead on payments');
    expect(readFileSync(join(dir, MEM, 'feedback_testing.md'), 'utf8')).toContain('- Payout retry test uses compose Postgres (2026-11-26)');
    expect(readFileSync(join(dir, '.claude/memory-archive/ARCHIVE.md'), 'utf8')).toMatch(/- \[Gone\]\(feedback_gone\.md\) — never copied in \(removed from MEMORY\.md on 2026-11-29: the file was deleted in commit [0-9a-f]{12} /);
    // The log is untouched; the lock stamps the consolidation with our (now finished) PID.
    expect(readFileSync(join(dir, MEM, 'logs/2026/11/2026-11-26.md'), 'utf8')).toContain('- 10:00 — lunch');
    expect(existsSync(join(dir, MEM, '.consolidate-lock'))).toBe(true);
    const after = treeSnapshot(dir);
    const again = await memlintInProcess(dir, ['consolidate', '--force'], { env });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('nothing to consolidate');
    const final = treeSnapshot(dir);
    final.delete(`${MEM}/.consolidate-lock`);
    after.delete(`${MEM}/.consolidate-lock`);
    expect(final).toEqual(after);
    expect((await memlintInProcess(dir, ['consolidate', '--check'], { env })).code).toBe(0);
  });

  it('each part of the report names what it is about: the files archived and where, the entries moved to the archive index', async () => {
    const dir = memoryRepo();
    writeFiles(dir, { [`${MEM}/project_old.md`]: topic('Old plan', 'project', 'Cutover planned for 2026-03-01', 'Planned for 2026-03-01.\n') });
    git(dir, 'add', '-A');
    execFileSync('git', ['commit', '-qm', 'old plan'], { cwd: dir, env: { ...process.env, GIT_AUTHOR_DATE: '2026-03-02T10:00:00Z', GIT_COMMITTER_DATE: '2026-03-02T10:00:00Z' } });
    const dry = await memlintInProcess(dir, ['consolidate', '--dry-run', '--force'], { env });
    // --dry-run prints the diff on stdout, the account on stderr.
    const line = dry.stderr.split('\n').find((l) => l.startsWith(`${MEM}: would change`))!;
    expect(line).toContain('1 dangling entry moved to the archive index .claude/memory-archive/ARCHIVE.md (feedback_gone.md)');
    expect(line).toContain('1 stale project memory (project_old.md; "--prune" archives it)');
    expect(line).toContain('1 log entry added to topics (feedback_testing.md)');
    expect(line).toContain('2 index entries added (project_old.md, user_role.md)');
    expect(line).toContain('1 untagged log entry left for the agent step (logs/2026/11/2026-11-26.md)');
    const pruned = await memlintInProcess(dir, ['consolidate', '--force', '--prune'], { env });
    expect(pruned.code).toBe(0);
    expect(pruned.stdout).toContain('1 stale project memory archived to .claude/memory-archive (project_old.md)');
  });

  it('archives stale project memories only with --prune, and acts only on the memdirs named', async () => {
    const dir = memoryRepo();
    // Committed last in March: the memory's age is its last date and its last commit.
    writeFiles(dir, { [`${MEM}/project_old.md`]: topic('Old plan', 'project', 'Cutover planned for 2026-03-01', 'Planned for 2026-03-01.\n') });
    git(dir, 'add', '-A');
    execFileSync('git', ['commit', '-qm', 'old plan'], { cwd: dir, env: { ...process.env, GIT_AUTHOR_DATE: '2026-03-02T10:00:00Z', GIT_COMMITTER_DATE: '2026-03-02T10:00:00Z' } });
    writeFiles(dir, { 'other/MEMORY.md': '- [Orphan check](x.md)\n', 'other/x.md': topic('X', 'user', 'x', 'x\n') });
    const report = await memlintInProcess(dir, ['consolidate', '--force', MEM], { env });
    expect(report.stdout).toContain('1 stale project memory (project_old.md; "--prune" archives it)');
    expect(existsSync(join(dir, MEM, 'project_old.md'))).toBe(true);
    const original = statSync(join(dir, MEM, 'project_old.md'));
    const pruned = await memlintInProcess(dir, ['consolidate', '--force', '--prune', MEM], { env });
    expect(pruned.code).toBe(0);
    expect(existsSync(join(dir, MEM, 'project_old.md'))).toBe(false);
    // Archived as it stood: the same file under its archive name (a hard link, then the memdir's
    // name removed), not a copy written and synced again.
    const archived = statSync(join(dir, '.claude/memory-archive/project_old.md'));
    expect([archived.ino, archived.nlink]).toEqual([original.ino, 1]);
    expect(readFileSync(join(dir, '.claude/memory-archive/project_old.md'), 'utf8')).toContain('Planned for 2026-03-01.');
    expect(readFileSync(join(dir, '.claude/memory-archive/ARCHIVE.md'), 'utf8')).toMatch(/- \[Old plan\]\(project_old\.md\) — Cutover planned for 2026-03-01 \(archived on 2026-11-29: stale: latest date 2026-03-02/);
    expect(existsSync(join(dir, 'other-archive'))).toBe(false);
  });

  it('writes archive and index links that lead to files named with a space or a literal %20', async () => {
    const dir = memoryRepo();
    writeFiles(dir, {
      [`${MEM}/project old plan.md`]: topic('Old plan', 'project', 'Cutover planned for 2026-03-01', 'Planned for 2026-03-01.\n'),
      [`${MEM}/project%20cutover.md`]: topic('Cutover', 'project', 'Cutover held on 2026-03-01', 'Held on 2026-03-01.\n'),
    });
    git(dir, 'add', '-A');
    execFileSync('git', ['commit', '-qm', 'old plans'], { cwd: dir, env: { ...process.env, GIT_AUTHOR_DATE: '2026-03-02T10:00:00Z', GIT_COMMITTER_DATE: '2026-03-02T10:00:00Z' } });
    expect((await memlintInProcess(dir, ['consolidate', '--force'], { env })).code).toBe(0);
    const index = readFileSync(join(dir, MEM, 'MEMORY.md'), 'utf8');
    expect(index).toContain('- [Old plan](<project old plan.md>) — Cutover planned for 2026-03-01\n');
    // A literal %20 in a file name is escaped (%2520), so the link names that file, not "project cutover.md".
    expect(index).toContain('- [Cutover](project%2520cutover.md) — Cutover held on 2026-03-01\n');
    expect((await memlintInProcess(dir, ['--format', 'json'], { env })).stdout).not.toMatch(/index-orphan|index-link-target/);
    expect((await memlintInProcess(dir, ['consolidate', '--force', '--prune'], { env })).code).toBe(0);
    const archive = readFileSync(join(dir, '.claude/memory-archive/ARCHIVE.md'), 'utf8');
    expect(archive).toContain('- [Old plan](<project old plan.md>) — Cutover planned for 2026-03-01 (archived on 2026-11-29');
    // The link leads to the file (ARCHIVE.md said `](project old plan.md)`, which is no link), and a second run changes nothing.
    expect(existsSync(join(dir, '.claude/memory-archive/project old plan.md'))).toBe(true);
    expect(archive).toContain('- [Cutover](project%2520cutover.md) — Cutover held on 2026-03-01 (archived on 2026-11-29');
    expect(existsSync(join(dir, '.claude/memory-archive/project%20cutover.md'))).toBe(true);
    const before = treeSnapshot(dir);
    await memlintInProcess(dir, ['consolidate', '--force', '--prune'], { env });
    const after = treeSnapshot(dir);
    before.delete(`${MEM}/.consolidate-lock`);
    after.delete(`${MEM}/.consolidate-lock`);
    expect(after).toEqual(before);
  });

  it('--json reports each memdir with its changes', async () => {
    const dir = memoryRepo();
    const r = await memlintInProcess(dir, ['consolidate', '--check', '--json'], { env });
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out.memdirs).toHaveLength(1);
    expect(out.memdirs[0]).toMatchObject({ memdir: join(dir, MEM), status: 'would-change' });
    expect(out.memdirs[0].changes).toContainEqual({ action: 'create', path: join(dir, '.claude/memory-archive/ARCHIVE.md') });
    expect(out.memdirs[0].report.logs.untagged).toEqual([{ log: 'logs/2026/11/2026-11-26.md', line: 4, text: '10:00 — lunch' }]);
  });

  it('keeps the gates: 24 h and 5 memory-changing commits since the last consolidation', async () => {
    const dir = memoryRepo();
    const before = treeSnapshot(dir);
    const r = await memlintInProcess(dir, ['consolidate'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('not due: 2 memory-changing commits since the last consolidation (gate: 5)');
    expect(treeSnapshot(dir)).toEqual(before);
    for (let i = 0; i < 3; i++) {
      writeFileSync(join(dir, MEM, 'user_role.md'), topic('Role', 'user', 'Backend lead on payments', `Reads diffs first. ${i}\n`));
      git(dir, 'commit', '-q', '-am', `memory ${i}`);
    }
    expect((await memlintInProcess(dir, ['consolidate'], { env })).stdout).toContain('consolidated');
    // Just consolidated: the time gate is closed now.
    expect((await memlintInProcess(dir, ['consolidate'], { env })).stdout).toMatch(/not due: last consolidated \d+ min ago \(gate: 24 h\)/);
  });

  it('respects a live Claude Code lock (fresh mtime, running PID), even with --force', () => {
    const dir = memoryRepo();
    const holder = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    children.push(holder);
    writeFileSync(join(dir, MEM, '.consolidate-lock'), String(holder.pid));
    const before = treeSnapshot(dir);
    const r = memlint(dir, ['consolidate', '--force'], { env });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`being consolidated by process ${holder.pid}`);
    expect(treeSnapshot(dir)).toEqual(before);
    // An hour later the holder counts as stale and the lock is reclaimed.
    const old = (Date.now() - 61 * 60 * 1000) / 1000;
    utimesSync(join(dir, MEM, '.consolidate-lock'), old, old);
    expect(memlint(dir, ['consolidate', '--force'], { env }).stdout).toContain('consolidated');
  });

  it('two consolidations started together: exactly one runs', async () => {
    const dir = memoryRepo();
    // The agent step of the winner waits for the test's go-ahead, holding the lock meanwhile.
    git(dir, 'config', 'memlint.consolidateCommand', 'echo $$ >> ran.txt; while [ ! -f go ]; do sleep 0.05; done');
    const start = () =>
      new Promise<{ code: number; out: string }>((resolve) => {
        const c = spawn(process.execPath, [CLI, 'consolidate', '--force'], { cwd: dir, env: { ...process.env, ...env } });
        children.push(c);
        let out = '';
        c.stdout.on('data', (b) => (out += b));
        c.stderr.on('data', (b) => (out += b));
        c.on('close', (code) => resolve({ code: code ?? -1, out }));
      });
    const a = start();
    const b = start();
    const first = await Promise.race([a, b]);
    expect(first.code).toBe(1);
    expect(first.out).toMatch(/being consolidated by process \d+|took .*\.consolidate-lock first/);
    writeFileSync(join(dir, 'go'), '');
    const results = await Promise.all([a, b]);
    expect(results.map((r) => r.code).sort()).toEqual([0, 1]);
    expect(readFileSync(join(dir, 'ran.txt'), 'utf8').trim().split('\n')).toHaveLength(1);
  });

  // The writer's operations here: the duplicate's copy into the archive, ARCHIVE.md, the merged
  // topic, MEMORY.md, then the duplicate's removal from the memdir. Killed after each of the first
  // four (with the next one's temporary file written):
  it.each([1, 2, 3, 4])('a run killed with SIGKILL after %i writes leaves every file whole, and the next run reclaims the lock and finishes', async (ops) => {
    const duplicate = { [`${MEM}/feedback_testing_copy.md`]: topic('Testing', 'feedback', 'Tests use Postgres', '- Never mock the database.\n- Fresh schema per test.\n') };
    const dir = memoryRepo(duplicate);
    const reference = memoryRepo(duplicate);
    await memlintInProcess(reference, ['consolidate', '--force'], { env });
    const expected = withoutCommitIds(treeSnapshot(reference));
    const before = treeSnapshot(dir);
    const killedPid = (await memlintKilledBefore(dir, ['consolidate', '--force'], ops + 1, env, children)).pid;
    const mid = withoutCommitIds(treeSnapshot(dir));
    for (const [rel, text] of mid) {
      if (rel.endsWith('.consolidate-lock') || /\.memlint-\d+-[0-9a-z]+-\d+\.tmp$/.test(rel)) continue;
      expect([before.get(rel), expected.get(rel)]).toContain(text);
    }
    // Nothing is in neither place: the duplicate is in the memdir still, or in the archive already.
    expect(mid.has(`${MEM}/feedback_testing_copy.md`) || mid.has('.claude/memory-archive/feedback_testing_copy.md')).toBe(true);
    // The dead holder's lock is fresh, but its PID is gone: the next run takes it.
    expect(readFileSync(join(dir, MEM, '.consolidate-lock'), 'utf8')).toBe(String(killedPid));
    const r = await memlintInProcess(dir, ['consolidate', '--force'], { env });
    expect(r.code).toBe(0);
    const final = withoutCommitIds(treeSnapshot(dir));
    for (const s of [final, expected]) s.delete(`${MEM}/.consolidate-lock`);
    expect(final).toEqual(expected);
  });

  it('leaves a memory folder holding conflict markers as it is: they are the person\'s to settle (a user trial, December 2026)', async () => {
    const dir = memoryRepo({ [`${MEM}/logs/2026/11/2026-11-27.md`]: '# 2026-11-27\n\n- 09:00 [feedback_testing] Shipped the importer.\n<<<<<<< ours\n- 10:00 [feedback_testing] Demo is on Monday.\n=======\n- 10:00 [feedback_testing] Demo moved to Tuesday.\n>>>>>>> theirs\n' });
    const before = treeSnapshot(dir);
    for (const args of [['consolidate', '--force'], ['consolidate', '--check']]) {
      const r = await memlintInProcess(dir, args, { env });
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stdout).toContain(`${MEM}: not consolidated: logs/2026/11/2026-11-27.md holds conflict markers: settle them first ("memlint resolve"), then consolidate`);
    }
    const after = treeSnapshot(dir);
    for (const s of [before, after]) s.delete(`${MEM}/.consolidate-lock`);
    expect(after).toEqual(before);
    expect(readFileSync(join(dir, MEM, 'feedback_testing.md'), 'utf8')).not.toContain('Demo');
  });

  it('adds log entries before a topic\'s closing "## From the index" section, not into it (a user trial, December 2026)', async () => {
    const dir = memoryRepo({ [`${MEM}/user_role.md`]: topic('Role', 'user', 'Backend lead on payments', 'Reads diffs first.\n\n## From the index\n\nmoved out of an over-long index line\n') });
    writeFiles(dir, { [`${MEM}/logs/2026/11/2026-11-28.md`]: '# 2026-11-28\n\n- 09:00 [user_role] Asked for smaller pull requests.\n' });
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'log');
    expect((await memlintInProcess(dir, ['consolidate', '--force'], { env })).code).toBe(0);
    const role = readFileSync(join(dir, MEM, 'user_role.md'), 'utf8');
    expect(role).toBe(topic('Role', 'user', 'Backend lead on payments', 'Reads diffs first.\n\n- Asked for smaller pull requests. (2026-11-28)\n\n## From the index\n\nmoved out of an over-long index line\n'));
    const again = await memlintInProcess(dir, ['consolidate', '--force'], { env });
    expect(again.code).toBe(0);
    expect(readFileSync(join(dir, MEM, 'user_role.md'), 'utf8')).toBe(role);
  });

  it('runs the agent step under the lock and rolls back a result that fails lint', async () => {
    const dir = memoryRepo();
    await memlintInProcess(dir, ['consolidate', '--force'], { env });
    const before = treeSnapshot(dir);
    git(dir, 'config', 'memlint.consolidateCommand', `printf 'no frontmatter\\n' > "$MEMLINT_MEMDIR/broken.md"; printf 'edited\\n' >> "$MEMLINT_MEMDIR/user_role.md"`);
    const r = await memlintInProcess(dir, ['consolidate', '--force'], { env });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('agent step rolled back');
    const after = treeSnapshot(dir);
    expect(after.get(`${MEM}/user_role.md`)).toBe(before.get(`${MEM}/user_role.md`));
    expect(after.has(`${MEM}/broken.md`)).toBe(false);
    // Nothing is deleted: the rejected new file is kept in the archive.
    expect([...after.keys()].some((p) => p.startsWith('.claude/memory-archive/rejected/') && p.endsWith('/broken.md'))).toBe(true);
  });

  it('judges the agent by the errors it brings in, not by errors already there', async () => {
    const dir = memoryRepo();
    await memlintInProcess(dir, ['consolidate', '--force'], { env });
    // An old error the agent did not cause: a topic whose type is not one of the four.
    writeFiles(dir, { [`${MEM}/user_role.md`]: topic('Role', 'boss', 'Backend lead on payments', 'Reads diffs first.\n') });
    git(dir, 'config', 'memlint.consolidateCommand', `printf -- '- Keeps fixtures small.\\n' >> "$MEMLINT_MEMDIR/feedback_testing.md"`);
    const r = await memlintInProcess(dir, ['consolidate', '--force'], { env });
    expect(r.stdout).toContain('agent step changed feedback_testing.md');
    expect(readFileSync(join(dir, MEM, 'feedback_testing.md'), 'utf8')).toContain('- Keeps fixtures small.');
  });

  it('keeps an agent step result that passes lint', async () => {
    const dir = memoryRepo();
    await memlintInProcess(dir, ['consolidate', '--force'], { env });
    git(dir, 'config', 'memlint.consolidateCommand', `printf -- '- Prefers small pull requests.\\n' >> "$MEMLINT_MEMDIR/user_role.md"`);
    const r = await memlintInProcess(dir, ['consolidate', '--force'], { env });
    expect(r.stdout).toContain('agent step changed user_role.md');
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, MEM, 'user_role.md'), 'utf8')).toContain('- Prefers small pull requests.');
  });
});
