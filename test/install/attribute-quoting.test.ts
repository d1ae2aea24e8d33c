// Memory folders whose path git's attribute patterns read specially (a space, `[`, `*`, `?`, `\`):
// install writes their .gitattributes lines as git reads them (escaped, C-quoted where needed), a
// second install and a hand-quoted line change nothing, doctor checks them through git check-attr,
// real git routes a merge to the driver, and uninstall takes the lines out again.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { attributeLineKey, attributeLines } from '../../src/merge/command.js';
import { memlintInProcess } from '../helpers/in-process.js';
import { git, importCommits, writeFiles } from '../helpers/repo.js';
import { files, project, topic } from './helpers.js';

const UNLINKED = { env: { MEMLINT_LINK: '0' } };
const SPACE = 'packages/a b ü/.claude/memory';
const CLASS = 'packages/x[1]/.claude/memory';
const GLOBS = 'packages/p*q?\\r/.claude/memory';

function gitRun(cwd: string, ...args: string[]): { code: number; out: string; err: string } {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_EDITOR: 'true' } });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

function addMemdir(dir: string, memdir: string): void {
  writeFiles(dir, {
    [`${memdir}/MEMORY.md`]: '# Memory\n\n- [Dash](reference_dash.md) — dashboards\n',
    [`${memdir}/reference_dash.md`]: topic('Dash', 'reference', 'dashboards', 'Grafana.\n'),
  });
}

/** `PATH: merge: VALUE`, from git check-attr -z (unquoted). */
const mergeOf = (dir: string, path: string) => gitRun(dir, 'check-attr', '-z', 'merge', '--', path).out.split('\0').slice(0, 3).join(': ');

describe('install with memory folders git patterns read specially', () => {
  it('writes lines git reads: escaped, C-quoted for a space', () => {
    expect(attributeLines(SPACE)).toEqual(['"packages/a b ü/.claude/memory/**/*.md" merge=memlint']);
    expect(attributeLines(CLASS)).toEqual(['packages/x\\[1]/.claude/memory/**/*.md merge=memlint']);
    expect(attributeLines(GLOBS)).toEqual(['packages/p\\*q\\?\\\\r/.claude/memory/**/*.md merge=memlint']);
    expect(attributeLines('!x/#y')).toEqual(['\\!x/#y/**/*.md merge=memlint']);
    expect(attributeLines('.claude/memory')).toEqual(['.claude/memory/**/*.md merge=memlint']);
    // The same line however it is quoted; a different one when the words differ.
    expect(attributeLineKey('"packages/x\\\\[1]/m/**/*.md"   merge=memlint')).toBe(attributeLineKey('packages/x\\[1]/m/**/*.md merge=memlint'));
    expect(attributeLineKey('"a\\040b\\303\\274" merge=memlint')).toBe(attributeLineKey('"a bü" merge=memlint'));
    expect(attributeLineKey('a b merge=memlint')).not.toBe(attributeLineKey('"a b" merge=memlint'));
  });

  it('routes the folders to the driver, stays put on a second install, doctor agrees, uninstall removes them', async () => {
    const dir = project();
    for (const m of [SPACE, CLASS, GLOBS]) addMemdir(dir, m);
    const r = await memlintInProcess(dir, ['install'], UNLINKED);
    expect(r.code).toBe(0);
    const attrs = readFileSync(join(dir, '.gitattributes'), 'utf8');
    expect(attrs).toContain('\n"packages/a b ü/.claude/memory/**/*.md" merge=memlint\n');
    expect(attrs).toContain('\npackages/x\\[1]/.claude/memory/**/*.md merge=memlint\n');
    git(dir, 'add', '-A');
    const commit = gitRun(dir, 'commit', '-q', '-m', 'memdirs');
    expect(commit.err).not.toContain('not a valid attribute name');
    for (const m of [SPACE, CLASS, GLOBS]) {
      for (const f of ['MEMORY.md', 'reference_dash.md', 'logs/2026/01/2026-01-02.md']) expect(mergeOf(dir, `${m}/${f}`)).toBe(`${m}/${f}: merge: memlint`);
    }
    // Only the folder itself: `[1]` is not a class, `*` and `?` match no other name.
    for (const other of ['packages/x1/.claude/memory/MEMORY.md', 'packages/pzqzr/.claude/memory/MEMORY.md']) expect(mergeOf(dir, other)).toBe(`${other}: merge: unspecified`);

    const before = files(dir);
    const again = await memlintInProcess(dir, ['install'], UNLINKED);
    expect(again.code).toBe(0);
    expect(files(dir)).toEqual(before);

    const doctor = await memlintInProcess(dir, ['doctor'], UNLINKED);
    expect(doctor.stdout).toMatch(/^ok +attributes: /m);

    const un = await memlintInProcess(dir, ['uninstall'], UNLINKED);
    expect(un.code).toBe(0);
    // The block held nothing else, so the file goes; git would read the committed copy from the index now.
    expect(existsSync(join(dir, '.gitattributes'))).toBe(false);
  });

  it('replaces the unquoted line an earlier install wrote, and adds nothing for a line quoted by hand', async () => {
    const dir = project();
    addMemdir(dir, SPACE);
    addMemdir(dir, CLASS);
    writeFileSync(
      join(dir, '.gitattributes'),
      [
        '"packages/x\\\\[1]/.claude/memory/**/*.md"\tmerge=memlint',
        '# >>> memlint memory files merge with the memlint driver',
        '.claude/memory/**/*.md merge=memlint',
        'packages/a b ü/.claude/memory/**/*.md merge=memlint',
        '# <<< memlint',
        '',
      ].join('\n'),
    );
    const doctor = await memlintInProcess(dir, ['doctor'], UNLINKED);
    expect(doctor.stdout).toMatch(/^FAIL +attributes: .*packages\/a b ü\/\.claude\/memory.*; fix: memlint install$/m);
    expect(doctor.stdout).not.toMatch(/^FAIL +attributes: .*x\[1\]/m);

    expect((await memlintInProcess(dir, ['install'], UNLINKED)).code).toBe(0);
    const attrs = readFileSync(join(dir, '.gitattributes'), 'utf8');
    expect(attrs).toBe(
      [
        '"packages/x\\\\[1]/.claude/memory/**/*.md"\tmerge=memlint',
        '# >>> memlint memory files merge with the memlint driver',
        '.claude/memory/**/*.md merge=memlint',
        '"packages/a b ü/.claude/memory/**/*.md" merge=memlint',
        '# <<< memlint',
        '',
      ].join('\n'),
    );
    expect(gitRun(dir, 'status').err).toBe('');
    expect((await memlintInProcess(dir, ['doctor'], UNLINKED)).stdout).toMatch(/^ok +attributes: /m);
  });

  it('merges MEMORY.md in a folder named with a space entry by entry, through the driver under real git', async () => {
    const dir = project();
    addMemdir(dir, SPACE);
    expect((await memlintInProcess(dir, ['install'], UNLINKED)).code).toBe(0);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'install');
    const index = `${SPACE}/MEMORY.md`;
    const base = readFileSync(join(dir, index), 'utf8');
    // The two sides by one git fast-import (no checkout each way): the merge below is the test's.
    importCommits(dir, [
      { branch: 'other', from: 'main', message: 'alpha', files: { [index]: `${base}- [Alpha](reference_alpha.md) — alpha\n`, [`${SPACE}/reference_alpha.md`]: topic('Alpha', 'reference', 'alpha', 'A.\n') } },
      { branch: 'main', from: 'main', message: 'beta', files: { [index]: `${base}- [Beta](reference_beta.md) — beta\n`, [`${SPACE}/reference_beta.md`]: topic('Beta', 'reference', 'beta', 'B.\n') } },
    ]);
    const m = gitRun(dir, 'merge', '--no-verify', '--no-edit', 'other');
    expect(m.code, m.out + m.err).toBe(0);
    expect(m.err).not.toContain('not a valid attribute name');
    const merged = readFileSync(join(dir, index), 'utf8');
    expect(merged).not.toContain('<<<<<<<');
    expect(merged).toContain('- [Alpha](reference_alpha.md) — alpha\n');
    expect(merged).toContain('- [Beta](reference_beta.md) — beta\n');
  });
});
