// no-stale-reference on `[[name]]` links (issue 25): a link to a memory that a commit renamed or
// removed is reported, naming the new name or the commit; a link that never matched a memory stays
// silent (Claude Code 2.1.332: it "marks something worth writing later"). Real repositories, real git.
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { mergedFate, nameFate, nameHistory } from '../../src/lint/stale-links.js';
import { memoryNameChanges, NAME_HISTORY_COMMITS, parseCommitLines, parseNameChanges } from '../../src/git/lost-paths.js';
import { memlintInProcess } from '../helpers/in-process.js';
import { commitFiles, git, gitAt, initRepo, memlint, tempDir, writeFiles } from '../helpers/repo.js';

const MEM = '.claude/memory';
const topic = (name: string, body: string) => `---\nname: ${name}\ndescription: About ${name}\nmetadata:\n  type: reference\n---\n${body}\n`;
const index = (...rels: string[]) => rels.map((r) => `- [${r}](${r}) — ${r}\n`).join('');
const onlyStale = JSON.stringify({ rules: { 'no-stale-reference': 'warn', 'index-orphan': 'off', 'feedback-structure': 'off' } });

async function staleMessages(repo: string, args: string[] = [MEM]): Promise<string[]> {
  const r = await memlintInProcess(repo, [...args, '--format', 'json'], { env: { MEMLINT_TODAY: '2026-12-01' } });
  expect(r.stderr).toBe('');
  const results = JSON.parse(r.stdout) as Array<{ filePath: string; messages: Array<{ ruleId: string; line: number; column: number; message: string }> }>;
  return results.flatMap((f) => f.messages.filter((m) => m.ruleId === 'no-stale-reference').map((m) => `${f.filePath.slice(repo.length + MEM.length + 2)}:${m.line}:${m.column} ${m.message}`));
}

const short = (repo: string) => git(repo, 'log', '-1', '--format=%h %cs').trim().split(' ') as [string, string];

/** A repository whose memory holds billing-rules and old-thing, then a commit renames the first and removes the second. */
function renamedAndRemoved(linking: string): { repo: string; commit: string; date: string } {
  const repo = initRepo();
  commitFiles(repo, {
    '.memlintrc.json': onlyStale,
    [`${MEM}/MEMORY.md`]: index('billing.md', 'old.md', 'notes.md'),
    [`${MEM}/billing.md`]: topic('billing-rules', 'Round half to even.'),
    [`${MEM}/old.md`]: topic('old-thing', 'Old.'),
    [`${MEM}/notes.md`]: topic('notes', 'Nothing yet.'),
  });
  writeFiles(repo, { [`${MEM}/billing.md`]: topic('ledger-rounding', 'Round half to even.'), [`${MEM}/MEMORY.md`]: index('billing.md', 'notes.md') });
  git(repo, 'rm', '-q', `${MEM}/old.md`);
  git(repo, 'commit', '-qam', 'rename billing-rules, drop old-thing');
  const [commit, date] = short(repo);
  writeFiles(repo, { [`${MEM}/notes.md`]: topic('notes', linking) });
  return { repo, commit, date };
}

describe('[[name]] links to a memory history renamed or removed', () => {
  it('names the new name or the removing commit; a link that never matched a memory, or one in code, is silent', async () => {
    const { repo, commit, date } = renamedAndRemoved('See [[billing-rules]], [[ old-thing | the old one]] and [[future-idea]].\n\n```\n[[billing-rules]]\n```');
    expect(await staleMessages(repo)).toEqual([
      `notes.md:7:7 [[billing-rules]] links to a memory renamed to [[ledger-rounding]] in ${commit} (${date}): the link names a memory that no longer exists`,
      `notes.md:7:27 [[old-thing]] links to a memory removed in ${commit} (${date}): the link names a memory that no longer exists`,
    ]);
  });

  it('--fix points a renamed link at the new name, its display part and every other byte kept; a removed one stays', async () => {
    const { repo } = renamedAndRemoved('See [[billing-rules|the rules]] and [[old-thing]].');
    const r = await memlintInProcess(repo, ['--fix', MEM], { env: { MEMLINT_TODAY: '2026-12-01' } });
    expect(r.stderr).toBe('');
    expect(readFileSync(join(repo, MEM, 'notes.md'), 'utf8')).toBe(topic('notes', 'See [[ledger-rounding|the rules]] and [[old-thing]].'));
  });

  it('a name renamed twice leads to its last name; a name another memory took in the same commit is not stale', async () => {
    const repo = initRepo();
    commitFiles(repo, { '.memlintrc.json': onlyStale, [`${MEM}/MEMORY.md`]: index('a.md', 'b.md', 'c.md'), [`${MEM}/a.md`]: topic('first', 'A.'), [`${MEM}/b.md`]: topic('moving', 'B.') });
    commitFiles(repo, { [`${MEM}/a.md`]: topic('second', 'A.') });
    commitFiles(repo, { [`${MEM}/a.md`]: topic('third', 'A.') });
    const [commit, date] = short(repo);
    // "moving" leaves b.md for c.md in one commit: it never stopped naming a memory.
    writeFiles(repo, { [`${MEM}/c.md`]: topic('moving', 'C.') });
    git(repo, 'rm', '-q', `${MEM}/b.md`);
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'move');
    writeFiles(repo, { [`${MEM}/notes.md`]: topic('notes', '[[first]] and [[moving]]'), [`${MEM}/MEMORY.md`]: index('a.md', 'c.md', 'notes.md') });
    expect(await staleMessages(repo)).toEqual([`notes.md:7:3 [[first]] links to a memory renamed to [[third]] in ${commit} (${date}): the link names a memory that no longer exists`]);
  });

  it('a link written on a branch to a memory that consolidation merged away is reported after the merge, naming the kept memory', async () => {
    const repo = initRepo();
    const body = '- Never mock the database.\n- Use the shared fixture.\n- Fresh schema per test.';
    commitFiles(repo, {
      '.memlintrc.json': onlyStale,
      [`${MEM}/MEMORY.md`]: index('a.md', 'b.md', 'ci.md'),
      [`${MEM}/a.md`]: topic('db-tests', body),
      [`${MEM}/b.md`]: topic('database-testing', body),
      [`${MEM}/ci.md`]: topic('ci', 'See [[database-testing]].'),
    });
    git(repo, 'branch', 'side');
    const c = await memlintInProcess(repo, ['consolidate', '--force'], { env: { MEMLINT_TODAY: '2026-12-01' } });
    expect(c.code).toBe(0);
    // consolidation merged b.md into a.md and pointed the link at the memory that holds the text
    expect(readFileSync(join(repo, MEM, 'ci.md'), 'utf8')).toBe(topic('ci', 'See [[db-tests]].'));
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'consolidate');
    const [commit, date] = short(repo);
    expect(await staleMessages(repo)).toEqual([]);
    git(repo, 'checkout', '-q', 'side');
    commitFiles(repo, { [`${MEM}/ops.md`]: topic('ops', 'Ask about [[database-testing]].'), [`${MEM}/MEMORY.md`]: index('a.md', 'b.md', 'ci.md', 'ops.md') });
    git(repo, 'checkout', '-q', '-');
    git(repo, 'merge', '-q', '--no-edit', 'side');
    // The consolidation commit removed b.md and rewrote its links to db-tests: a merge, named so, and fixed.
    expect(await staleMessages(repo)).toEqual([`ops.md:7:13 [[database-testing]] links to a memory merged into [[db-tests]] in ${commit} (${date}): the link names a memory that no longer exists`]);
    await memlintInProcess(repo, ['--fix', MEM], { env: { MEMLINT_TODAY: '2026-12-01' } });
    expect(readFileSync(join(repo, MEM, 'ops.md'), 'utf8')).toBe(topic('ops', 'Ask about [[db-tests]].'));
  });
});

/** A `git` first on PATH that logs its arguments and runs the real one. */
function gitWrapper(): { env: NodeJS.ProcessEnv; calls: () => string[] } {
  const bin = tempDir('memlint-gitwrap-');
  const log = join(bin, 'calls.log');
  const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  writeFileSync(join(bin, 'git'), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec '${real}' "$@"\n`);
  chmodSync(join(bin, 'git'), 0o755);
  return { env: { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH}` }, calls: () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []) };
}

describe('the git work of link checking', () => {
  it('one git log for a memdir whatever the number of dangling links; none when every link resolves, none for --staged without memory', () => {
    const repo = initRepo();
    const files: Record<string, string> = { '.memlintrc.json': onlyStale, [`${MEM}/MEMORY.md`]: '' };
    const rels: string[] = [];
    for (let i = 0; i < 20; i++) {
      files[`${MEM}/t${i}.md`] = topic(`t${i}`, `[[t${(i + 1) % 20}]] then [[idea-${i}]] and [[other-${i}]]`);
      rels.push(`t${i}.md`);
    }
    files[`${MEM}/MEMORY.md`] = index(...rels);
    commitFiles(repo, files);
    const nameLogs = (calls: string[]) => calls.filter((c) => /\blog\b.*-G/.test(c));
    const dangling = gitWrapper();
    expect(memlint(repo, [MEM], { env: dangling.env }).code).toBe(0);
    expect(nameLogs(dangling.calls())).toHaveLength(1);

    for (let i = 0; i < 20; i++) files[`${MEM}/t${i}.md`] = topic(`t${i}`, `[[t${(i + 1) % 20}]]`);
    commitFiles(repo, files);
    const resolved = gitWrapper();
    expect(memlint(repo, [MEM], { env: resolved.env }).code).toBe(0);
    expect(nameLogs(resolved.calls())).toEqual([]);

    writeFiles(repo, { 'src/app.ts': 'export {};\n' });
    git(repo, 'add', 'src/app.ts');
    const staged = gitWrapper();
    expect(memlint(repo, ['--staged'], { env: staged.env }).code).toBe(0);
    expect(nameLogs(staged.calls())).toEqual([]);
  });

  it('one git show for the commit that removed memories many others link', () => {
    const repo = initRepo();
    const files: Record<string, string> = { '.memlintrc.json': onlyStale, [`${MEM}/MEMORY.md`]: '' };
    for (let i = 0; i < 10; i++) files[`${MEM}/gone${i}.md`] = topic(`gone${i}`, 'soon removed');
    for (let i = 0; i < 20; i++) files[`${MEM}/t${i}.md`] = topic(`t${i}`, `see [[gone${i % 10}]]`);
    files[`${MEM}/MEMORY.md`] = index(...Object.keys(files).filter((f) => f.startsWith(`${MEM}/t`)).map((f) => f.slice(MEM.length + 1)));
    commitFiles(repo, files);
    for (let i = 0; i < 10; i++) git(repo, 'rm', '-q', `${MEM}/gone${i}.md`);
    git(repo, 'commit', '-qm', 'remove the gone memories');
    const run = gitWrapper();
    const r = memlint(repo, [MEM, '--format', 'json'], { env: run.env });
    expect(r.stdout.match(/links to a memory removed/g)).toHaveLength(20);
    expect(run.calls().filter((c) => / show -U0 /.test(c))).toHaveLength(1);
  });
});

/**
 * Commits made with git fast-import (one git process for all of them): each entry is one commit,
 * the files it writes, one second after the one before.
 */
function fastCommits(repo: string, commits: Array<Record<string, string>>): void {
  let stream = '';
  commits.forEach((files, i) => {
    stream += `commit refs/heads/main\ncommitter Test <test@example.com> ${1764000000 + i} +0000\ndata 2\nc\n`;
    for (const [path, text] of Object.entries(files)) stream += `M 100644 inline ${path}\ndata ${Buffer.byteLength(text)}\n${text}\n`;
    stream += '\n';
  });
  execFileSync('git', ['fast-import', '--quiet'], { cwd: repo, input: stream });
  git(repo, 'reset', '-q', '--hard', 'main');
}

describe('the name history read is bounded', () => {
  it(`reads the newest ${NAME_HISTORY_COMMITS} commits that touched the memory folder, however long its history`, async () => {
    const repo = initRepo();
    const churn: Array<Record<string, string>> = [];
    let body = 'Started.';
    for (let i = 0; i < NAME_HISTORY_COMMITS + 20; i++) churn.push({ [`${MEM}/c.md`]: topic('churn', (body += `\nLine ${i}.`)) });
    fastCommits(repo, [
      { '.memlintrc.json': onlyStale, [`${MEM}/MEMORY.md`]: index('a.md', 'b.md', 'c.md', 'notes.md'), [`${MEM}/a.md`]: topic('alpha', 'A.'), [`${MEM}/b.md`]: topic('beta', 'B.'), [`${MEM}/c.md`]: topic('churn', body), [`${MEM}/notes.md`]: topic('notes', 'None.') },
      { [`${MEM}/a.md`]: topic('alpha-new', 'A.') },
      ...churn,
      { [`${MEM}/b.md`]: topic('beta-new', 'B.'), 'src/app.ts': 'export {};\n' },
    ]);
    writeFiles(repo, { [`${MEM}/notes.md`]: topic('notes', 'See [[alpha]] and [[beta]].') });
    const trace = join(tempDir('memlint-trace-'), 'trace.json');
    const r = await memlintInProcess(repo, [MEM, '--format', 'json'], { env: { MEMLINT_TODAY: '2026-12-01', GIT_TRACE2_EVENT: trace } });
    const messages = (JSON.parse(r.stdout) as Array<{ messages: Array<{ ruleId: string; message: string }> }>).flatMap((f) => f.messages).filter((m) => m.ruleId === 'no-stale-reference');
    // The rename within the newest commits is followed; the one 520 memory commits back is past the bound.
    expect(messages.map((m) => m.message.replace(/ in [0-9a-f]{7} \(.*?\)/, ''))).toEqual(['[[beta]] links to a memory renamed to [[beta-new]]: the link names a memory that no longer exists']);
    // What git walked, counted: the walk's one list of commits, asked again from git's own trace, holds the bound's number.
    const starts = readFileSync(trace, 'utf8').split('\n').filter((l) => l.includes('"event":"start"')).map((l) => (JSON.parse(l) as { argv: string[] }).argv.slice(1));
    const walks = starts.filter((a) => a.includes('rev-list'));
    expect(walks).toHaveLength(1);
    expect(git(repo, ...walks[0]!).trim().split('\n')).toHaveLength(NAME_HISTORY_COMMITS);
    expect(git(repo, 'rev-list', '--count', 'HEAD', '--', MEM).trim()).toBe(String(NAME_HISTORY_COMMITS + 23));
    // The patches read come from those commits alone (git log --no-walk, fed the list): the one
    // name change in them, against two in the whole history.
    const logs = starts.filter((a) => a.includes('-G'));
    expect(logs).toHaveLength(1);
    expect(logs[0]).toContain('--no-walk=unsorted');
    expect(memoryNameChanges(gitAt(repo), MEM).filter((c) => c.removed.length > 0).map((c) => c.removed)).toEqual([['beta']]);
    expect(memoryNameChanges(gitAt(repo), MEM, NAME_HISTORY_COMMITS + 23).filter((c) => c.removed.length > 0).map((c) => c.removed)).toEqual([['alpha'], ['beta']]);
  });
});

describe('reading name changes (pure)', () => {
  it('a name edited, a file deleted, a file moved with a new name; names below the frontmatter ignored', () => {
    const out = [
      '\x01c1 2026-01-01\n',
      'diff --git a/m/a.md b/m/a.md\nindex 1..2 100644\n--- a/m/a.md\n+++ b/m/a.md\n@@ -2 +2 @@\n-name: "old"\n+name: new # renamed\n',
      'diff --git a/m/b.md b/m/b.md\ndeleted file mode 100644\nindex 1..0\n--- a/m/b.md\n+++ /dev/null\n@@ -1,3 +0,0 @@\n----\n-name: gone\n----\n',
      'diff --git a/m/c.md b/m/d.md\nsimilarity index 80%\nrename from m/c.md\nrename to m/d.md\n--- a/m/c.md\n+++ b/m/d.md\n@@ -2 +2 @@\n-name: c\n+name: d\n@@ -40 +40 @@\n-name: body-line\n+name: body-too\n',
    ].join('');
    const changes = parseNameChanges(out);
    expect(changes.map((c) => [c.from, c.to, c.removed, c.added])).toEqual([
      ['m/a.md', 'm/a.md', ['old'], ['new']],
      ['m/b.md', null, ['gone'], []],
      ['m/c.md', 'm/d.md', ['c'], ['d']],
    ]);
    const history = nameHistory(changes, 'm');
    const none = () => false;
    expect(nameFate('old', history, none)).toEqual({ kind: 'renamed', to: 'new', commit: 'c1', date: '2026-01-01' });
    expect(nameFate('gone', history, none)).toEqual({ kind: 'removed', commit: 'c1', date: '2026-01-01' });
    expect(nameFate('b', history, none)).toEqual({ kind: 'removed', commit: 'c1', date: '2026-01-01' });
    expect(nameFate('c', history, none)).toEqual({ kind: 'renamed', to: 'd', commit: 'c1', date: '2026-01-01' });
    expect(nameFate('new', history, none)).toBeNull();
    expect(nameFate('never', history, none)).toBeNull();
  });
});

describe('telling a merge from a removal (pure)', () => {
  it('a removal whose commit rewrote [[old]] into [[new]], all else kept, is a merge into new', () => {
    const out = '\x01c2\n\ndiff --git a/m/ci.md b/m/ci.md\n--- a/m/ci.md\n+++ b/m/ci.md\n@@ -7 +7 @@\n-See [[old|the tests]] now.\n+See [[new|the tests]] now.\n';
    const lines = parseCommitLines(out);
    expect(lines).toEqual([{ commit: 'c2', removed: ['See [[old|the tests]] now.'], added: ['See [[new|the tests]] now.'] }]);
    const removed = { kind: 'removed' as const, commit: 'c2', date: '2026-01-02' };
    expect(mergedFate('old', removed, lines)).toEqual({ kind: 'renamed', to: 'new', commit: 'c2', date: '2026-01-02', merged: true });
    // Another commit, or a line changed beyond the link: still removed.
    expect(mergedFate('old', { ...removed, commit: 'c3' }, lines)).toEqual({ ...removed, commit: 'c3' });
    const edited = parseCommitLines(out.replace('+See [[new|the tests]] now.', '+See [[new|the tests]] later.'));
    expect(mergedFate('old', removed, edited)).toEqual(removed);
  });
});
