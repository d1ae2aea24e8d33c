// Bad input gets a clear one-line message and nothing is lost: unreadable, invalid UTF-8, binary,
// a 5 MB file, a 1 MB line, symlinks (never followed out of the repository), a missing path, a
// memdir outside any git repository. One bad file never stops the others from being linted.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, git, initRepo, memlint, tempDir, writeFiles, type CliResult } from '../helpers/repo.js';
import { expectNoStack, topic } from './setup.js';
import { memlintInProcess } from '../helpers/in-process.js';

const SECRET = 'TOPSECRET-OUTSIDE-CONTENT';

/** Make every folder on the way readable, so the CLI can run as an unprivileged user. */
function openUp(dir: string): void {
  chmodSync(dir, 0o755);
  for (const e of readdirSync(dir, { withFileTypes: true })) if (e.isDirectory() && !e.isSymbolicLink()) openUp(join(dir, e.name));
}

/**
 * Run the CLI so that a chmod 000 file really is unreadable: as root (containers, some CI) the
 * permission bits do not apply, so the CLI then runs as the unprivileged user `nobody`.
 */
function memlintUnprivileged(cwd: string, args: string[]): CliResult {
  const root = process.getuid?.() === 0;
  if (!root) return memlint(cwd, args);
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd,
    encoding: 'utf8',
    uid: 65534,
    gid: 65534,
    // The repository belongs to root; let git read it anyway.
    env: { ...process.env, NO_COLOR: '1', MEMLINT_DEBUG: '', HOME: '/tmp', GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'safe.directory', GIT_CONFIG_VALUE_0: '*' },
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** A memdir holding every kind of bad file next to good ones, in `base/mem`. */
function badMemdir(base: string): string {
  const mem = join(base, 'mem');
  const outside = tempDir('memlint-outside-');
  writeFiles(outside, { 'target.md': topic(SECRET) });
  const names = ['good', 'wrongtype', 'unreadable', 'latin1', 'binary', 'huge', 'longline', 'out', 'inside', 'dangling'];
  writeFiles(mem, {
    'MEMORY.md': names.map((n) => `- [${n}](${n}.md) — ${n}`).join('\n') + '\n',
    'good.md': topic('Good'),
    'wrongtype.md': '---\nname: Wrong type\ndescription: A wrong type\ntype: preference\n---\n',
    'unreadable.md': topic('Unreadable'),
    'longline.md': topic('Long line', 'project', `${'y'.repeat(1 << 20)}\n\n**Why:** one long line.\n**How to apply:** read it.\n`),
  });
  writeFileSync(join(mem, 'latin1.md'), Buffer.from('---\nname: Caf\xe9\n---\n', 'latin1'));
  writeFileSync(join(mem, 'binary.md'), Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0x00, 0x01, 0x02]));
  writeFileSync(join(mem, 'huge.md'), topic('Huge') + 'z'.repeat(5 * 1024 * 1024));
  symlinkSync(join(outside, 'target.md'), join(mem, 'out.md'));
  symlinkSync('good.md', join(mem, 'inside.md'));
  symlinkSync('nowhere.md', join(mem, 'dangling.md'));
  openUp(base);
  openUp(outside);
  chmodSync(join(mem, 'unreadable.md'), 0o000);
  return mem;
}

function expectBadInputReport(r: CliResult, mem: string): void {
  expect(r.stderr).toBe('');
  expect(r.code).toBe(1);
  const results = JSON.parse(r.stdout) as Array<{ filePath: string; messages: Array<{ ruleId: string | null; message: string; line: number; fatal?: boolean }> }>;
  const byFile = new Map(results.map((x) => [x.filePath.slice(mem.length + 1), x.messages.map((m) => `${m.ruleId ?? 'input'}: ${m.message}`)]));
  expect(byFile.get('unreadable.md')).toEqual(['input: cannot read file (permission denied); not linted']);
  expect(byFile.get('latin1.md')).toEqual(['input: not valid UTF-8; not linted (Claude Code reads memory as UTF-8)']);
  expect(byFile.get('binary.md')).toEqual(['input: binary file (contains NUL bytes); not linted']);
  expect(byFile.get('huge.md')).toEqual(['input: file is 5.0 MB, too large to be a memory; not linted']);
  expect(byFile.get('out.md')).toEqual(['input: symlink pointing outside the repository; memlint does not follow it']);
  expect(byFile.get('dangling.md')).toEqual(['input: symlink to a missing file; not read']);
  // The good files are linted all the same; the 1 MB line is linted, not refused (and is far past
  // what recall shows of a memory file).
  expect(byFile.get('wrongtype.md')).toEqual(['frontmatter-type: Frontmatter type "preference" is not one of user, feedback, project, reference']);
  expect(byFile.get('good.md')).toEqual([]);
  expect(byFile.get('inside.md')).toEqual([]);
  expect(byFile.get('longline.md')).toEqual(['topic-recall-limit: memory file is 1,048,702 bytes, over the 4,096 bytes recall shows another session (lines 1-5); keep one fact per file: split distinct facts into their own files, or summarize this one to under 2,867 bytes']);
  // Only the dangling symlink's entry dangles; the symlinked-out file is present, just not read.
  expect(byFile.get('MEMORY.md')).toEqual(['index-link-target: Entry links to dangling.md, which does not exist in the memory folder']);
  // Never read, never printed.
  expect(r.stdout).not.toContain(SECRET);
  for (const msgs of byFile.values()) for (const m of msgs) expect(m).not.toContain('\n');
}

describe('bad input', () => {
  it('in a git repository: each bad file reported in one line, the others linted', () => {
    const repo = initRepo(tempDir('memlint-bad-'));
    const mem = badMemdir(repo);
    git(repo, 'add', 'mem/MEMORY.md', 'mem/good.md');
    expectBadInputReport(memlintUnprivileged(repo, ['mem', '--format', 'json']), mem);
  });

  it('outside any git repository: lint works all the same (git-dependent parts skipped)', () => {
    const base = tempDir('memlint-nogit-');
    const mem = badMemdir(base);
    expectBadInputReport(memlintUnprivileged(base, ['mem', '--format', 'json']), mem);
    // Discovery with no path walks the folder.
    const r = memlintUnprivileged(base, ['--list-memdirs']);
    expect(r.stdout).toBe(`${mem}\tlinks\n`);
  });

  it('stylish output: one line per bad file, no stack trace', () => {
    const base = tempDir('memlint-nogit-');
    badMemdir(base);
    const r = memlintUnprivileged(base, ['mem']);
    expect(r.code).toBe(1);
    expectNoStack(r.stdout + r.stderr);
    // The rule column names what SARIF names these problems: memlint-input.
    expect(r.stdout).toMatch(/^mem\/binary\.md:1:1 +error +binary file \(contains NUL bytes\); not linted  memlint-input$/m);
    expect(r.stdout).toMatch(/^mem\/out\.md:1:1 +error +symlink pointing outside the repository; memlint does not follow it  memlint-input$/m);
    expect(r.stdout).toMatch(/^mem\/latin1\.md:1:1 +error +not valid UTF-8; not linted \(Claude Code reads memory as UTF-8\)  memlint-input$/m);
  });

  it('a 1 MB line in MEMORY.md is measured and reported, quickly enough to finish', () => {
    const base = tempDir('memlint-nogit-');
    writeFiles(base, { 'mem/MEMORY.md': `- [A](a.md) — ${'w '.repeat(1 << 19)}\n`, 'mem/a.md': topic('A') });
    const r = memlint(base, ['mem', '--format', 'json']);
    const ids = (JSON.parse(r.stdout) as Array<{ messages: Array<{ ruleId: string }> }>).flatMap((x) => x.messages.map((m) => m.ruleId));
    expect(ids).toEqual(['index-max-bytes', 'index-line-length']);
  });

  it('an unreadable or invalid MEMORY.md does not stop the topic files from being linted', () => {
    const base = tempDir('memlint-nogit-');
    writeFiles(base, { 'mem/a.md': '---\nname: A\ndescription: A\ntype: nope\n---\n' });
    writeFileSync(join(base, 'mem', 'MEMORY.md'), Buffer.from([0xff, 0xfe, 0x00, 0x41]));
    const r = memlint(base, ['mem', '--format', 'json']);
    expect(r.code).toBe(1);
    const msgs = (JSON.parse(r.stdout) as Array<{ filePath: string; messages: Array<{ ruleId: string | null }> }>).map((x) => [x.filePath.split('/').pop(), x.messages.map((m) => m.ruleId)]);
    expect(msgs).toEqual([
      ['MEMORY.md', [null]],
      ['a.md', ['frontmatter-type']],
    ]);
  });

  it('an unreadable memdir is reported and the other memdirs are linted', () => {
    const repo = initRepo(tempDir('memlint-bad-'));
    const bad = '---\nname: A\ndescription: A\ntype: bogus\n---\n';
    writeFiles(repo, { '.claude/memory/MEMORY.md': '- [A](a.md) — a\n', '.claude/memory/a.md': bad, 'memory/MEMORY.md': '- [A](a.md) — a\n', 'memory/a.md': bad });
    git(repo, 'add', '-A');
    openUp(repo);
    chmodSync(join(repo, '.claude', 'memory'), 0o000);
    const r = memlintUnprivileged(repo, ['--format', 'json']);
    chmodSync(join(repo, '.claude', 'memory'), 0o755);
    const msgs = (JSON.parse(r.stdout) as Array<{ filePath: string; messages: Array<{ ruleId: string | null; message: string }> }>).flatMap((x) =>
      x.messages.map((m) => `${x.filePath.slice(repo.length + 1)}: ${m.ruleId ?? 'input'}: ${m.message}`),
    );
    expect(msgs).toEqual([
      '.claude/memory: input: cannot read folder (permission denied); its files are not linted',
      'memory/a.md: frontmatter-type: Frontmatter type "bogus" is not one of user, feedback, project, reference',
    ]);
    expect(r.code).toBe(1);
  });

  it('a path that does not exist is exit 2 with one line', () => {
    const base = tempDir('memlint-nogit-');
    expect(memlint(base, ['missing/MEMORY.md'])).toEqual({ code: 2, stdout: '', stderr: 'memlint: no such file or folder: missing/MEMORY.md\n' });
  });

  it('a memdir path that is a symlink out of the repository is refused, not followed', () => {
    const repo = initRepo(tempDir('memlint-bad-'));
    const outside = tempDir('memlint-outside-');
    writeFiles(outside, { 'MEMORY.md': `- [X](x.md) — ${SECRET}\n`, 'x.md': topic('X') });
    symlinkSync(outside, join(repo, 'mem'));
    const r = memlint(repo, ['mem']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('memlint: mem is a symlink out of the repository; memlint does not follow it\n');
    expect(r.stdout).toBe('');
  });

  it('a topic saved as UTF-16 (as some Windows editors save it) is named so, not called binary', () => {
    const base = tempDir('memlint-utf16-');
    writeFiles(base, { 'mem/MEMORY.md': '- [Wide](wide.md) — saved as UTF-16\n' });
    writeFileSync(join(base, 'mem', 'wide.md'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(topic('Wide'), 'utf16le')]));
    const r = memlint(base, ['mem']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^mem\/wide\.md:1:1 +error +saved as UTF-16, not UTF-8; not linted \(Claude Code reads memory as UTF-8: save it as UTF-8\)  memlint-input$/m);
  });

  it("macOS's AppleDouble files (._MEMORY.md beside MEMORY.md) are no memory: not read, not reported; a text ._x.md is", () => {
    const base = tempDir('memlint-appledouble-');
    initRepo(base);
    writeFiles(base, { 'mem/MEMORY.md': '- [Good](good.md) — a good topic\n', 'mem/good.md': topic('Good'), 'mem/._notes.md': topic('Notes') });
    // The resource fork macOS writes beside each file on a volume without its attributes: binary,
    // opening with AppleDouble's magic number.
    const fork = Buffer.from([0x00, 0x05, 0x16, 0x07, 0x00, 0x02, 0x00, 0x00, 0x4d, 0x61, 0x63, 0x20]);
    mkdirSync(join(base, 'mem', 'sub'));
    for (const name of ['._MEMORY.md', '._good.md', 'sub/._notes.md']) writeFileSync(join(base, 'mem', name), fork);
    git(base, 'add', '-A');
    git(base, 'commit', '-qm', 'memory copied from a Mac');
    const r = memlint(base, ['mem', '--format', 'json', '--rule', 'feedback-structure=off']);
    const reported = (JSON.parse(r.stdout) as Array<{ filePath: string; messages: Array<{ ruleId: string | null }> }>).filter((f) => f.messages.length > 0);
    expect(reported.map((f) => [f.filePath.slice(base.length + 1), f.messages.map((m) => m.ruleId)])).toEqual([['mem/._notes.md', ['index-orphan']]]);
    expect(r.code).toBe(1);
  });

  it('the unreadable file really is unreadable to the CLI (the test means what it says)', () => {
    const base = tempDir('memlint-nogit-');
    const mem = badMemdir(base);
    expect(statSync(join(mem, 'unreadable.md')).mode & 0o777).toBe(0);
  });
});

describe('a text memory with a stray NUL byte', () => {
  it('is linted as text, its other findings reported: one NUL in an example is no binary file (fifteenth held-out set)', async () => {
    const repo = initRepo(tempDir('memlint-nul-'));
    const mem = join(repo, 'mem');
    writeFiles(mem, { 'MEMORY.md': '- [Good](good.md) — good\n', 'good.md': topic('Good') });
    const about = `---\nname: Diff bytes\ndescription: How diffs show control bytes\ntype: reference\n---\n${'A diff of a file with control bytes shows them escaped. '.repeat(20)}\n\n`;
    // Named in code: the example itself. Unnamed, in prose: a hidden control character.
    writeFileSync(join(mem, 'diff-bytes.md'), Buffer.concat([Buffer.from(`${about}- The NUL byte example: \`a`), Buffer.from([0]), Buffer.from('b`\n- Stray: c'), Buffer.from([0]), Buffer.from('d\n')]));
    const r = await memlintInProcess(repo, ['mem', '--format', 'json']);
    const results = JSON.parse(r.stdout) as Array<{ filePath: string; messages: Array<{ ruleId: string | null; message: string; line: number }> }>;
    const found = results.flatMap((f) => f.messages.map((m) => `${f.filePath.slice(mem.length + 1)}:${m.line} ${m.ruleId ?? 'input'}: ${m.message}`));
    expect(found).toEqual([
      'diff-bytes.md:1 index-orphan: diff-bytes.md has no entry in MEMORY.md: the agent does not know this memory exists',
      'diff-bytes.md:9 no-hidden-unicode: hidden control character (U+0000)',
    ]);
    // Control bytes through and through are still binary.
    writeFileSync(join(mem, 'diff-bytes.md'), Buffer.concat([Buffer.from(about), Buffer.alloc(40, 1), Buffer.from([0])]));
    const again = JSON.parse((await memlintInProcess(repo, ['mem', '--format', 'json'])).stdout) as typeof results;
    expect(again.flatMap((f) => f.messages.map((m) => m.message))).toContain('binary file (contains NUL bytes); not linted');
  });
});
