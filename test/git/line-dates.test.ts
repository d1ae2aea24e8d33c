// Line dates for every file of a memory folder from one `git log` (src/git/line-dates.ts), held to
// what `git blame --porcelain` says for each file, in real repositories with edits, a side branch
// merged, a rename, a commit outside the folder and a working text that differs.
import fc from 'fast-check';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { committedLines, datesForText, matchLines, replayLog, unquote } from '../../src/git/line-dates.js';
import { git, gitAt, initRepo, tempDir } from '../helpers/repo.js';

function commitOn(repo: string, day: number, message: string): void {
  const date = `2026-03-${String(day).padStart(2, '0')}T12:00:00+00:00`;
  git(repo, 'add', '-A');
  const env = { ...process.env, GIT_COMMITTER_DATE: date, GIT_AUTHOR_DATE: date };
  const r = spawnSync('git', ['commit', '-qm', message, '--allow-empty'], { cwd: repo, env });
  expect(r.status).toBe(0);
}

/** What `git blame --porcelain [--contents -]` gives each line: YYYY-MM-DD, undefined when not committed. */
function blameDates(repo: string, rel: string, contents?: string): Array<string | undefined> {
  const args = ['blame', '--porcelain', ...(contents === undefined ? [] : ['--contents', '-']), '--', rel];
  const out = spawnSync('git', args, { cwd: repo, input: contents, encoding: 'utf8' }).stdout as string;
  const dates: Array<string | undefined> = [];
  const byCommit = new Map<string, number>();
  let line = 0;
  let commit = '';
  for (const l of out.split('\n')) {
    const head = /^([0-9a-f]{40}) \d+ (\d+)/.exec(l);
    if (head) {
      commit = head[1]!;
      line = Number(head[2]);
      if (byCommit.has(commit)) dates[line] = day(byCommit.get(commit)!, commit);
    } else if (l.startsWith('committer-time ')) {
      byCommit.set(commit, Number(l.slice(15)));
      dates[line] = day(Number(l.slice(15)), commit);
    }
  }
  return dates;
}
const day = (t: number, commit: string) => (/^0+$/.test(commit) ? undefined : new Date(t * 1000).toISOString().slice(0, 10));

describe('line dates from one git log', () => {
  it('date every line as git blame does, across edits, a merge, a rename and an uncommitted change', () => {
    const repo = initRepo(tempDir('memlint-linedates-'));
    const mem = join(repo, 'mem');
    mkdirSync(mem);
    const write = (name: string, lines: string[]) => writeFileSync(join(mem, name), lines.map((l) => `${l}\n`).join(''));
    write('a.md', ['# A', 'one', 'two', 'three']);
    write('b c.md', ['# B', 'alpha', 'beta']);
    writeFileSync(join(repo, 'outside.txt'), 'x\n');
    commitOn(repo, 1, 'first');
    write('a.md', ['# A', 'one', 'two and a half', 'three', 'four']);
    commitOn(repo, 2, 'edit a');
    writeFileSync(join(repo, 'outside.txt'), 'y\n');
    commitOn(repo, 3, 'outside only');
    git(repo, 'checkout', '-qb', 'side');
    write('b c.md', ['# B', 'alpha', 'beta', 'gamma from the side']);
    write('a.md', ['# A', 'one', 'two and a half', 'three', 'four', 'five from the side']);
    commitOn(repo, 4, 'side');
    git(repo, 'checkout', '-q', '-');
    write('a.md', ['# A', 'zero on main', 'one', 'two and a half', 'three', 'four']);
    commitOn(repo, 5, 'main');
    const date = '2026-03-06T12:00:00+00:00';
    const env = { ...process.env, GIT_COMMITTER_DATE: date, GIT_AUTHOR_DATE: date };
    expect(spawnSync('git', ['merge', '-q', '--no-edit', 'side'], { cwd: repo, env }).status).toBe(0);
    renameSync(join(mem, 'b c.md'), join(mem, 'b\td.md'));
    commitOn(repo, 7, 'rename');
    write('a.md', ['# A', 'zero on main', 'one', 'two and a half', 'three', 'four', 'five from the side', 'six, merged by hand']);
    commitOn(repo, 8, 'after merge');

    const committed = committedLines(gitAt(repo), [':(literal)mem']);
    expect([...committed.keys()].sort()).toEqual(['mem/a.md', 'mem/b\td.md']);
    for (const rel of committed.keys()) {
      const text = readFileSync(join(repo, rel), 'utf8') as string;
      expect(datesForText(committed.get(rel), text)).toEqual(blameDates(repo, rel));
      // A working text with a line changed, one added and one removed: blame --contents.
      const edited = text.replace('one\n', 'one, edited\n').replace('# B\n', '') + 'a new line\n';
      expect(datesForText(committed.get(rel), edited)).toEqual(blameDates(repo, rel, edited));
    }
    // The side branch's lines keep its date; the merge's own line (none here) would be the merge's.
    expect(datesForText(committed.get('mem/a.md'), readFileSync(join(mem, 'a.md'), 'utf8'))[7]).toBe('2026-03-04');
  });

  it('agree with git blame over random histories of unique lines', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.tuple(fc.nat(20), fc.nat(3), fc.nat(3)), { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 4 }), (commits) => {
        const repo = initRepo(tempDir('memlint-linedates-prop-'));
        mkdirSync(join(repo, 'mem'));
        let lines: string[] = [];
        let n = 0;
        commits.forEach((edits, c) => {
          for (const [at, remove, add] of edits) {
            const i = Math.min(at, lines.length);
            lines.splice(i, remove, ...Array.from({ length: add }, () => `line ${n++}`));
          }
          writeFileSync(join(repo, 'mem', 't.md'), lines.map((l) => `${l}\n`).join(''));
          commitOn(repo, c + 1, `c${c}`);
        });
        const committed = committedLines(gitAt(repo), [':(literal)mem']);
        const text = lines.map((l) => `${l}\n`).join('');
        expect(datesForText(committed.get('mem/t.md'), text)).toEqual(lines.length === 0 ? [] : blameDates(repo, 'mem/t.md'));
      }),
      { numRuns: 5 },
    );
  }, 120_000);

  it('replay a log whose diffs hold characters past U+00FF, line by line', () => {
    const [h1, h2] = ['1'.repeat(40), '2'.repeat(40)];
    const out = [
      `\x01${h1}  2026-03-05T12:00:00+00:00 \x02HEAD -> main`,
      '',
      'diff --git a/mem/t.md b/mem/t.md',
      'new file mode 100644',
      '--- /dev/null',
      '+++ b/mem/t.md',
      '@@ -0,0 +1,3 @@',
      '+first — line',
      '+été',
      '+',
      `\x01${h2} ${h1} 2026-03-07T09:00:00+01:00 \x02`,
      '',
      'diff --git a/mem/t.md b/mem/t.md',
      '--- a/mem/t.md',
      '+++ b/mem/t.md',
      '@@ -2 +2 @@',
      '-été',
      '+summer 下周',
      '',
    ].join('\n');
    expect(replayLog(out).get('mem/t.md')).toEqual({ lines: ['first — line', 'summer 下周', ''], dates: ['2026-03-05', '2026-03-07', '2026-03-05'] });
  });

  it('match lines in order, leaving changed ones unmatched', () => {
    expect([...matchLines(['a', 'b', 'c', 'd'], ['a', 'x', 'c', 'd', 'e'])]).toEqual([0, -1, 2, 3, -1]);
    expect([...matchLines(['a', 'b', 'a', 'b'], ['b', 'a', 'b'])]).toEqual([1, 2, 3]);
    expect(unquote('"mem/b\\td.md"')).toBe('mem/b\td.md');
    expect(unquote('"\\303\\251t\\303\\251.md"')).toBe('été.md');
  });
});
